import type { InspectContext } from "../../inspect-context";
import { InspectError } from "../../inspect-result";
import type { IconInfo } from "../../inspect-result";
import type { ZipArchive } from "../../zip/zip-archive";
import type { ResConfig } from "../arsc/res-config";
import { DENSITY_ANY, DENSITY_DEFAULT, DENSITY_NONE } from "../arsc/res-config";
import type { ResourceTable } from "../arsc/resource-table";
import { parseAxml } from "../axml/axml";
import { BinaryFormatError } from "../binary/bytes";
import { ValueType, isReference } from "../binary/res-value";
import type { ResValue } from "../binary/res-value";
import { AndroidAttr } from "../manifest/manifest";
import { pngSize } from "../../png";

/** An icon is a few KB; a cap well under the entry limit keeps a hostile "icon" from costing much. */
const MAX_ICON_BYTES = 8 * 1024 * 1024;
const MAX_ADAPTIVE_XML_BYTES = 1024 * 1024;

interface Candidate {
  path: string;
  /** Density rank: higher is sharper. */
  rank: number;
  plain: boolean;
  localized: boolean;
}

const QUALIFIER_DENSITY: Record<string, number> = {
  ldpi: 120,
  mdpi: 160,
  tvdpi: 213,
  hdpi: 240,
  xhdpi: 320,
  xxhdpi: 480,
  xxxhdpi: 640,
  nodpi: 1,
  anydpi: 0,
};

/**
 * The application icon: the highest-density PNG among the icon resource's configurations. An
 * adaptive icon (XML, mipmap-anydpi-v26) is not an image; we fall back to a PNG of the same
 * resource, then to a PNG of the same file name in another mipmap/drawable folder, then to the
 * adaptive icon's foreground layer. Missing or unreadable icons add a warning, never an error.
 */
export async function resolveAppIcon(
  iconValue: ResValue | undefined,
  table: ResourceTable | undefined,
  zip: ZipArchive,
  ctx: InspectContext,
): Promise<IconInfo | undefined> {
  if (iconValue === undefined) return undefined;
  if (!isReference(iconValue) || table === undefined) {
    ctx.warnings.push("The application icon could not be resolved: it is not a resource reference in resources.arsc");
    return undefined;
  }
  const files = collectFiles(iconValue.data >>> 0, table, ctx);
  const xmlPaths = files.filter((f) => f.path.toLowerCase().endsWith(".xml")).map((f) => f.path);

  const attempts: Array<() => Promise<IconInfo | undefined> | IconInfo | undefined> = [
    () => readBest(pngs(files, zip), zip, ctx),
    () => readBest(sameNamePngs(xmlPaths, zip), zip, ctx),
    () => foregroundIcon(xmlPaths, table, zip, ctx),
  ];
  for (const attempt of attempts) {
    const icon = await attempt();
    if (icon !== undefined) return icon;
  }
  ctx.warnings.push(
    xmlPaths.length > 0
      ? `The application icon is an XML drawable (${xmlPaths[0]}) with no PNG variant; no icon extracted`
      : "The application icon has no PNG file in the package; no icon extracted",
  );
  return undefined;
}

/** Every file the icon resource points at, in every configuration, following aliases. */
function collectFiles(resId: number, table: ResourceTable, ctx: InspectContext): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<number>();
  const visit = (id: number, depth: number): void => {
    if (seen.has(id) || depth > ctx.limits.maxDepth) return;
    seen.add(id);
    for (const entry of table.entries(id)) {
      const value = entry.value;
      if (value === undefined) continue;
      if (value.type === ValueType.STRING) {
        const path = table.strings.get(value.data);
        if (path !== undefined) out.push(candidate(path, entry.config));
      } else if (isReference(value) && value.data !== 0) {
        visit(value.data >>> 0, depth + 1);
      }
    }
  };
  visit(resId, 0);
  return out;
}

function candidate(path: string, config: ResConfig): Candidate {
  return { path, rank: densityRank(config.density), plain: config.plain, localized: config.locale !== "" };
}

function densityRank(density: number): number {
  if (density === DENSITY_DEFAULT) return 160;
  if (density === DENSITY_NONE) return 1;
  if (density === DENSITY_ANY) return 0;
  return density;
}

