import * as z from "zod/mini";
import { FILE_ID } from "../dashboard/dashboard.schema";
import { WORKSPACE_ID } from "../workspaces/workspace-ids";
import { CONTROL_OR_INVISIBLE, LONE_SURROGATE } from "../validation/unicode";

/**
 * iOS devices (issue 22, docs/devices.md): the request schemas of the device routes and the shapes
 * they answer. Browser-safe (zod/mini and types only): the dashboard imports it through
 * `@hangar/core/devices-schema` and validates its rename form with the very schema the API parses.
 */

/** `dev_` + 16 base62: a registered device's id (the dashboard's handle; the UDID is the key). */
export const DEVICE_ID = /^dev_[0-9A-Za-z]{16}$/;

/** Devices per workspace: Apple lets a team register 100 per device family a year; ten teams' worth. */
export const MAX_DEVICES_PER_WORKSPACE = 1000;

/** A device's name as a member gives it (the rename form), or as the device sent it (cut to this). */
export const MAX_DEVICE_NAME_LENGTH = 100;

/** `/api/devices/{deviceId}`: an id of another shape names nothing (404 `device_not_found`). */
export const DeviceRef = z.object({ deviceId: z.string().check(z.regex(DEVICE_ID, "is not a device id")) });
export type DeviceRef = z.infer<typeof DeviceRef>;

/** `PATCH /api/devices/{deviceId}`: the name the team knows it by (trimmed, 1–100 characters, one line). */
/** A device's name (trimmed, NFC, 1–100 characters, one line): tabs and line breaks would break Apple's import file. */
export const DeviceName = z
  .pipe(
    z.string().check(
      z.maxLength(MAX_DEVICE_NAME_LENGTH * 8, `must be at most ${MAX_DEVICE_NAME_LENGTH} characters`),
      z.refine((s) => !LONE_SURROGATE.test(s), { error: "must be well-formed Unicode", abort: true }),
    ),
    z.transform((s) => s.trim().normalize("NFC")),
  )
  .check(
    z.minLength(1, "must not be empty"),
    z.refine((s) => [...s].length <= MAX_DEVICE_NAME_LENGTH, `must be at most ${MAX_DEVICE_NAME_LENGTH} characters`),
    z.refine((s) => !CONTROL_OR_INVISIBLE.test(s), "must not contain control, invisible or bidirectional characters"),
  );

/** `PATCH /api/devices/{deviceId}`: the name the team knows it by. */
export const RenameDevice = z.object({ name: DeviceName });
export type RenameDevice = z.infer<typeof RenameDevice>;

/**
 * `GET /api/workspaces/{workspaceId}/devices/export?fileId=&missing=true`: every device of the
 * workspace, or (with `fileId` and `missing=true`) those the build's profile lacks.
 */
export const DevicesExportQuery = z
  .object({
    fileId: z.optional(z.string().check(z.regex(FILE_ID, "is not a file id"))),
    missing: z.optional(z.enum(["true", "false"], { error: "must be true or false" })),
  })
  .check(
    // Missing from what: without a build, `missing=true` would silently export everything.
    z.refine((q) => q.missing !== "true" || q.fileId !== undefined, { error: "missing=true needs fileId (the build whose profile lacks them)", path: ["missing"] }),
  );
export type DevicesExportQuery = z.infer<typeof DevicesExportQuery>;

/** `GET /devices/enroll?return=<path>`: the page the tester comes back to (checked against the known forms). */
export const EnrollQuery = z.object({ return: z.string().check(z.minLength(1), z.maxLength(300, "is too long")) });
export type EnrollQuery = z.infer<typeof EnrollQuery>;

/** The result page's token: the enrollment's challenge, 32 random bytes in base64url. */
export const ENROLL_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const EnrolledRef = z.object({ token: z.string().check(z.regex(ENROLL_TOKEN, "is not an enrollment")) });

/** `POST /api/tester/device`: the hand-off the share host's result page gave the portal (device-handoff.ts). */
export const DeviceHandoffInput = z.object({ handoff: z.string().check(z.minLength(1, "is required"), z.maxLength(512, "is too long")) });
export type DeviceHandoffInput = z.infer<typeof DeviceHandoffInput>;
export type EnrolledRef = z.infer<typeof EnrolledRef>;

export const WorkspaceDevicesRef = z.object({ workspaceId: z.string().check(z.regex(WORKSPACE_ID, "is not a workspace id")) });

/** A device's registration with Apple (App Store Connect), when Hangar made it. */
export interface AppleRegistration {
  at: string;
  appleDeviceId: string;
}

/** One registered device, as every device answer shows it. */
export interface Device {
  deviceId: string;
  /** Uppercase UDID (`00008030-001A35E11A88802E`, or 40 hex on older devices). */
  udid: string;
  /** The device's name as it sent it, or the name a member gave it; "iPhone" when the device gave none. */
  name: string;
  /** Apple's model identifier (`iPhone15,2`). */
  product: string;
  /** The model's name ("iPhone 14 Pro"), or null when the identifier is not in Hangar's table. */
  model: string | null;
  /** What the device sent as VERSION: its iOS build (`22B83`). */
  osVersion: string;
  serial: string | null;
  /** The tester who enrolled it, when the flow knew their address. */
  email: string | null;
  registeredAt: string;
  appleRegistration: AppleRegistration | null;
}

/** `GET /api/workspaces/{workspaceId}/devices`: newest first. */
export interface DeviceList {
  items: Device[];
  /** Whether "Register with Apple" is configured on this stage (docs/devices.md). */
  appleRegistration: { enabled: boolean };
}

export type ProfileKind = "development" | "ad-hoc" | "enterprise" | "app-store";

/**
 * `GET /api/files/{fileId}/devices`: the build's profile against the workspace's devices. `known`
 * is false for Android, App Store and enterprise builds and for builds stored before Hangar kept
 * the profile's UDIDs; the lists are empty then.
 */
export interface FileDevices {
  known: boolean;
  profileKind: ProfileKind | null;
  /** Registered devices whose UDID the profile lists. */
  included: Device[];
  /** Registered devices the profile lacks: these would not install the build. */
  missing: Device[];
  /** UDIDs in the profile that no device of the workspace has (registered elsewhere, or long ago). */
  unregistered: string[];
}
