import { NotFoundError } from "../errors/domain-errors";
import type { FileCatalog, ProjectCatalog, WorkspaceCatalog } from "../ports";
import { fileNotFound, ownFile } from "../dashboard/files";
import type { FileRef } from "../dashboard/dashboard.schema";
import type { Actor } from "../workspaces/actor";
import { workspaceAccess } from "../workspaces/access";
import type { WorkspaceRef } from "../workspaces/workspace.schema";
import type { DeviceRecord, DeviceStore } from "./device-store.port";
import type { Device, DeviceList, DeviceRef, DevicesExportQuery, FileDevices, ProfileKind, RenameDevice } from "./devices.schema";

/**
 * The team's side of devices (docs/devices.md): the workspace's list, rename and remove, a build's
 * profile against the registered devices, and the export Apple's developer portal imports. Members
 * read (`workspace.read`); developers and up rename and remove (`devices.manage`). A device of a
 * workspace the caller is not in is a 404, exactly as an id that does not exist.
 */

export const deviceNotFound = () => new NotFoundError("device_not_found", "No device with this id in your workspaces");

export interface DeviceAdminDeps {
  devices: Pick<DeviceStore, "list" | "byId" | "rename" | "remove">;
  files: Pick<FileCatalog, "get">;
  projects: Pick<ProjectCatalog, "workspaceOf" | "get">;
  workspaces: Pick<WorkspaceCatalog, "membership"> & Partial<Pick<WorkspaceCatalog, "touch">>;
  clock: { now(): Date };
  /** Whether App Store Connect registration is configured on this stage (the `apple` function's). */
  appleEnabled: boolean;
}

export function deviceView(record: DeviceRecord): Device {
  return {
    deviceId: record.deviceId,
    udid: record.udid,
    name: record.name,
    product: record.product,
    model: record.model,
    osVersion: record.osVersion,
    serial: record.serial,
    email: record.email,
    registeredAt: record.registeredAt,
    appleRegistration: record.appleRegistration,
  };
}

/** Newest registration first; the UDID breaks ties so the order is stable. */
const newestFirst = (a: DeviceRecord, b: DeviceRecord) => b.registeredAt.localeCompare(a.registeredAt) || a.udid.localeCompare(b.udid);

export async function listDevices(deps: DeviceAdminDeps, actor: Actor, { workspaceId }: WorkspaceRef): Promise<DeviceList> {
  await workspaceAccess(deps, actor.userId, workspaceId, "workspace.read");
  const records = await deps.devices.list(workspaceId);
  return { items: records.sort(newestFirst).map(deviceView), appleRegistration: { enabled: deps.appleEnabled } };
}

/** The device behind an id, for a member allowed to manage devices: 404 for a non-member, 403 for a viewer. */
async function ownDevice(deps: DeviceAdminDeps, actor: Actor, deviceId: string): Promise<DeviceRecord> {
  const device = await deps.devices.byId(deviceId);
  if (!device) throw deviceNotFound();
  await workspaceAccess(deps, actor.userId, device.workspaceId, "devices.manage").catch((error: unknown) => {
    throw error instanceof NotFoundError ? deviceNotFound() : error;
  });
  return device;
}

export async function renameDevice(deps: DeviceAdminDeps, actor: Actor, { deviceId }: DeviceRef, { name }: RenameDevice): Promise<Device> {
  const device = await ownDevice(deps, actor, deviceId);
  const renamed = await deps.devices.rename(device, name, deps.clock.now().toISOString());
  if (!renamed) throw deviceNotFound();
  return deviceView(renamed);
}

export async function removeDevice(deps: DeviceAdminDeps, actor: Actor, { deviceId }: DeviceRef): Promise<void> {
  const device = await ownDevice(deps, actor, deviceId);
  if (!(await deps.devices.remove(device))) throw deviceNotFound();
}

const EMPTY = { included: [], missing: [], unregistered: [] };

/** The build's profile against the workspace's devices (the file page's "Devices" section). */
export async function fileDevices(deps: DeviceAdminDeps, actor: Actor, { fileId }: FileRef): Promise<FileDevices> {
  const { file, project } = await ownFile(deps, actor, { fileId }, "workspace.read");
  const provisioning = file.metadata?.provisioning as { kind?: ProfileKind } | undefined;
  const kind = provisioning?.kind ?? null;
  const udids = file.provisionedUdids;
  const listed = file.metadata?.platform === "ios" && (kind === "ad-hoc" || kind === "development") && Array.isArray(udids);
  if (!listed) return { known: false, profileKind: file.metadata?.platform === "ios" ? kind : null, ...EMPTY };
  const inProfile = new Set(udids);
  const devices = (await deps.devices.list(project.workspaceId)).sort(newestFirst);
  const registered = new Set(devices.map((d) => d.udid));
  return {
    known: true,
    profileKind: kind,
    included: devices.filter((d) => inProfile.has(d.udid)).map(deviceView),
    missing: devices.filter((d) => !inProfile.has(d.udid)).map(deviceView),
    unregistered: udids.filter((u) => !registered.has(u)),
  };
}

/** Apple's limit on a device's name in the developer portal. */
export const APPLE_NAME_LENGTH = 50;

/** A name as Apple's import takes it: one line, no tabs, at most 50 characters (code points), never empty. */
export function appleDeviceName(name: string): string {
  const line = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu, " ").replace(/\s+/g, " ").trim();
  const cut = [...line].slice(0, APPLE_NAME_LENGTH).join("").trim();
  return cut || "iPhone";
}

/**
 * Apple's "Register Multiple Devices" file: a header line, then one tab-separated line per
 * device (`<UDID>\t<name>\tios`), each ending in a line feed.
 */
export function appleDeviceFile(devices: Pick<Device, "udid" | "name">[]): string {
  const lines = ["Device ID\tDevice Name\tDevice Platform", ...devices.map((d) => `${d.udid}\t${appleDeviceName(d.name)}\tios`)];
  return `${lines.join("\n")}\n`;
}

/**
 * `GET /api/workspaces/{workspaceId}/devices/export`: every device of the workspace (oldest first,
 * as they were registered), or with `fileId` and `missing=true` those the build's profile lacks.
 */
export async function exportDevices(deps: DeviceAdminDeps, actor: Actor, { workspaceId }: WorkspaceRef, query: DevicesExportQuery): Promise<{ body: string; fileName: string }> {
  await workspaceAccess(deps, actor.userId, workspaceId, "workspace.read");
  if (query.fileId !== undefined) {
    const answer = await fileDevices(deps, actor, { fileId: query.fileId });
    const file = await deps.files.get(query.fileId);
    // A build of another workspace is no build of this one.
    if (!file || (file.workspaceId ?? (await deps.projects.workspaceOf(file.projectId))) !== workspaceId) throw fileNotFound();
    const chosen = query.missing === "true" ? answer.missing : [...answer.included, ...answer.missing];
    return { body: appleDeviceFile([...chosen].reverse()), fileName: query.missing === "true" ? "hangar-devices-missing.txt" : "hangar-devices.txt" };
  }
  const records = (await deps.devices.list(workspaceId)).sort(newestFirst).reverse();
  return { body: appleDeviceFile(records), fileName: "hangar-devices.txt" };
}
