import { createKey, keyUsage, listKeys, regenerateKey, revokeKey } from "@hangar/core";
import { dashboardBaseDeps } from "../composition/dashboard-base";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { json } from "../middleware/http-function";
import { dashboardFunction } from "../composition/dashboard-http";

type Session = ContextFor<"session">;

export const handler = dashboardFunction(
  "keys",
  {
    // The create and regenerate answers are the only ones that ever carry a client secret.
    "POST /api/keys": {
      json: true,
      handler: async (_e: HttpEvent, c: Session) => json(201, await createKey(dashboardBaseDeps(), c.session.userId, c.body)),
    },
    "GET /api/keys": {
      handler: async (_e: HttpEvent, c: Session) => json(200, { items: await listKeys(dashboardBaseDeps(), c.session.userId), nextCursor: null }),
    },
    "DELETE /api/keys/{clientId}": {
      handler: async (e: HttpEvent, c: Session): Promise<HttpResult> => {
        await revokeKey(dashboardBaseDeps(), c.session.userId, e.pathParameters?.clientId);
        return { statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" };
      },
    },
    "POST /api/keys/{clientId}/regenerate": {
      handler: async (e: HttpEvent, c: Session) => json(200, await regenerateKey(dashboardBaseDeps(), c.session.userId, e.pathParameters?.clientId)),
    },
    "GET /api/keys/{clientId}/usage": {
      handler: async (e: HttpEvent, c: Session) => json(200, await keyUsage(dashboardBaseDeps(), c.session.userId, e.pathParameters?.clientId)),
    },
  },
);
