import { DynamoStageSecret } from "@hangar/core/dynamo";
import { DynamoTesterGroups, JOIN_LINK_SECRET, randomTesterGroupIds, type TesterGroupDeps } from "@hangar/core/tester-groups";
import { auditLog } from "./audit-log";
import { eventPublisher } from "./events";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * The testers function's ports (core's TesterGroupDeps): the groups, their testers and invite
 * links, and the installs' `lastInstall` items (DynamoTesterGroups), the workspace catalog the
 * access checks read, the audit log, and the stage secret named `join-link` the invite link tokens
 * are MACs under. Table only (no S3, no mail).
 */
export const testerGroupDeps = once((): TesterGroupDeps => {
  const { db, settings, clock } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  return {
    groups: new DynamoTesterGroups(db, table),
    workspaces: workspaceCatalog(),
    audit: auditLog(),
    // tester.joined for the addresses a member adds.
    events: eventPublisher(),
    clock,
    ids: randomTesterGroupIds,
    joinLinkSecret: new DynamoStageSecret(db, table, JOIN_LINK_SECRET),
  };
});
