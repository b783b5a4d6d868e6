import { listAudit } from "@hangar/core";
import { auditDeps } from "../composition/audit";
import { dashboardFunction } from "../composition/dashboard-http";
import { actorOf } from "../middleware/actor";
import { json } from "../middleware/http-function";

/**
 * A workspace's audit log (docs/audit-log.md): who did what, when and from where, newest first,
 * 50 a page. The use case checks `audit.read` (owners and admins) and the cursor's MAC.
 */
export const handler = dashboardFunction("audit", {
  "GET /api/workspaces/{workspaceId}/audit": {
    handler: async (_e, c) => json(200, await listAudit(auditDeps(), actorOf(c), { ...c.params, ...c.query })),
  },
});
