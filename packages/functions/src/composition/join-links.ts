import { DynamoStageSecret } from "@hangar/core/dynamo";
import type { JoinLinks } from "@hangar/core/tester-access";
import { DynamoTesterGroups, JOIN_LINK_SECRET, JoinLinkGoneError, joinGroupByLink, previewJoinLink, type JoinLinkDeps } from "@hangar/core/tester-groups";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/** What tester-groups' join side reads: the groups and their links, the workspaces, the `join-link` stage secret. */
const joinLinkDeps = once((): JoinLinkDeps => {
  const { db, settings, clock } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  return {
    groups: new DynamoTesterGroups(db, table),
    workspaces: workspaceCatalog(),
    clock,
    joinLinkSecret: new DynamoStageSecret(db, table, JOIN_LINK_SECRET),
  };
});

/**
 * The invite links of tester groups as tester access sees them (core's JoinLinks port), on
 * tester-groups' `previewJoinLink` and `joinGroupByLink`: tester access does not know how groups
 * are stored. A link that lets nobody in is `undefined` to the preview (the mail task then sends
 * nothing); the join lets tester-groups' JoinLinkGoneError (410) through.
 */
export function joinLinks(): JoinLinks {
  return {
    preview: async (token) => {
      try {
        return await previewJoinLink(joinLinkDeps(), token);
      } catch (error) {
        if (error instanceof JoinLinkGoneError) return undefined;
        throw error;
      }
    },
    join: async (input) => {
      const { groupId, groupName, workspaceId, workspaceName, joined } = await joinGroupByLink(joinLinkDeps(), input);
      return { groupId, groupName, workspaceId, workspaceName, joined };
    },
  };
}
