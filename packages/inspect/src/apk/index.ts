import type { InspectContext } from "../inspect-context";
import { InspectError } from "../inspect-result";
import type { InspectResult } from "../inspect-result";
import type { ZipArchive } from "../zip/zip-archive";
import { ResourceTable } from "./arsc/resource-table";
import { Resolver } from "./arsc/resolver";
import type { Resolution } from "./arsc/resolver";
import { parseAxml } from "./axml/axml";
import type { AxmlDocument } from "./axml/axml";
import { BinaryFormatError } from "./binary/bytes";
import { coerceToString, isIntType } from "./binary/res-value";
import type { ResValue } from "./binary/res-value";
import { resolveAppIcon } from "./icon/app-icon";
import { readManifest } from "./manifest/manifest";
import type { ManifestInfo } from "./manifest/manifest";
import { readApkSigning } from "./signing/apk-signing";

export { parseAxml } from "./axml/axml";
export type { AxmlAttribute, AxmlDocument, AxmlElement } from "./axml/axml";
export { ResourceTable } from "./arsc/resource-table";
export { AndroidAttr } from "./manifest/manifest";

const MANIFEST = "AndroidManifest.xml";
const RESOURCES = "resources.arsc";
const BUNDLE_MANIFEST = "base/manifest/AndroidManifest.xml";
/** Android's default when <uses-sdk> or its minSdkVersion is absent. */
const DEFAULT_MIN_SDK = "1";

/**
 * Metadata of an APK read in place: AndroidManifest.xml (binary XML) and, for references,
 * resources.arsc. Only those two entries, one icon PNG and the signer (the APK Signing Block
 * before the central directory, or a v1 signature file) are read.
 */
export async function inspectApk(zip: ZipArchive, ctx: InspectContext): Promise<InspectResult> {
  rejectOtherShapes(zip);
  // Independent of the manifest: its reads overlap the manifest's instead of following them.
  const signingRead = readApkSigning(zip, ctx);
  // If the manifest fails first, this must not surface later as an unhandled rejection.
  signingRead.catch(() => undefined);
  const manifestBytes = await zip.read(MANIFEST, { maxBytes: ctx.limits.maxEntryBytes });
  const doc = parseManifest(manifestBytes, ctx);
  if (doc.damage !== undefined) {
    ctx.warnings.push(
      `AndroidManifest.xml is damaged (${doc.damage}); Android would refuse it; values come from its readable part`,
    );
  }
  const manifest = readManifest(doc);

  if (manifest.rootName !== "manifest") {
    throw new InspectError("manifest_unreadable", `AndroidManifest.xml's root element is <${manifest.rootName}>, not <manifest>`);
  }
  if (manifest.split !== undefined && manifest.split !== "") {
    throw new InspectError(
      "unsupported_bundle",
      `This is a split APK (split="${manifest.split}"), one piece of an app; upload the base APK or a universal APK`,
    );
  }
  if (manifest.splitRequired) {
    ctx.warnings.push(
      "The APK declares android:isSplitRequired: Android installs it only together with its split APKs (a Play base APK)",
    );
  }
  const bundleId = manifest.packageName ?? "";
  if (bundleId === "") {
    throw new InspectError("manifest_unreadable", "AndroidManifest.xml has no package name");
  }

  const table = await loadResources(zip, ctx);
  const resolver = new Resolver(table, ctx.limits.maxDepth);
  const { appName, labels } = resolveLabels(manifest, resolver, table, bundleId, ctx);
  const declaredMin = sdkVersion(manifest.minSdkVersion, manifest, resolver);
  // Android's targetSdkVersion defaults to minSdkVersion.
  const targetSdk = sdkVersion(manifest.targetSdkVersion, manifest, resolver) ?? declaredMin;

  const result: InspectResult = {
    platform: "android",
    appName,
    bundleId,
    version: versionName(manifest, resolver, ctx),
    buildNumber: versionCode(manifest, resolver, ctx),
    minOs: declaredMin ?? DEFAULT_MIN_SDK,
    permissions: manifest.permissions,
    labels,
    locales: table?.locales ?? [],
    warnings: ctx.warnings,
  };
  if (targetSdk !== undefined) result.targetSdk = targetSdk;
  const icon = await resolveAppIcon(manifest.icon, table, zip, ctx);
  if (icon !== undefined) result.icon = icon;
  result.signing = await signingRead;
  return result;
}