function pngs(files: Candidate[], zip: ZipArchive): Candidate[] {
  return files.filter((f) => f.path.toLowerCase().endsWith(".png") && zip.entries.has(f.path));
}

/** res/<mipmap|drawable>[-qualifiers]/<name>.png for an icon whose resource is only XML. */
function sameNamePngs(xmlPaths: string[], zip: ZipArchive): Candidate[] {
  const names = new Set(xmlPaths.map((p) => p.slice(p.lastIndexOf("/") + 1).replace(/\.xml$/i, "")));
  if (names.size === 0) return [];
  const out: Candidate[] = [];
  for (const path of zip.entries.keys()) {
    const match = /^res\/((?:mipmap|drawable)(?:-[^/]*)?)\/([^/]+)\.png$/i.exec(path);
    if (match === null || !names.has(match[2] as string)) continue;
    const qualifiers = (match[1] as string).split("-").slice(1);
    const density = qualifiers.map((q) => QUALIFIER_DENSITY[q]).find((d) => d !== undefined) ?? 160;
    const plain = qualifiers.every((q) => q in QUALIFIER_DENSITY || /^v\d+$/.test(q));
    out.push({ path, rank: density, plain, localized: false });
  }
  return out;
}

/** Last resort for an adaptive icon: the PNG of its <foreground> layer. */
async function foregroundIcon(
  xmlPaths: string[],
  table: ResourceTable,
  zip: ZipArchive,
  ctx: InspectContext,
): Promise<IconInfo | undefined> {
  for (const xmlPath of new Set(xmlPaths)) {
    if (!zip.entries.has(xmlPath)) continue;
    const bytes = await readOptional(zip, xmlPath, MAX_ADAPTIVE_XML_BYTES, ctx);
    if (bytes === undefined) continue;
    let foreground: ResValue | undefined;
    try {
      const doc = parseAxml(bytes, { checkDeadline: () => ctx.checkDeadline() });
      foreground = doc.elements
        .find((e) => e.name === "foreground")
        ?.attributes.find((a) => a.resourceId === AndroidAttr.drawable)?.value;
    } catch (error) {
      if (!(error instanceof BinaryFormatError)) throw error;
      continue;
    }
    if (foreground === undefined || !isReference(foreground)) continue;
    const icon = await readBest(pngs(collectFiles(foreground.data >>> 0, table, ctx), zip), zip, ctx);
    if (icon !== undefined) {
      ctx.warnings.push(`The application icon is adaptive (${xmlPath}); using its foreground layer ${icon.path}`);
      return icon;
    }
  }
  return undefined;
}

async function readBest(candidates: Candidate[], zip: ZipArchive, ctx: InspectContext): Promise<IconInfo | undefined> {
  const ordered = [...candidates].sort(
    (a, b) =>
      Number(a.localized) - Number(b.localized) ||
      b.rank - a.rank ||
      Number(b.plain) - Number(a.plain),
  );
  const tried = new Set<string>();
  for (const c of ordered) {
    if (tried.has(c.path)) continue;
    tried.add(c.path);
    const data = await readOptional(zip, c.path, MAX_ICON_BYTES, ctx);
    if (data === undefined) continue;
    const size = pngSize(data);
    if (size === undefined) {
      ctx.warnings.push(`Icon candidate ${c.path} is not a PNG; skipped`);
      continue;
    }
    return { path: c.path, data, width: size.width, height: size.height };
  }
  return undefined;
}

/** Reads an optional file; a file too large or damaged only costs a warning. */
async function readOptional(
  zip: ZipArchive,
  path: string,
  maxBytes: number,
  ctx: InspectContext,
): Promise<Buffer | undefined> {
  try {
    return await zip.read(path, { maxBytes: Math.min(maxBytes, ctx.limits.maxEntryBytes) });
  } catch (error) {
    if (error instanceof InspectError && (error.code === "too_large" || error.code === "zip_corrupt")) {
      ctx.warnings.push(`Icon file ${path} was skipped: ${error.message}`);
      return undefined;
    }
    throw error;
  }
}
