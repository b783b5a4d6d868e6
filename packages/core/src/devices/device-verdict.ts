import { installability } from "../upload/installability";
import type { DeviceClaim } from "./device-cookie";
import { modelName } from "./device-models";

/**
 * Will this build install on this iPhone? (issue 22, docs/devices.md "The verdict"). Pure: the
 * build's facts and the device the signed `hangar_ios_device` cookie names (device-cookie.ts) in, the
 * answer out; the pages word it, the HTTP layer reads the cookie.
 *
 * Only development and ad hoc builds list devices. Every other build is `not-applicable` and keeps
 * the explanation it already had: Android needs no list, App Store builds never install from a
 * link, enterprise builds install on every device, an expired profile installs on none, and a build
 * stored before Hangar kept the profile's UDIDs (no `provisionedUdids`) cannot be checked, so the
 * page says nothing rather than guess. A profile that lists no device is not installable at all
 * (installability.ts says so), so it is `not-applicable` too.
 */
export type DeviceVerdictKind = "in-profile" | "not-in-profile" | "unknown-device" | "not-applicable";

/** The device a verdict is about, as the page names it. */
export interface VerdictDevice {
  /** The name the device gave (`Anna's iPhone`), or null when it gave none. */
  name: string | null;
  /** "iPhone 14 Pro", or null when the identifier is not in device-models.ts. */
  model: string | null;
  /** Apple's identifier (`iPhone15,2`), shown when the model is unknown. */
  product: string;
  osVersion: string;
  udid: string;
}

export interface DeviceVerdict {
  kind: DeviceVerdictKind;
  /** Set for `in-profile` and `not-in-profile`. */
  device?: VerdictDevice;
}

/** What the verdict reads of a build: extraction's metadata and the profile's UDIDs complete stored (uppercase). */
export interface VerdictBuild {
  metadata?: { platform?: unknown; provisioning?: unknown } | undefined;
  provisionedUdids?: readonly string[] | undefined;
}

export function verdictDevice(claim: DeviceClaim): VerdictDevice {
  return { name: claim.name ?? null, model: modelName(claim.product), product: claim.product, osVersion: claim.version, udid: claim.udid };
}

/** Whether a build's profile names its devices, so a device can be checked against it at `now`. */
export function listsDevices(build: VerdictBuild, now: Date): build is VerdictBuild & { provisionedUdids: readonly string[] } {
  const m = build.metadata;
  if (!m || m.platform !== "ios" || !installability(m, now).installable) return false;
  const kind = (m.provisioning as { kind?: unknown } | undefined)?.kind;
  return (kind === "development" || kind === "ad-hoc") && Array.isArray(build.provisionedUdids) && build.provisionedUdids.length > 0;
}

export function deviceVerdict(build: VerdictBuild, claim: DeviceClaim | undefined, now: Date): DeviceVerdict {
  if (!listsDevices(build, now)) return { kind: "not-applicable" };
  if (!claim) return { kind: "unknown-device" };
  const udid = claim.udid.toUpperCase();
  const listed = build.provisionedUdids.some((u) => u.toUpperCase() === udid);
  return { kind: listed ? "in-profile" : "not-in-profile", device: verdictDevice({ ...claim, udid }) };
}
