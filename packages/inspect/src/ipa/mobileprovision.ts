/**
 * embedded.mobileprovision is a CMS (PKCS#7) signed message whose content is an XML plist. The
 * signature is Apple's business, not ours: we only need the plist, which sits unencrypted in
 * the DER, so we slice from "<?xml" to "</plist>" instead of parsing ASN.1.
 */
import { sha256Hex } from "../checksum/sha256";
import type { ProvisioningInfo } from "../inspect-result";
import { parsePlist } from "./plist";
import { isDict, plistString } from "./plist-value";
import type { PlistValue } from "./plist-value";

export class ProvisioningError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProvisioningError";
  }
}

export function extractProvisioningPlist(buf: Buffer): Buffer {
  const start = buf.indexOf("<?xml", 0, "latin1");
  const endTag = "</plist>";
  const end = start < 0 ? -1 : buf.indexOf(endTag, start, "latin1");
  if (start < 0 || end < 0) throw new ProvisioningError("No property list inside the provisioning profile");
  return buf.subarray(start, end + endTag.length);
}

/**
 * Devices a profile lists that are kept (docs/devices.md): Apple allows 100 per device family and
 * membership year, five families; a list far beyond is a crafted profile, cut here.
 */
export const MAX_PROVISIONED_UDIDS = 1000;

/** A device identifier as Apple writes them: `8-16` hex (2018 and later), 40 hex, or a Mac's UUID. */
const UDID_SHAPE = /^(?:[0-9A-F]{8}-[0-9A-F]{16}|[0-9A-F]{40}|[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})$/;

/** The profile's facts (parseMobileProvision) and the UDIDs it lists, uppercase, when it lists devices. */
export interface ProfileRead {
  info: ProvisioningInfo;
  /** Ad-hoc and development profiles: every well-formed UDID of `ProvisionedDevices`, deduplicated, at most MAX_PROVISIONED_UDIDS. */
  udids?: string[];
}

export function parseMobileProvision(buf: Buffer): ProvisioningInfo {
  return readProfile(buf).info;
}

export function readProfile(buf: Buffer): ProfileRead {
  const profile = parsePlist(extractProvisioningPlist(buf));
  if (!isDict(profile)) throw new ProvisioningError("Provisioning profile plist is not a dictionary");
  const devices = profile.ProvisionedDevices;
  const deviceCount = Array.isArray(devices) ? devices.length : 0;
  const entitlements = profile.Entitlements;
  const getTaskAllow = isDict(entitlements) && entitlements["get-task-allow"] === true;
  let kind: ProvisioningInfo["kind"];
  if (profile.ProvisionsAllDevices === true) kind = "enterprise";
  else if (Array.isArray(devices) && getTaskAllow) kind = "development";
  else if (Array.isArray(devices)) kind = "ad-hoc";
  else kind = "app-store";

  const info: ProvisioningInfo = {
    name: plistString(profile.Name) ?? "",
    provisionedDevices: deviceCount,
    kind,
    developerCertificateSha256: developerCertificates(profile.DeveloperCertificates),
  };
  if (isDict(entitlements)) info.entitlements = Object.keys(entitlements).sort();
  const uuid = plistString(profile.UUID);
  if (uuid !== undefined) info.uuid = uuid;
  const teamIds = profile.TeamIdentifier;
  const teamId = Array.isArray(teamIds) ? plistString(teamIds[0]) : undefined;
  if (teamId !== undefined) info.teamId = teamId;
  const teamName = plistString(profile.TeamName);
  if (teamName !== undefined) info.teamName = teamName;
  const expires = toIso(profile.ExpirationDate);
  if (expires !== undefined) info.expiresAt = expires;
  if (kind !== "development" && kind !== "ad-hoc" || !Array.isArray(devices)) return { info };
  const udids = new Set<string>();
  for (const device of devices) {
    if (udids.size >= MAX_PROVISIONED_UDIDS) break;
    const udid = typeof device === "string" ? device.trim().toUpperCase() : "";
    if (UDID_SHAPE.test(udid)) udids.add(udid);
  }
  return { info, udids: [...udids] };
}

/**
 * A development profile lists every developer certificate of the team; distribution profiles
 * one or two. Far more than any team has is a hostile profile: the rest are not hashed.
 */
export const MAX_DEVELOPER_CERTIFICATES = 100;

/** `DeveloperCertificates` holds each certificate's DER as <data>; the SHA-256 of those bytes. */
function developerCertificates(value: PlistValue | undefined): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is Buffer => Buffer.isBuffer(item))
    .slice(0, MAX_DEVELOPER_CERTIFICATES)
    .map((der) => sha256Hex(der));
}

function toIso(value: PlistValue | undefined): string | undefined {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  return undefined;
}
