import type { MailEventDeps } from "@hangar/core";
import { DynamoMailSuppressions } from "@hangar/core/dynamo";
import { getRuntime } from "./root";

let deps: MailEventDeps | undefined;

/** The SES event handler's one port (the suppressed addresses), on the shared runtime's DynamoDB client. */
export function getMailEventDeps(): MailEventDeps {
  if (deps) return deps;
  const { db, settings, clock } = getRuntime();
  deps = { suppressions: new DynamoMailSuppressions(db, settings.HANGAR_TABLE_NAME), clock };
  return deps;
}
