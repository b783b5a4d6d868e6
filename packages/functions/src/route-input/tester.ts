import { ProjectRef } from "@hangar/core";
import { appNotFound, JoinLinkInput, JoinRequest, TesterSignIn, TesterTokenInput } from "@hangar/core/tester-access";
import { DeviceHandoffInput } from "@hangar/core/devices-schema";
import type { RouteKeyOf } from "../routes";
import { dashboard, type RouteInput } from "./rows";

/** The tester function's routes (routes.ts). */
export const input = {
  // Tester access: called by the tester pages of the web app, so of the dashboard kind (same-origin guard, headers).
  "POST /api/tester/sign-in": dashboard({ body: TesterSignIn }),
  "POST /api/tester/session": dashboard({ body: TesterTokenInput }),
  "GET /api/tester/session": dashboard({}),
  "DELETE /api/tester/session": dashboard({}),
  "GET /api/tester/apps": dashboard({}),
  "GET /api/tester/apps/{projectId}": dashboard({ params: ProjectRef, notFound: appNotFound }),
  "POST /api/tester/device": dashboard({ body: DeviceHandoffInput }),
  "POST /api/join/preview": dashboard({ body: JoinLinkInput }),
  "POST /api/join": dashboard({ body: JoinRequest }),
} as const satisfies Record<RouteKeyOf<"tester">, RouteInput>;
