import type { InspectContext } from "../inspect-context";
import { InspectError } from "../inspect-result";
import type { InspectResult } from "../inspect-result";
import type { ZipArchive } from "../zip/zip-archive";
import { bundlePrefix, findAppInfoPlists, lprojFolders, lprojLocale } from "./ipa-bundle";
import { findIpaIcon, likelyIconFiles } from "./ipa-icon";
import { mapLimit } from "./map-limit";
import { readProfile } from "./mobileprovision";
import { optional } from "./optional";
import { PlistParseError, parsePlist } from "./plist";
import { isDict, plistString, plistStrings } from "./plist-value";
import type { PlistDict } from "./plist-value";
import { parseStringsFile } from "./strings-file";

const MAX_INFO_PLIST_BYTES = 8 * 1024 * 1024;
const MAX_PROVISION_BYTES = 2 * 1024 * 1024;
/** InfoPlist.strings hold a handful of keys; a big one is not worth reading for a name. */
const MAX_STRINGS_BYTES = 256 * 1024;
const MAX_LOCALIZATIONS = 200;

export async function inspectIpa(zip: ZipArchive, ctx: InspectContext): Promise<InspectResult> {
  const plists = findAppInfoPlists(zip.entries.keys());
  const infoPath = plists[0];
  if (infoPath === undefined) {
    throw new InspectError("not_an_ipa", "No Payload/<name>.app/Info.plist: not an iOS app archive");
  }
  if (plists.length > 1) {
    ctx.warnings.push(`Payload holds ${plists.length} apps; read ${infoPath}`);
  }
  const prefix = bundlePrefix(infoPath);
  zip.prefetch?.([infoPath, ...likelyIconFiles(zip, prefix)]);
  // Localizations and the profile do not depend on Info.plist: start their reads now, so from
  // S3 they share a round trip with it (only the icons must wait for the plist).
  const localizedRead = readLocalizations(zip, ctx, prefix);
  const provisioningRead = readProvisioning(zip, ctx, prefix);
  // If Info.plist fails first, these must not surface later as unhandled rejections.
  localizedRead.catch(() => undefined);
  provisioningRead.catch(() => undefined);
  const info = await readInfoPlist(zip, ctx, infoPath);
  ctx.checkDeadline();

  const bundleId = plistString(info.CFBundleIdentifier);
  if (!bundleId) throw new InspectError("plist_unreadable", `${infoPath} has no CFBundleIdentifier`);

  const displayName = plistString(info.CFBundleDisplayName) || plistString(info.CFBundleName);
  let appName = displayName;
  if (!appName) {
    appName = plistString(info.CFBundleExecutable) || prefix.slice("Payload/".length, -".app/".length);
    ctx.warnings.push(`No CFBundleDisplayName or CFBundleName; appName is the executable name "${appName}"`);
  }
  const buildNumber = plistString(info.CFBundleVersion) ?? "";
  let version = plistString(info.CFBundleShortVersionString);
  if (!version) {
    version = buildNumber;
    ctx.warnings.push(
      buildNumber
        ? "No CFBundleShortVersionString; version is CFBundleVersion"
        : "Neither CFBundleShortVersionString nor CFBundleVersion is set; version is empty",
    );
  }

  const result: InspectResult = {
    platform: "ios",
    appName,
    bundleId,
    version,
    buildNumber,
    minOs: plistString(info.MinimumOSVersion) ?? plistString(info.LSMinimumSystemVersion) ?? "",
    warnings: ctx.warnings,
  };
  const platforms = plistStrings(info.CFBundleSupportedPlatforms);
  if (platforms.length > 0) result.supportedPlatforms = platforms;

  const [localized, provisioning, icon] = await Promise.all([
    localizedRead,
    provisioningRead,
    findIpaIcon(zip, ctx, info, prefix),
  ]);
  if (localized.locales.length > 0) result.locales = localized.locales;
  const labels = { ...(displayName ? { "": displayName } : {}), ...localized.labels };
  if (Object.keys(labels).length > 0) result.labels = labels;
  if (provisioning) {
    result.provisioning = provisioning.info;
    if (provisioning.udids) result.provisionedUdids = provisioning.udids;
  }
  if (icon) result.icon = icon;
  ctx.checkDeadline();
  return result;
}

async function readInfoPlist(zip: ZipArchive, ctx: InspectContext, path: string): Promise<PlistDict> {
  const bytes = await zip.read(path, { maxBytes: MAX_INFO_PLIST_BYTES });
  let value;
  try {
    value = parsePlist(bytes, { maxDepth: Math.max(ctx.limits.maxDepth, 8) });
  } catch (error) {
    if (error instanceof PlistParseError) {
      throw new InspectError("plist_unreadable", `${path}: ${error.message}`, { cause: error });
    }
    throw error;
  }
  if (!isDict(value)) throw new InspectError("plist_unreadable", `${path} is not a dictionary`);
  return value;
}

async function readLocalizations(
  zip: ZipArchive,
  ctx: InspectContext,
  prefix: string,
): Promise<{ locales: string[]; labels: Record<string, string> }> {
  const folders = [...lprojFolders(zip.entries.keys(), prefix)];
  const locales = [...new Set(folders.map(lprojLocale).filter((l) => l !== undefined))].sort();
  const files = folders
    .map((folder) => ({ folder, path: `${prefix}${folder}.lproj/InfoPlist.strings` }))
    .filter(({ path }) => zip.entries.has(path));
  if (files.length > MAX_LOCALIZATIONS) {
    ctx.warnings.push(`Read the first ${MAX_LOCALIZATIONS} of ${files.length} InfoPlist.strings files`);
  }
  const chosen = files.slice(0, MAX_LOCALIZATIONS);
  // All at once rather than four at a time; bounded so held bytes stay small (64 × 256 KiB).
  zip.prefetch?.(
    chosen
      .map(({ path }) => path)
      .filter((path) => (zip.entries.get(path)?.uncompressedSize ?? 0) <= MAX_STRINGS_BYTES)
      .slice(0, 64),
  );
  const names = await mapLimit(chosen, 4, ({ folder, path }) =>
    optional(ctx, path, async () => {
      if ((zip.entries.get(path)?.uncompressedSize ?? 0) > MAX_STRINGS_BYTES) {
        throw new Error(`larger than ${MAX_STRINGS_BYTES} bytes`);
      }
      const strings = parseStringsFile(await zip.read(path, { maxBytes: MAX_STRINGS_BYTES }));
      const name = strings.get("CFBundleDisplayName") || strings.get("CFBundleName");
      const locale = lprojLocale(folder);
      return name && locale ? ([locale, name] as const) : undefined;
    }),
  );
  // fromEntries defines own properties, so a "__proto__.lproj" folder cannot touch the prototype.
  const labels = Object.fromEntries(names.filter((entry) => entry !== undefined));
  return { locales, labels };
}

async function readProvisioning(zip: ZipArchive, ctx: InspectContext, prefix: string) {
  const path = `${prefix}embedded.mobileprovision`;
  if (!zip.entries.has(path)) return undefined;
  return optional(ctx, path, async () =>
    readProfile(await zip.read(path, { maxBytes: MAX_PROVISION_BYTES })),
  );
}
