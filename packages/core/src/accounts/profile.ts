import { parseInput } from "../validation/parse-input";
import { accountView, type AccountDeps } from "./account-deps";
import { NotSignedInError } from "./account-errors";
import { ProfileInput, type AccountView } from "./account.schema";
import type { SessionContext } from "./sessions/sessions";

export async function getAccount(deps: Pick<AccountDeps, "users">, session: SessionContext): Promise<AccountView> {
  const user = await deps.users.get(session.userId);
  if (!user) throw new NotSignedInError();
  return accountView(user);
}

/** Display name (required, 1–80) and organization (optional, up to 120; empty removes it). */
export async function updateProfile(deps: Pick<AccountDeps, "users">, session: SessionContext, raw: unknown): Promise<AccountView> {
  const input = parseInput(ProfileInput, raw);
  const updated = await deps.users.updateProfile(session.userId, {
    displayName: input.displayName,
    ...(input.organization ? { organization: input.organization } : {}),
  });
  if (!updated) throw new NotSignedInError();
  return accountView(updated);
}
