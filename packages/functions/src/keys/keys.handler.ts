import { createKey, keyUsage, listKeys, regenerateKey, revokeKey } from "@hangar/core";
import { actorOf } from "../middleware/actor";
import { dashboardBaseDeps } from "../composition/dashboard-base";
import { dashboardFunction } from "../composition/dashboard-http";
import { json } from "../middleware/http-function";
import { noContent } from "../projects/answers";

export const handler = dashboardFunction("keys", {
  // The create and regenerate answers are the only ones that ever carry a client secret.
  "POST /api/keys": { handler: async (_e, c) => json(201, await createKey(dashboardBaseDeps(), actorOf(c), c.body)) },
  "GET /api/keys": {
    handler: async (_e, c) => json(200, { items: await listKeys(dashboardBaseDeps(), actorOf(c), c.query), nextCursor: null }),
  },
  "DELETE /api/keys/{clientId}": {
    handler: async (_e, c) => {
      await revokeKey(dashboardBaseDeps(), actorOf(c), c.params);
      return noContent();
    },
  },
  "POST /api/keys/{clientId}/regenerate": {
    handler: async (_e, c) => json(200, await regenerateKey(dashboardBaseDeps(), actorOf(c), c.params)),
  },
  "GET /api/keys/{clientId}/usage": {
    handler: async (_e, c) => json(200, await keyUsage(dashboardBaseDeps(), actorOf(c), c.params)),
  },
});
