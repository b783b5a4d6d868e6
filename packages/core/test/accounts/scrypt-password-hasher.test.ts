import { describe, expect, it } from "vitest";
import { OWASP_SCRYPT, ScryptPasswordHasher } from "../../src/accounts";

describe("scrypt password hashes", () => {
  const hasher = new ScryptPasswordHasher();

  it("use at least OWASP's parameters (N=2^17, r=8, p=1) in a self-describing PHC string", async () => {
    expect(OWASP_SCRYPT).toEqual({ logN: 17, r: 8, p: 1 });
    const stored = await hasher.hash("correct horse battery");
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(stored).not.toContain("correct horse");
    expect(await hasher.verify("correct horse battery", stored)).toEqual({ valid: true, needsRehash: false });
    expect(await hasher.verify("correct horse batterY", stored)).toEqual({ valid: false, needsRehash: false });
    // Salted: the same password never hashes to the same string twice.
    expect(await hasher.hash("correct horse battery")).not.toBe(stored);
  });

  it("verify hashes made with other parameters by what the string says, and ask for a rehash when weaker", async () => {
    const old = await new ScryptPasswordHasher({ logN: 10, r: 8, p: 1 }).hash("correct horse battery");
    expect(old).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    expect(await hasher.verify("correct horse battery", old)).toEqual({ valid: true, needsRehash: true });
    expect(await hasher.verify("wrong horse battery", old)).toEqual({ valid: false, needsRehash: false });
  });

  it("answer false for a missing, corrupt or absurd stored string (after dummy work), never throw", async () => {
    const cheap = new ScryptPasswordHasher({ logN: 10, r: 8, p: 1 });
    for (const stored of [undefined, "", "plaintext", "$scrypt$ln=30,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "$argon2id$v=19$m=65536,t=3,p=4$abc$def"]) {
      expect(await cheap.verify("anything at all", stored)).toEqual({ valid: false, needsRehash: false });
    }
  });
});
