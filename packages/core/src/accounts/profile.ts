import { accountView, type AccountDeps } from "./account-deps";
import { NotSignedInError } from "./account-errors";
import type { AccountView, ProfileInput } from "./account.schema";
import type { SessionContext } from "./sessions/sessions";

/** The account, and whether its address is suppressed (SES reported a bounce or complaint). */
export async function getAccount(deps: Pick<AccountDeps, "users" | "suppressions">, session: SessionContext): Promise<AccountView> {
  const user = await deps.users.get(session.userId);
  if (!user) throw new NotSignedInError();
  return accountView(user, await deps.suppressions.get(user.email));
}

/** Display name (required, 1–80) and organization (optional, up to 120; empty removes it). */
export async function updateProfile(deps: Pick<AccountDeps, "users" | "suppressions">, session: SessionContext, input: ProfileInput): Promise<AccountView> {
  const updated = await deps.users.updateProfile(session.userId, {
    displayName: input.displayName,
    ...(input.organization ? { organization: input.organization } : {}),
  });
  if (!updated) throw new NotSignedInError();
  return accountView(updated, await deps.suppressions.get(updated.email));
}
