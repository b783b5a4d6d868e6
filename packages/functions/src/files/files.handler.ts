import { deleteFile, getFile, latestFiles } from "@hangar/core";
import { getDashboard } from "../composition/dashboard";
import { dashboardFunction } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { json } from "../middleware/http-function";
import { getLinkRuntime } from "../links/link-runtime";
import { noContent } from "../projects/answers";

export const handler = dashboardFunction("files", {
  "GET /api/files": {
    handler: async (e, c) =>
      json(200, { ...(await latestFiles(getDashboard(), c.session.userId, c.query, linkBases(e, getRuntime().settings))), nextCursor: null }),
  },
  "GET /api/files/{fileId}": {
    handler: async (e, c) =>
      json(
        200,
        // With the share link's settings and counts (links/): the file page's link controls.
        await getFile({ ...getDashboard(), links: { links: getLinkRuntime().links } }, c.session.userId, c.params, linkBases(e, getRuntime().settings)),
      ),
  },
  "DELETE /api/files/{fileId}": {
    handler: async (_e, c) => {
      await deleteFile(getDashboard(), c.session.userId, c.params);
      return noContent();
    },
  },
});
