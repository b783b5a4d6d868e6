import { DeviceRef, DevicesExportQuery, EnrolledRef, EnrollQuery, RenameDevice } from "@hangar/core/devices-schema";
import { deviceNotFound, enrollmentNotFound } from "@hangar/core/devices";
import type { RouteKeyOf } from "../routes";
import { api, dashboard, file, page, workspace, type RouteInput } from "./rows";

const device = { params: DeviceRef, notFound: deviceNotFound } as const;

/** The devices function's routes (routes.ts). */
export const input = {
  // iOS devices (docs/devices.md). The callback's body is CMS, not JSON: the handler reads it (≤ 64 KB, checked in core).
  "GET /devices/enroll": page({ query: EnrollQuery }),
  "POST /devices/enroll/callback": api({}),
  "GET /devices/enrolled/{token}": page({ params: EnrolledRef, notFound: enrollmentNotFound }),
  "GET /api/workspaces/{workspaceId}/devices": dashboard(workspace),
  "GET /api/workspaces/{workspaceId}/devices/export": dashboard({ ...workspace, query: DevicesExportQuery }),
  "PATCH /api/devices/{deviceId}": dashboard({ ...device, body: RenameDevice }),
  "DELETE /api/devices/{deviceId}": dashboard(device),
  "GET /api/files/{fileId}/devices": dashboard(file),
} as const satisfies Record<RouteKeyOf<"devices">, RouteInput>;
