import type { DeviceClaim } from "./device-cookie";
import type { Device } from "./devices.schema";

/**
 * Storage of registered devices and of enrollments (docs/data-model.md, docs/devices.md). A device
 * lives in its workspace's partition keyed by its UDID (`WORKSPACE#<ws>` / `DEVICE#<UDID>`), so an
 * iPhone enrolled twice is one item and a workspace's purge takes its devices along; an enrollment
 * is one run of the profile service, by the SHA-256 of its challenge, gone after an hour.
 */

/** A device item as stored: the answer's fields, its workspace, and whether a member named it. */
export interface DeviceRecord extends Device {
  workspaceId: string;
  updatedAt: string;
  /** True once a member renamed it: a later enrollment of the same device keeps that name. */
  renamed?: boolean;
}

export interface EnrollmentRecord {
  /** Hex SHA-256 of the challenge (the challenge itself is only in the profile and the result page's address). */
  challengeHash: string;
  /** Where the device is recorded: the workspaces of the page the tester came from. */
  workspaceIds: string[];
  /** The tester, when the page knew their address (a personal install link, a tester session). */
  email: string | null;
  /** The page to go back to (a path on the share host, checked when the enrollment was made). */
  returnTo: string;
  createdAt: string;
  /** Epoch seconds: one hour after `createdAt` (DynamoDB's TTL deletes it soon after). */
  ttl: number;
  /** What the device answered, once its signed answer came back. */
  device?: DeviceClaim;
}

/** A device's fields an enrollment writes (the item is created, or updated when the UDID is known). */
export type EnrolledDevice = Omit<DeviceRecord, "renamed" | "appleRegistration" | "registeredAt"> & { registeredAt: string };

/** `exists`: create only (`ifAbsent`), and the workspace has the UDID already: nothing written. */
export type RecordOutcome = "created" | "updated" | "exists" | "limit_reached" | "workspace_gone";

export interface RecordOptions {
  /**
   * Create only: a UDID the workspace has already is left as it is (`exists`). The verdict of the
   * tester pages records a device this way (docs/devices.md "The team has been told"): the claim
   * of a cookie is no reason to overwrite what an enrollment or a member wrote.
   */
  ifAbsent?: boolean;
}

export interface DeviceStore {
  /** Every device of the workspace (at most the workspace's limit, a few pages). */
  list(workspaceId: string): Promise<DeviceRecord[]>;
  /** A device by its id alone (gsi1), whatever its workspace; undefined when none. */
  byId(deviceId: string): Promise<DeviceRecord | undefined>;
  /**
   * Creates the device in its workspace, or updates the one of the same UDID (its model, iOS, serial,
   * tester; its name unless a member renamed it; id and registration time stay). A new device past
   * `max` devices of the workspace, or in a workspace that is gone or being deleted, is not created.
   * The one writer of new device items: the enroll callback and the tester pages' verdict both call it.
   */
  record(device: EnrolledDevice, max: number, options?: RecordOptions): Promise<RecordOutcome>;
  /** Sets a member's name; the updated record, or undefined when the device is gone. */
  rename(device: Pick<DeviceRecord, "workspaceId" | "udid" | "deviceId">, name: string, at: string): Promise<DeviceRecord | undefined>;
  /** Removes it; false when it was gone already. */
  remove(device: Pick<DeviceRecord, "workspaceId" | "udid" | "deviceId">): Promise<boolean>;
}

export interface EnrollmentStore {
  createEnrollment(enrollment: EnrollmentRecord): Promise<void>;
  /** The enrollment, or undefined when none (or its hour is over: TTL deletion lags, so the time is checked too). */
  enrollment(challengeHash: string, now: Date): Promise<EnrollmentRecord | undefined>;
  /**
   * Stores the device's answer on a live enrollment; a second answer of the same device is fine
   * (iOS may post twice), another device's is refused. False when refused or gone.
   */
  attachDevice(challengeHash: string, device: DeviceClaim, now: Date): Promise<boolean>;
  /**
   * Spends the enrollment's hand-off to the portal's host (device-handoff.ts): true once, for a
   * live enrollment a device answered; false when spent before or gone.
   */
  takeHandoff(challengeHash: string, now: Date): Promise<boolean>;
}

/** The workspaces a tester is in a group of (their groupTester items on gsi1 `TESTER#<email>`). */
export interface TesterWorkspaces {
  workspacesOf(email: string): Promise<string[]>;
}
