import { defaultAccountSettings, type AccountDeps } from "@hangar/core/accounts";
import { DynamoSessionRepository } from "@hangar/core/dynamo";
import { getRuntime } from "./root";

type SessionDeps = Pick<AccountDeps, "sessions" | "clock" | "settings">;

let deps: SessionDeps | undefined;

/**
 * What a session-authenticated function needs to know who is calling: the session repository,
 * the clock and the session lifetimes. Kept apart from the accounts function's dependencies
 * (composition/accounts.ts) so the dashboard functions bundle no mailer, SMTP or SES code.
 */
export function getSessionDeps(): SessionDeps {
  if (deps) return deps;
  const { db, settings, clock } = getRuntime();
  deps = { sessions: new DynamoSessionRepository(db, settings.HANGAR_TABLE_NAME), clock, settings: defaultAccountSettings };
  return deps;
}
