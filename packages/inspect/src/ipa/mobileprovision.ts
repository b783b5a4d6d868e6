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

export function parseMobileProvision(buf: Buffer): ProvisioningInfo {
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
  return info;
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
