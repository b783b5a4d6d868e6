import { randomUUID } from "node:crypto";
import { parseXmlPlist } from "@hangar/inspect/xml-plist";
import { ValidationError } from "../errors/domain-errors";
import { normalizeUdid, UDID, type DeviceClaim } from "./device-cookie";
import { MAX_DEVICE_NAME_LENGTH } from "./devices.schema";
import { buildXmlPlist } from "./xml-plist-writer";

/**
 * The two documents of Apple's Over-the-Air profile service (docs/devices.md): the `.mobileconfig`
 * Hangar hands out (a `Profile Service` payload asking for the device's attributes), and the
 * device's answer, the plist it posts back inside a CMS SignedData (signed-data.ts).
 */

/** What iOS shows as the profile's name and where it says it comes from. */
export const ENROLL_PROFILE_NAME = "Hangar — register this device";
const ORGANIZATION = "Hangar";
const DESCRIPTION =
  "Sends this device's identifier (UDID), model, iOS version and name to Hangar once, so the team can add it to their test builds. Installs nothing: iOS removes this profile after answering.";

/** The attributes asked for: SERIAL only where iOS gives it; DEVICE_NAME is generic ("iPhone") since iOS 16. */
export const DEVICE_ATTRIBUTES = ["UDID", "PRODUCT", "VERSION", "DEVICE_NAME", "SERIAL"] as const;

/** The profile: an XML plist (iOS takes it unsigned, showing "Not Verified", or signed: signed-data.ts). */
export function enrollProfile(callbackUrl: string, challenge: string): Buffer {
  const uuid = randomUUID().toUpperCase();
  const profile = {
    PayloadContent: {
      URL: callbackUrl,
      DeviceAttributes: [...DEVICE_ATTRIBUTES],
      Challenge: challenge,
    },
    PayloadOrganization: ORGANIZATION,
    PayloadDisplayName: ENROLL_PROFILE_NAME,
    PayloadDescription: DESCRIPTION,
    PayloadVersion: 1,
    PayloadUUID: uuid,
    PayloadIdentifier: `dev.hangar.enroll.${uuid}`,
    PayloadType: "Profile Service",
  };
  return Buffer.from(buildXmlPlist(profile), "utf8");
}

/** The device's answer, checked: its claim and the challenge it carries. */
export interface DeviceAnswer {
  claim: DeviceClaim;
  serial: string | null;
  challenge: string;
}

const invalid = (message: string) => new ValidationError([{ field: "body", message }]);

/** PRODUCT as Apple writes it (`iPhone15,2`, `iPad13,18`, `iPod9,1`). */
const PRODUCT = /^[A-Za-z]{2,16}\d{1,3},\d{1,3}$/;
/** VERSION: the iOS build (`22B83`) or version (`18.1`). */
const VERSION = /^[0-9A-Za-z.]{1,32}$/;
const SERIAL = /^[0-9A-Za-z]{1,32}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{1,128}$/;
// A device's name is shown on pages and exported: one line only.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu;

/**
 * The plist of a device's answer, every field checked. XML plists only (what iOS posts), with no
 * DTD internal subset and no entity declaration (refused before parsing, whatever the parser
 * would do with them), read by inspect's plist scanner, the IPA extractor's (no DOM, linear
 * time, dictionaries without a prototype). Throws ValidationError (400) for anything else.
 */
export function parseDeviceAnswer(content: Buffer): DeviceAnswer {
  const text = content.toString("utf8").replace(/^\uFEFF/, "");
  if (!/^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE plist[^>[]*>\s*)?<plist[\s>]/.test(text)) throw invalid("the signed content is not an XML property list");
  if (/<!ENTITY|<!DOCTYPE[^>]*\[/i.test(text)) throw invalid("the property list declares entities");
  let parsed: unknown;
  try {
    parsed = parseXmlPlist(text);
  } catch {
    throw invalid("the signed content is not a well-formed property list");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || Buffer.isBuffer(parsed) || parsed instanceof Date) {
    throw invalid("the property list is not a dictionary");
  }
  const dict = parsed as Record<string, unknown>;
  const str = (key: string): string | undefined => {
    const value = dict[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw invalid(`${key} is not a string`);
    return value;
  };
  const udid = normalizeUdid(str("UDID") ?? "");
  if (!UDID.test(udid)) throw invalid("UDID is missing or not a device identifier");
  const product = str("PRODUCT") ?? "";
  if (!PRODUCT.test(product)) throw invalid("PRODUCT is missing or not a model identifier");
  const version = str("VERSION") ?? "";
  if (!VERSION.test(version)) throw invalid("VERSION is missing or malformed");
  const challenge = str("CHALLENGE") ?? "";
  if (!CHALLENGE.test(challenge)) throw invalid("CHALLENGE is missing or malformed");
  const serialText = str("SERIAL");
  if (serialText !== undefined && !SERIAL.test(serialText)) throw invalid("SERIAL is malformed");
  const nameText = str("DEVICE_NAME");
  if (nameText !== undefined && nameText.length > MAX_DEVICE_NAME_LENGTH * 8) throw invalid("DEVICE_NAME is too long");
  const name = nameText === undefined ? "" : [...nameText.replace(CONTROL, " ").trim().normalize("NFC")].slice(0, MAX_DEVICE_NAME_LENGTH).join("").trim();
  return {
    claim: { udid, product, version, ...(name ? { name } : {}) },
    serial: serialText ?? null,
    challenge,
  };
}
