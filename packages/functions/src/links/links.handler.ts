import { regenerateShareLink, updateShareSettings } from "@hangar/core/links";
import { dashboardFunction } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { json } from "../middleware/http-function";
import { linkDeps } from "../composition/links";

/**
 * The owner's controls of a file's share link, behind the dashboard's session auth and CSRF
 * guard: another account's file ids answer 404 like unknown ones.
 */
export const handler = dashboardFunction("links", {
  "PATCH /api/files/{fileId}/share": {
    handler: async (e, c) =>
      json(200, await updateShareSettings(linkDeps(), c.session.userId, { ...c.params, ...c.body }, linkBases(e, getRuntime().settings))),
  },
  "POST /api/files/{fileId}/share/regenerate": {
    handler: async (e, c) => json(200, await regenerateShareLink(linkDeps(), c.session.userId, c.params, linkBases(e, getRuntime().settings))),
  },
});
