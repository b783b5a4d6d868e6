/**
 * Answers of the device, Apple-registration, retention, pin and expiry routes (issues 22 and 24),
 * apart from answers.schema.ts because they were written from the round's contract before the
 * routes landed; route-output.ts's rows name them like the others.
 */
import * as z from "zod/mini";
import { FileDetail } from "./answers.schema";

const str = () => z.string();
const int = () => z.int();
const time = () => z.string().check(z.meta({ format: "date-time" }));
const named = <T extends z.ZodMiniType>(id: string, schema: T, description?: string) =>
  schema.check(z.meta({ id, ...(description ? { description } : {}) }));

// ---- issue 22: devices ------------------------------------------------------------------

export const Device = named(
  "Device",
  z.object({
    deviceId: str(),
    udid: str(),
    name: str(),
    product: str(),
    model: z.nullable(str()),
    osVersion: str(),
    serial: z.nullable(str()),
    email: z.nullable(str()),
    registeredAt: time(),
    appleRegistration: z.nullable(z.object({ at: time(), appleDeviceId: str() })),
  }),
  "An iOS device registered in a workspace (docs/devices.md).",
);
export const Devices = named("Devices", z.object({ items: z.array(Device), appleRegistration: z.object({ enabled: z.boolean() }) }));
export const FileDevices = named(
  "FileDevices",
  z.object({
    known: z.boolean(),
    profileKind: z.nullable(str()),
    included: z.array(Device),
    missing: z.array(Device),
    unregistered: z.array(str()),
  }),
  "`known` is false for Android, App Store and builds stored without the profile's UDIDs (the lists are empty then).",
);
export const AppleRegistration = named(
  "AppleRegistration",
  z.object({
    registered: z.array(str()),
    already: z.array(str()),
    failed: z.array(z.object({ deviceId: str(), message: str() })),
  }),
);

// ---- issue 24: retention and expiry --------------------------------------------------------

export const RetentionPreview = named(
  "RetentionPreview",
  z.object({
    policy: z.nullable(z.object({ keepLatest: z.nullable(int()), maxAgeDays: z.nullable(int()) })),
    items: z.array(
      z.object({
        fileId: str(),
        platform: z.nullable(str()),
        version: z.nullable(str()),
        build: z.nullable(str()),
        branch: z.nullable(str()),
        completedAt: time(),
        size: z.number(),
        reasons: z.array(z.enum(["over_keep_latest", "older_than_max_age"])),
      }),
    ),
    bytes: z.number(),
  }),
);
export const Expiring = named(
  "Expiring",
  z.object({
    items: z.array(
      z.object({
        fileId: str(),
        projectId: str(),
        projectName: str(),
        platform: z.nullable(str()),
        version: z.nullable(str()),
        build: z.nullable(str()),
        kind: z.enum(["profile", "link"]),
        expiresAt: time(),
        daysLeft: int(),
      }),
    ),
  }),
);

export { FileDetail };
