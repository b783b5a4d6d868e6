import type { AppleRegistrationAnswer } from "@hangar/core/devices-apple-schema";
import { apiRequest } from "./api-client";
import type { Device, DeviceList, FileDevices } from "./devices.types";

/*
 * The devices API (issue 22, docs/devices.md): a workspace's registered iPhones and iPads, a
 * build's profile against them, Apple's import file of them, and Register with Apple. The
 * answers' shapes are core's (`@hangar/core/devices-schema`).
 */

export type * from "./devices.types";
export type { AppleRegistrationAnswer };

const id = (value: string) => encodeURIComponent(value);
const ws = (workspaceId: string) => `/api/workspaces/${id(workspaceId)}`;

/**
 * The address of Apple's "multiple devices" file (tab-separated, an attachment): every device of the
 * workspace, or the ones a build's profile lacks. A link, not a fetch: the browser downloads it with
 * the session cookie and names the file from Content-Disposition.
 */
export function devicesExportUrl(workspaceId: string, missingFrom?: string): string {
  const query = missingFrom ? `?${new URLSearchParams({ fileId: missingFrom, missing: "true" })}` : "";
  return `${ws(workspaceId)}/devices/export${query}`;
}

export const devicesApi = {
  list: (workspaceId: string) => apiRequest<DeviceList>("GET", `${ws(workspaceId)}/devices`),
  rename: (deviceId: string, name: string) => apiRequest<Device>("PATCH", `/api/devices/${id(deviceId)}`, { name }),
  remove: (deviceId: string) => apiRequest<void>("DELETE", `/api/devices/${id(deviceId)}`),
  ofFile: (fileId: string) => apiRequest<FileDevices>("GET", `/api/files/${id(fileId)}/devices`),
  registerWithApple: (workspaceId: string, deviceIds: string[]) => apiRequest<AppleRegistrationAnswer>("POST", `${ws(workspaceId)}/devices/apple`, { deviceIds }),
};
