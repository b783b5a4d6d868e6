import { describe, expect, it } from "vitest";
import { changePassword, confirmPasswordReset, signIn, signUp, verifyEmail } from "../support/through-http";
import { ValidationError } from "../../src";

import { PASSWORD, accountWorld, client, links, tokenFrom } from "./account-fakes";

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

// Long enough for the length rule, but no secret: spaces, tabs, ideographic and no-break spaces.
const BLANK = [" ".repeat(12), "\t".repeat(6) + " ".repeat(6), "\u3000".repeat(12), "\u00a0".repeat(16), " ".repeat(256)];

describe("passwords of only spaces", () => {
  it.each(BLANK.map((p) => [JSON.stringify(p).slice(0, 24), p]))("are refused at sign-up: %s", async (_, password) => {
    const { deps, users, mailer } = accountWorld();
    const error = await failure(signUp(deps, { email: "ada@example.com", password }, client, links));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ field: "password", message: "must contain something other than spaces" }]);
    expect(users.byId.size).toBe(0);
    expect(mailer.sent).toHaveLength(0);
  });

  it("are refused as a new password by a password change, which leaves the old one working", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    await verifyEmail(deps, { token: tokenFrom(mailer.sent[0], "verify-email") });
    const { session } = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    const me = { userId: session.userId, sessionId: session.sessionId };
    for (const newPassword of BLANK) {
      const error = await failure(changePassword(deps, me, { currentPassword: PASSWORD, newPassword }));
      expect((error as ValidationError).issues).toEqual([{ field: "newPassword", message: "must contain something other than spaces" }]);
    }
    await expect(signIn(deps, { email: "ada@example.com", password: PASSWORD }, client)).resolves.toBeDefined();
  });

  it("are refused by a password reset before its token is looked at", async () => {
    const { deps } = accountWorld();
    const error = await failure(confirmPasswordReset(deps, { token: "A".repeat(43), newPassword: " ".repeat(12) }));
    expect((error as ValidationError).issues).toEqual([{ field: "newPassword", message: "must contain something other than spaces" }]);
  });

  it("still allow spaces inside a password", async () => {
    const { deps, users } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: "  spaces  around  " }, client, links);
    expect(await users.findByEmail("ada@example.com")).toBeDefined();
  });
});
