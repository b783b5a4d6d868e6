import { regenerateShareLink, updateShareSettings } from "@hangar/core/links";
import { actorOf } from "../middleware/actor";
import { dashboardFunction } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { json } from "../middleware/http-function";
import { linkDeps } from "../composition/links";

/**
 * The controls of a file's share link (links.manage in the file's workspace), behind the
 * dashboard's session auth and CSRF guard: file ids of workspaces the caller is not a member of
 * answer 404 like unknown ones.
 */
export const handler = dashboardFunction("links", {
  "PATCH /api/files/{fileId}/share": {
    handler: async (e, c) =>
      json(200, await updateShareSettings(linkDeps(), actorOf(c), { ...c.params, ...c.body }, linkBases(e, getRuntime().settings))),
  },
  "POST /api/files/{fileId}/share/regenerate": {
    handler: async (e, c) => json(200, await regenerateShareLink(linkDeps(), actorOf(c), c.params, linkBases(e, getRuntime().settings))),
  },
});