function rejectOtherShapes(zip: ZipArchive): void {
  if (zip.entries.has(MANIFEST)) return;
  if (zip.entries.has(BUNDLE_MANIFEST)) {
    throw new InspectError(
      "unsupported_bundle",
      "This is an Android App Bundle (.aab); upload an APK built from it (e.g. a universal APK from bundletool)",
    );
  }
  const names = [...zip.entries.keys()];
  if (zip.entries.has("toc.pb") || (names.length > 0 && names.every((n) => n.toLowerCase().endsWith(".apk")))) {
    throw new InspectError("unsupported_bundle", "This is a set of split APKs (.apks); upload a single universal APK");
  }
  throw new InspectError("not_an_apk", "The archive has no AndroidManifest.xml, so it is not an APK");
}

function parseManifest(bytes: Buffer, ctx: InspectContext): AxmlDocument {
  try {
    return parseAxml(bytes, { checkDeadline: () => ctx.checkDeadline(), stopAfterRoot: true });
  } catch (error) {
    if (error instanceof BinaryFormatError) {
      throw new InspectError(
        "manifest_unreadable",
        otherFormat(bytes) ?? `AndroidManifest.xml is not readable binary XML: ${error.message}`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Names what a manifest that failed as binary XML is instead. Asked only after the binary parse
 * failed, because a hostile binary manifest may start with any header type bytes.
 */
function otherFormat(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 64).toString("utf8").replace(/^\uFEFF/, "").trimStart();
  if (head.startsWith("<")) {
    return "AndroidManifest.xml is plain-text XML; an installable APK carries it compiled to binary XML";
  }
  // App Bundle modules and aapt2 --proto-format: a protobuf XmlNode, whose first field has tag 0x0a.
  if (bytes[0] === 0x0a) {
    return "AndroidManifest.xml is in protobuf format (App Bundle module or aapt2 --proto-format), not an installable APK's binary XML";
  }
  return undefined;
}

async function loadResources(zip: ZipArchive, ctx: InspectContext): Promise<ResourceTable | undefined> {
  if (!zip.entries.has(RESOURCES)) return undefined;
  try {
    const bytes = await zip.read(RESOURCES, { maxBytes: ctx.limits.maxEntryBytes });
    return ResourceTable.parse(bytes, { checkDeadline: () => ctx.checkDeadline() });
  } catch (error) {
    // Without the table, literal values still work; references are reported as unresolved.
    if (error instanceof BinaryFormatError) {
      ctx.warnings.push(`resources.arsc is unreadable (${error.message}); resource references are not resolved`);
      return undefined;
    }
    if (error instanceof InspectError && error.code === "too_large") {
      ctx.warnings.push(`resources.arsc was not read: ${error.message}`);
      return undefined;
    }
    throw error;
  }
}

function resolveLabels(
  manifest: ManifestInfo,
  resolver: Resolver,
  table: ResourceTable | undefined,
  bundleId: string,
  ctx: InspectContext,
): { appName: string; labels: Record<string, string> } {
  const labels: Record<string, string> = {};
  if (manifest.label === undefined) {
    ctx.warnings.push(`The manifest declares no application label; appName is the package name ${bundleId}`);
    return { appName: bundleId, labels };
  }
  const label = manifest.label;
  const base = asText(resolver.resolve(label, manifest.strings));
  if (base.text !== undefined && base.text !== "") labels[""] = base.text;
  for (const [name, config] of table?.localeConfigs() ?? []) {
    ctx.checkDeadline();
    const localized = resolver.resolve(label, manifest.strings, config);
    if (localized.kind === "unresolved" || !localized.localized) continue;
    const text = asText(localized).text;
    if (text !== undefined && text !== "") labels[name] = text;
  }

  const defaultLabel = labels[""];
  if (defaultLabel !== undefined) return { appName: defaultLabel, labels };
  const localeNames = Object.keys(labels).sort();
  const english =
    localeNames.find((l) => l === "en") ?? localeNames.find((l) => l.startsWith("en-") || l.startsWith("b+en+"));
  const chosen = english ?? localeNames[0];
  if (chosen !== undefined) {
    ctx.warnings.push(
      `The application label has no default (unlocalized) value; appName uses the "${chosen}" label`,
    );
    return { appName: labels[chosen] as string, labels };
  }
  ctx.warnings.push(
    `The application label could not be read (${base.reason ?? "it is empty"}); appName is the package name ${bundleId}`,
  );
  return { appName: bundleId, labels };
}

function asText(resolution: Resolution): { text?: string; reason?: string } {
  if (resolution.kind === "string") return { text: resolution.value };
  if (resolution.kind === "value") return { text: coerceToString(resolution.value) ?? "" };
  return { reason: resolution.reason };
}

function versionName(manifest: ManifestInfo, resolver: Resolver, ctx: InspectContext): string {
  if (manifest.versionName === undefined) {
    ctx.warnings.push("The manifest declares no versionName; version is empty");
    return "";
  }
  const text = asText(resolver.resolve(manifest.versionName, manifest.strings));
  if (text.text === undefined) {
    ctx.warnings.push(`versionName could not be read (${text.reason}); version is empty`);
    return "";
  }
  return text.text;
}

function versionCode(manifest: ManifestInfo, resolver: Resolver, ctx: InspectContext): string {
  if (manifest.versionCode === undefined) {
    ctx.warnings.push("The manifest declares no versionCode; Android treats it as 0");
    return "0";
  }
  const resolved = resolver.resolve(manifest.versionCode, manifest.strings);
  const value = integerOf(resolved);
  if (value === undefined) {
    ctx.warnings.push(
      `versionCode is not an integer (${resolved.kind === "unresolved" ? resolved.reason : describe(resolved)}); Android treats it as 0`,
    );
    return "0";
  }
  return String(value);
}

/** TypedArray.getInt: integer types as signed 32-bit; strings parsed like XmlUtils.convertValueToInt. */
function integerOf(resolution: Resolution): number | undefined {
  if (resolution.kind === "value") {
    return isIntType(resolution.value.type) ? resolution.value.data | 0 : undefined;
  }
  if (resolution.kind === "string") return parseJavaInt(resolution.value);
  return undefined;
}

function parseJavaInt(text: string): number | undefined {
  const match = /^\s*(-?)(0x[0-9a-f]+|#[0-9a-f]+|0[0-7]*|[1-9][0-9]*)\s*$/i.exec(text);
  if (match === null) return undefined;
  const digits = match[2] as string;
  let value: number;
  if (/^0x/i.test(digits)) value = parseInt(digits.slice(2), 16);
  else if (digits.startsWith("#")) value = parseInt(digits.slice(1), 16);
  else if (digits.length > 1 && digits.startsWith("0")) value = parseInt(digits, 8);
  else value = parseInt(digits, 10);
  return (match[1] === "-" ? -value : value) | 0;
}

function describe(resolution: Resolution): string {
  if (resolution.kind === "string") return `"${resolution.value}"`;
  if (resolution.kind === "value") return coerceToString(resolution.value) ?? `type 0x${resolution.value.type.toString(16)}`;
  return resolution.reason;
}

/** minSdkVersion / targetSdkVersion: a number, or a codename string for preview SDKs. */
function sdkVersion(value: ResValue | undefined, manifest: ManifestInfo, resolver: Resolver): string | undefined {
  if (value === undefined) return undefined;
  const resolved = resolver.resolve(value, manifest.strings);
  if (resolved.kind === "string") return resolved.value;
  if (resolved.kind === "value") {
    // Android reads TypedValue.data for anything that is not a string.
    return isIntType(resolved.value.type) ? String(resolved.value.data | 0) : coerceToString(resolved.value);
  }
  return undefined;
}
