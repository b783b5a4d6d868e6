import { registerDevicesWithApple } from "@hangar/core/devices";
import { appleDeps } from "../composition/apple";
import { dashboardFunction } from "../composition/dashboard-http";
import { actorOf } from "../middleware/actor";
import { json } from "../middleware/http-function";

/**
 * Register with Apple (docs/devices.md): adds a workspace's devices to the team's Apple developer
 * account through the App Store Connect API. A function of its own because it alone may read the
 * App Store Connect key (its IAM in stacks/access.ts); the devices function lists, renames,
 * removes and exports devices without it. 409 `apple_not_configured` when the stage has no key.
 */
export const handler = dashboardFunction("apple", {
  "POST /api/workspaces/{workspaceId}/devices/apple": {
    handler: async (_e, c) => json(200, await registerDevicesWithApple(appleDeps(), actorOf(c), { ...c.params, ...c.body })),
  },
});
