import type { MailEventDeps } from "@hangar/core";
import { DynamoMailSuppressions } from "@hangar/core/dynamo";
import { once } from "./once";
import { getRuntime } from "./root";

/** The SES event handler's one port (the suppressed addresses), on the shared runtime's DynamoDB client. */
export const mailEventDeps = once((): MailEventDeps => {
  const { db, settings, clock } = getRuntime();
  return { suppressions: new DynamoMailSuppressions(db, settings.HANGAR_TABLE_NAME), clock };
});
