import { ConflictError } from "../errors/domain-errors";
import { assertNotCommon, enforceMailLimits, type AccountDeps, type AccountLinks, type ClientInfo } from "./account-deps";
import type { SignUp } from "./account.schema";

/**
 * Creates an unverified account; the verification mail follows in the background. An address
 * that already has an account gets the same answer after the same work in the request (a
 * password hash, one write attempt, one background step), and its owner is told by mail
 * instead: neither the answer nor its time says whether an address is registered. The password
 * of the existing account is left untouched.
 */
export async function signUp(deps: AccountDeps, input: SignUp, client: ClientInfo, links: AccountLinks): Promise<void> {
  await assertNotCommon(deps, input.password, "password");
  await enforceMailLimits(deps, input.email, client);

  const passwordHash = await deps.hasher.hash(input.password);
  const now = deps.clock.now().toISOString();
  const userId = deps.ids.userId();
  let created = true;
  try {
    await deps.users.create({ userId, email: input.email, emailVerified: false, passwordHash, createdAt: now, passwordChangedAt: now });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    created = false;
  }
  // The token and the mail (a verification link, or the notice to the owner) after the answer.
  await deps.background.schedule({ kind: "sign-up", email: input.email, publicBaseUrl: links.publicBaseUrl, ...(created ? { userId } : {}) });
}
