import { compareBuilds, deleteFile, getFile, latestFiles, listExpiring, pinFile } from "@hangar/core";
import { actorOf } from "../middleware/actor";
import { fileDeps } from "../composition/dashboard-files";
import { expiringDeps } from "../composition/expiring";
import { dashboardFunction } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { json } from "../middleware/http-function";
import { noContent } from "../projects/answers";

export const handler = dashboardFunction("files", {
  "GET /api/files": {
    handler: async (e, c) =>
      json(200, { ...(await latestFiles(fileDeps(), actorOf(c), c.query, linkBases(e, getRuntime().settings))), nextCursor: null }),
  },
  "GET /api/files/{fileId}": {
    handler: async (e, c) =>
      json(
        200,
        // With the share link's settings and counts (links/): the file page's link controls.
        await getFile(fileDeps(), actorOf(c), c.params, linkBases(e, getRuntime().settings)),
      ),
  },
  "GET /api/files/{fileId}/diff": {
    handler: async (_e, c) => json(200, await compareBuilds(fileDeps(), actorOf(c), { fileId: c.params.fileId, against: c.query.against })),
  },
  // The latest builds whose profile or share link expires soon (docs/release-safety.md): the dashboard's banner.
  "GET /api/workspaces/{workspaceId}/expiring": {
    handler: async (_e, c) => json(200, await listExpiring(expiringDeps(), actorOf(c), c.params)),
  },
  // Pin or unpin (docs/release-safety.md "Retention"): answers the file as GET does.
  "PATCH /api/files/{fileId}": {
    handler: async (e, c) => json(200, await pinFile(fileDeps(), actorOf(c), { ...c.params, ...c.body }, linkBases(e, getRuntime().settings))),
  },
  "DELETE /api/files/{fileId}": {
    handler: async (_e, c) => {
      await deleteFile(fileDeps(), actorOf(c), c.params);
      return noContent();
    },
  },
});
