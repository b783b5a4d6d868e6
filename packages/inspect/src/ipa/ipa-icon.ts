import type { InspectContext } from "../inspect-context";
import type { IconInfo } from "../inspect-result";
import { cgbiToPng, isCgbi, pngSize } from "../png";
import type { ZipArchive } from "../zip/zip-archive";
import { bundleRootFiles } from "./ipa-bundle";
import { mapLimit } from "./map-limit";
import { optional } from "./optional";
import { isDict, plistString, plistStrings } from "./plist-value";
import type { PlistDict } from "./plist-value";

/** Icons are at most 1024×1024; anything bigger in a bundle is not an icon worth a read. */
const MAX_ICON_BYTES = 4 * 1024 * 1024;
const MAX_CANDIDATES = 16;

/** Icon base names the Info.plist declares, iPhone then iPad then legacy keys. */
export function declaredIconNames(info: PlistDict): string[] {
  const names: string[] = [];
  for (const key of ["CFBundleIcons", "CFBundleIcons~ipad"]) {
    const icons = info[key];
    const primary = isDict(icons) ? icons.CFBundlePrimaryIcon : undefined;
    if (isDict(primary)) names.push(...plistStrings(primary.CFBundleIconFiles));
  }
  names.push(...plistStrings(info.CFBundleIconFiles));
  const single = plistString(info.CFBundleIconFile);
  if (single) names.push(single);
  return [...new Set(names)];
}

/**
 * Files that may be the icon: for a declared "AppIcon60x60", the built files are
 * "AppIcon60x60@2x.png", "AppIcon60x60@3x.png", "AppIcon60x60@2x~ipad.png" and so on.
 */
export function iconCandidates(declared: string[], rootFiles: string[], prefix: string): string[] {
  const patterns = declared.map((name) => {
    const base = name.replace(/\.png$/i, "");
    return new RegExp(`^${escapeRegExp(base)}(@[123]x)?(~ipad|~iphone)?\\.png$`, "i");
  });
  if (patterns.length === 0) patterns.push(/^(AppIcon|Icon)[^/]*\.png$/i);
  return rootFiles.filter((path) => {
    const file = path.slice(prefix.length);
    return patterns.some((pattern) => pattern.test(file));
  });
}

/**
 * Icons worth fetching before Info.plist says which they are: Xcode names every built icon
 * AppIcon*.png and declares them all, so reading these alongside the plist saves a round trip.
 */
export function likelyIconFiles(zip: ZipArchive, prefix: string): string[] {
  return bundleRootFiles(zip.entries.keys(), prefix)
    .filter((path) => /^AppIcon[^/]*\.png$/i.test(path.slice(prefix.length)))
    .filter((path) => (zip.entries.get(path)?.uncompressedSize ?? Infinity) <= MAX_ICON_BYTES)
    .slice(0, MAX_CANDIDATES);
}

/** The largest icon by its actual PNG size, CgBI converted to a standard PNG. */
export async function findIpaIcon(
  zip: ZipArchive,
  ctx: InspectContext,
  info: PlistDict,
  prefix: string,
): Promise<IconInfo | undefined> {
  const rootFiles = bundleRootFiles(zip.entries.keys(), prefix);
  const candidates = iconCandidates(declaredIconNames(info), rootFiles, prefix)
    .filter((path) => (zip.entries.get(path)?.uncompressedSize ?? Infinity) <= MAX_ICON_BYTES)
    .slice(0, MAX_CANDIDATES);
  const read = await mapLimit(candidates, 4, (path) =>
    optional(ctx, `icon ${path}`, async () => {
      const data = await zip.read(path, { maxBytes: MAX_ICON_BYTES });
      const size = pngSize(data);
      return size ? { path, data, ...size } : undefined;
    }),
  );
  const icons = read.filter((icon) => icon !== undefined);
  icons.sort((a, b) => b.width * b.height - a.width * a.height);
  for (const icon of icons) {
    ctx.checkDeadline();
    if (!isCgbi(icon.data)) return icon;
    try {
      const data = cgbiToPng(icon.data);
      return { ...icon, data };
    } catch (error) {
      ctx.warnings.push(`Icon ${icon.path} could not be converted from Apple's CgBI PNG: ${(error as Error).message}`);
    }
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
