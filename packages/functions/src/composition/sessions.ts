import { defaultAccountSettings, type AccountDeps } from "@hangar/core/accounts";
import { DynamoSessionRepository } from "@hangar/core/dynamo";
import { once } from "./once";
import { getRuntime } from "./root";

type SessionDeps = Pick<AccountDeps, "sessions" | "clock" | "settings">;

/**
 * What a session-authenticated function needs to know who is calling: the session repository,
 * the clock and the session lifetimes. Kept apart from the accounts function's dependencies
 * (composition/accounts.ts) so the dashboard functions bundle no mailer, SMTP or SES code.
 */
export const sessionDeps = once((): SessionDeps => {
  const { db, settings, clock } = getRuntime();
  return { sessions: new DynamoSessionRepository(db, settings.HANGAR_TABLE_NAME), clock, settings: defaultAccountSettings };
});
