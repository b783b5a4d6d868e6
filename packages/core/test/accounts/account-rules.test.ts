import { describe, expect, it } from "vitest";
import { signIn, signUp, verifyEmail } from "../support/through-http";
import { ValidationError } from "../../src";
import { Email, emailProblem, isCommonPassword, normalizeEmail } from "../../src/accounts";
import { parseInput } from "../../src/validation/parse-input";
import { PASSWORD, accountWorld, client, links, tokenFrom } from "./account-fakes";


const fieldsOf = async (p: Promise<unknown>) => {
  const error = await p.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues;
};

describe("e-mail addresses", () => {
  it("are trimmed and lower-cased, so one mailbox is one account", async () => {
    const { deps, users, mailer } = accountWorld();
    await signUp(deps, { email: "  Ada.Lovelace@Example.COM ", password: PASSWORD }, client, links);
    expect([...users.byEmail.keys()]).toEqual(["ada.lovelace@example.com"]);
    // The same address in another case is the same account: no second user, the owner is told.
    await signUp(deps, { email: "ADA.LOVELACE@example.com", password: "another long password" }, client, links);
    expect(users.byId.size).toBe(1);
    expect(mailer.to("ada.lovelace@example.com").map((m) => m.subject)).toEqual([
      "Confirm your e-mail address for Hangar",
      "Someone tried to sign up to Hangar with your address",
    ]);
  });

  it("take at most 254 characters", () => {
    const at254 = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
    expect(at254).toHaveLength(254);
    expect(parseInput(Email, at254)).toBe(at254);
    expect(() => parseInput(Email, `${at254.slice(0, -4)}x.com`.replace("@", "@e"))).toThrow(/at most 254/);
  });

  it.each([
    ["name@example.com", true],
    ["first.last+tag@sub.example.co.uk", true],
    ["o'brien&co@example.org", true],
    ["name@xn--bcher-kva.example", true],
    ["name@example", false],
    ["@example.com", false],
    ["name@@example.com", false],
    ["a@b@example.com", false],
    [".name@example.com", false],
    ["na..me@example.com", false],
    ["name@-example.com", false],
    ["name@example..com", false],
    ["name@example.c0m", false],
    ['"quoted"@example.com', false],
    ["name @example.com", false],
    ["name@[127.0.0.1]", false],
  ])("%s is accepted: %s", (email, ok) => {
    expect(emailProblem(normalizeEmail(email)) === undefined).toBe(ok);
  });

  it("stores Unicode domains in their ASCII form", () => {
    expect(parseInput(Email, "Name@Bücher.Example")).toBe("name@xn--bcher-kva.example");
  });

  it("checks syntax in linear time: inputs that hang backtracking e-mail regexes return at once", () => {
    // Classic ReDoS payloads for (\w+\.?)+@ style patterns; a backtracking check would not
    // finish within the test timeout on these.
    const payloads = [
      `${"a".repeat(60)}@${"a".repeat(60)}`,
      `${"a.".repeat(30)}@${"a-".repeat(60)}!`,
      `a@${"a".repeat(63)}.${"a".repeat(63)}.${"a".repeat(63)}.${"a".repeat(55)}!`,
      `${"a".repeat(5000)}@example.com`,
    ];
    for (const p of payloads) expect(emailProblem(normalizeEmail(p))).toBeDefined();
    expect(() => parseInput(Email, "x".repeat(100_000))).toThrow(ValidationError);
  });
});

describe("passwords", () => {
  it("need 12 to 256 characters, counted in code points after NFKC", async () => {
    const { deps } = accountWorld();
    expect(await fieldsOf(signUp(deps, { email: "a@example.com", password: "elevenchars" }, client, links))).toEqual([
      { field: "password", message: "must be at least 12 characters" },
    ]);
    expect(await fieldsOf(signUp(deps, { email: "a@example.com", password: "x".repeat(257) }, client, links))).toEqual([
      { field: "password", message: "must be at most 256 characters" },
    ]);
    // Twelve emoji are 24 UTF-16 units but twelve characters: accepted.
    await expect(signUp(deps, { email: "b@example.com", password: "🔑".repeat(12) }, client, links)).resolves.toBeUndefined();
    await expect(signUp(deps, { email: "c@example.com", password: "x".repeat(256) }, client, links)).resolves.toBeUndefined();
    // "ﬁ" is one character that NFKC turns into two: 11 ligatures become 22 characters.
    await expect(signUp(deps, { email: "d@example.com", password: "ﬁ".repeat(11) }, client, links)).resolves.toBeUndefined();
  });

  it("are well-formed Unicode: an unpaired surrogate (which UTF-8 hashing would turn into U+FFFD) is refused", async () => {
    const { deps } = accountWorld();
    expect(await fieldsOf(signUp(deps, { email: "a@example.com", password: "long enough pass \ud800" }, client, links))).toEqual([
      { field: "password", message: "must be well-formed Unicode (an unpaired surrogate cannot be typed)" },
    ]);
    // A pair is one character and fine.
    await expect(signUp(deps, { email: "e@example.com", password: "long enough pass \ud83d\udd11" }, client, links)).resolves.toBeUndefined();
  });

  it("are NFKC-normalized: full-width and ASCII spellings are the same password", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "wide@example.com", password: "ｃｏｒｒｅｃｔ ｈｏｒｓｅ ｂａｔｔｅｒｙ" }, client, links);
    await verifyEmail(deps, { token: tokenFrom(mailer.sent[0], "verify-email") });
    const signedIn = await signIn(deps, { email: "wide@example.com", password: PASSWORD }, client);
    expect(signedIn.account.email).toBe("wide@example.com");
  });

  it("are refused when common, without being echoed anywhere in the answer", async () => {
    const { deps, users, mailer } = accountWorld();
    const issues = await fieldsOf(signUp(deps, { email: "a@example.com", password: "Password1234" }, client, links));
    expect(issues).toEqual([{ field: "password", message: expect.stringMatching(/too common/) }]);
    expect(JSON.stringify(issues)).not.toMatch(/password1234/i);
    expect(users.byId.size).toBe(0);
    expect(mailer.sent).toHaveLength(0);
  });

  it("are never echoed in validation messages", async () => {
    const { deps } = accountWorld();
    for (const secret of ["s3cr3t", "s3cr3t".repeat(50)]) {
      const error = (await signUp(deps, { email: "a@example.com", password: secret }, client, links).catch((e: unknown) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(JSON.stringify(error.issues) + error.message).not.toContain("s3cr3t");
    }
  });
});

describe("the common-password list (zxcvbn-ts passwords-common)", () => {
  it("holds leaked passwords of 12+ characters, case-insensitively, and common words padded with digits", async () => {
    expect(await isCommonPassword("qwerty123456")).toBe(true);
    expect(await isCommonPassword("1q2w3e4r5t6y")).toBe(true);
    expect(await isCommonPassword("QAZWSXEDCRFV")).toBe(true);
    expect(await isCommonPassword("dragon12345678")).toBe(true);
    expect(await isCommonPassword("!!!letmein2024!!!")).toBe(true);
    expect(await isCommonPassword("correct horse battery")).toBe(false);
    expect(await isCommonPassword("tAqP-7vWm-2nRx")).toBe(false);
  });
});
