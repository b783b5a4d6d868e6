import { createKey, keyUsage, listKeys, regenerateKey, revokeKey } from "@hangar/core";
import { dashboardBaseDeps } from "../composition/dashboard-base";
import { dashboardFunction } from "../composition/dashboard-http";
import { json } from "../middleware/http-function";
import { noContent } from "../projects/answers";

export const handler = dashboardFunction("keys", {
  // The create and regenerate answers are the only ones that ever carry a client secret.
  "POST /api/keys": { handler: async (_e, c) => json(201, await createKey(dashboardBaseDeps(), c.session.userId, c.body)) },
  "GET /api/keys": {
    handler: async (_e, c) => json(200, { items: await listKeys(dashboardBaseDeps(), c.session.userId), nextCursor: null }),
  },
  "DELETE /api/keys/{clientId}": {
    handler: async (_e, c) => {
      await revokeKey(dashboardBaseDeps(), c.session.userId, c.params);
      return noContent();
    },
  },
  "POST /api/keys/{clientId}/regenerate": {
    handler: async (_e, c) => json(200, await regenerateKey(dashboardBaseDeps(), c.session.userId, c.params)),
  },
  "GET /api/keys/{clientId}/usage": {
    handler: async (_e, c) => json(200, await keyUsage(dashboardBaseDeps(), c.session.userId, c.params)),
  },
});
