import { deleteFile, getFile, latestFiles } from "@hangar/core";
import { fileDeps } from "../composition/dashboard-files";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { json } from "../middleware/http-function";
import { dashboardFunction } from "../composition/dashboard-http";

type Session = ContextFor<"session">;

export const handler = dashboardFunction(
  "files",
  {
    "GET /api/files": {
      handler: async (e: HttpEvent, c: Session) =>
        json(200, { ...(await latestFiles(fileDeps(), c.session.userId, e.queryStringParameters ?? {}, linkBases(e, getRuntime().settings))), nextCursor: null }),
    },
    "GET /api/files/{fileId}": {
      handler: async (e: HttpEvent, c: Session) =>
        json(
          200,
          // With the share link's settings and counts (links/): the file page's link controls.
          await getFile(fileDeps(), c.session.userId, e.pathParameters?.fileId, linkBases(e, getRuntime().settings)),
        ),
    },
    "DELETE /api/files/{fileId}": {
      handler: async (e: HttpEvent, c: Session): Promise<HttpResult> => {
        await deleteFile(fileDeps(), c.session.userId, e.pathParameters?.fileId);
        return { statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" };
      },
    },
  },
);
