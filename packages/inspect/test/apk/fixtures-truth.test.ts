import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectApk } from "../../src/apk";
import { boundMetadata } from "../../src/bound-metadata";
import { inspectPackage } from "../../src/inspect-package";
import { createInspectContext } from "../../src/inspect-context";
import { InspectError } from "../../src/inspect-result";
import type { InspectResult } from "../../src/inspect-result";
import { FileRangeReader } from "../../src/reader/file-range-reader";
import { openZip } from "../../src/zip/open-zip";
import { parseBadging, toBcp47 } from "./helpers/badging";
import type { Badging } from "./helpers/badging";
import { zipToBuffer } from "../../fixtures/zip-writer";
import type { ZipWriterEntry } from "../../fixtures/zip-writer";
import type { ApkFixtureEntry } from "../../fixtures/apk-fixture-entry";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/apk");

const fixtures = JSON.parse(readFileSync(join(FIXTURES, "fixtures.json"), "utf8")) as ApkFixtureEntry[];
const valid = fixtures.filter((f) => f.expectError === undefined);
const invalid = fixtures.filter((f) => f.expectError !== undefined);
const byName = new Map(fixtures.map((f) => [f.name, f]));

function badgings(entry: ApkFixtureEntry): Badging[] {
  const source = entry.truthFrom === undefined ? entry : (byName.get(entry.truthFrom) as ApkFixtureEntry);
  return [source.badging, source.aapt2Badging]
    .filter((f): f is string => f !== undefined)
    .map((f) => parseBadging(readFileSync(join(FIXTURES, f), "utf8")));
}

/** The value both tools report (ignoring a tool that says nothing); they must not disagree. */
function agreed<V>(all: Badging[], pick: (b: Badging) => V | undefined, what: string): V | undefined {
  const values = all.map(pick).filter((v) => v !== undefined && v !== "");
  const distinct = [...new Set(values.map((v) => JSON.stringify(v)))];
  expect(distinct.length, `aapt and aapt2 disagree on ${what}: ${distinct.join(" / ")}`).toBeLessThanOrEqual(1);
  return values[0];
}

/** What inspection must answer, derived only from the badging output (plus fixtures.json for icons). */
function expectedFrom(entry: ApkFixtureEntry) {
  const all = badgings(entry);
  expect(all.length).toBeGreaterThan(0);
  const localized = new Map<string, string>();
  for (const b of all) {
    for (const [locale, label] of b.localizedLabels) {
      const seen = localized.get(locale);
      expect(seen === undefined || seen === label, `aapt and aapt2 disagree on label-${locale}`).toBe(true);
      localized.set(locale, label);
    }
  }
  // application-label: is the default; without locales aapt2 prints only `application: label=`.
  const defaultLabel =
    agreed(all, (b) => b.label, "application-label") ??
    (localized.size === 0 ? agreed(all, (b) => b.application?.label, "application: label") : undefined);
  const english = [...localized.keys()].sort().find((l) => l === "en" || l.startsWith("en-"));
  const firstLocalized = [...localized.keys()].sort()[0];
  const packageName = agreed(all, (b) => b.packageName, "package name") as string;
  const minSdk = agreed(all, (b) => b.sdkVersion, "sdkVersion");
  const icons = agreed(all, (b) => [...b.icons].sort((x, y) => y[0] - x[0]), "icons") ?? [];
  const bestPng = icons.find(([density, path]) => density < 0xfffe && path.endsWith(".png"))?.[1];
  return {
    packageName,
    versionName: agreed(all, (b) => b.versionName, "versionName") ?? "",
    versionCode: agreed(all, (b) => b.versionCode, "versionCode") ?? "0",
    minSdk: minSdk ?? "1",
    targetSdk: agreed(all, (b) => b.targetSdkVersion, "targetSdkVersion") ?? minSdk,
    permissions: agreed(
      all,
      (b) => [...new Set(b.permissions.filter((p) => !b.impliedPermissions.has(p)))].sort(),
      "permissions",
    ) ?? [],
    defaultLabel,
    localized,
    appName:
      defaultLabel ??
      (english !== undefined ? localized.get(english) : undefined) ??
      (firstLocalized !== undefined ? localized.get(firstLocalized) : undefined) ??
      packageName,
    locales: agreed(all, (b) => b.locales, "locales") ?? [],
    iconPath: entry.expectIcon?.path ?? bestPng,
    split: agreed(all, (b) => b.split, "split"),
  };
}

async function inspectFile(file: string): Promise<{ result: InspectResult; bytesRead: number }> {
  const reader = await FileRangeReader.open(resolve(FIXTURES, file));
  try {
    const result = await inspectPackage(reader, { fileName: file });
    return { result, bytesRead: reader.stats.bytesRead };
  } finally {
    await reader.close();
  }
}

/** The parsers' own answer, before inspectPackage bounds it (aapt prints strings whole). */
async function inspectDirect(file: string): Promise<InspectResult> {
  const reader = await FileRangeReader.open(join(FIXTURES, file));
  try {
    const ctx = createInspectContext();
    return await inspectApk(await openZip(reader, ctx), ctx);
  } finally {
    await reader.close();
  }
}

describe.each(valid)("fixture $name ($built)", (entry) => {
  let result: InspectResult;

  beforeAll(async () => {
    result = await inspectDirect(entry.file);
  });

  it("answers package, versions and SDKs exactly as aapt dump badging", () => {
    const expected = expectedFrom(entry);
    expect(result.platform).toBe("android");
    expect(result.bundleId).toBe(expected.packageName);
    expect(result.version).toBe(expected.versionName);
    expect(result.buildNumber).toBe(expected.versionCode);
    expect(result.minOs).toBe(expected.minSdk);
    expect(result.targetSdk).toBe(expected.targetSdk);
    expect([...(result.permissions ?? [])].sort()).toEqual(expected.permissions);
  });

  it("answers the app name and every localized label as aapt dump badging", () => {
    const expected = expectedFrom(entry);
    expect(result.appName).toBe(expected.appName);
    const labels = result.labels ?? {};
    expect(labels[""]).toBe(expected.defaultLabel);
    // aapt prints a label for every locale of the table, falling back to the default one.
    for (const [locale, label] of expected.localized) {
      const ours = Object.keys(labels).find((l) => l !== "" && toBcp47(l) === locale);
      expect(ours !== undefined ? labels[ours] : labels[""], `label for ${locale}`).toBe(label);
    }
    for (const locale of Object.keys(labels).filter((l) => l !== "")) {
      expect(expected.localized.has(toBcp47(locale)), `aapt has a label for ${locale}`).toBe(true);
    }
    expect((result.locales ?? []).map(toBcp47).sort()).toEqual([...expected.locales].sort());
  });

  it("picks the highest-density PNG icon", () => {
    const expected = expectedFrom(entry);
    expect(result.icon?.path).toBe(expected.iconPath);
    if (entry.expectIcon !== undefined) {
      expect(result.icon).toMatchObject({ width: entry.expectIcon.width, height: entry.expectIcon.height });
      expect(result.icon?.data.subarray(1, 4).toString("latin1")).toBe("PNG");
    }
  });

  it("warns only where the package gives reason to", () => {
    if (entry.expectWarning === undefined) {
      expect(result.warnings).toEqual([]);
    } else {
      expect(result.warnings.join("\n").toLowerCase()).toContain(entry.expectWarning.toLowerCase());
    }
  });

  it("answers through inspectPackage what inspectApk finds, within the metadata bounds", async () => {
    expect((await inspectFile(entry.file)).result).toEqual(boundMetadata(result));
  });
});

describe.each(invalid)("fixture $name ($built)", (entry) => {
  it(`is refused with ${entry.expectError}`, async () => {
    const error = await inspectFile(entry.file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InspectError);
    expect((error as InspectError).code).toBe(entry.expectError);
    if (entry.badging !== undefined && entry.expectError === "unsupported_bundle") {
      // aapt agrees that this is a split, and says which one.
      expect(expectedFrom(entry).split).toMatch(/^config\./);
      expect((error as InspectError).message).toContain(expectedFrom(entry).split as string);
    }
  });
});

describe("fixture set", () => {
  it("covers every case the parsers must handle", () => {
    const names = fixtures.map((f) => f.name);
    for (const required of [
      "aapt2-string-refs",
      "aapt1-utf16",
      "aapt1-long-strings",
      "aapt2-sparse",
      "aapt2-no-default-label",
      "aapt2-adaptive-icon",
      "aapt2-split-config",
      "hostile-trailing-bytes",
      "hostile-wrong-header-type",
      "hostile-size-overrun",
      "utf8-manifest-pool",
    ]) {
      expect(names).toContain(required);
    }
  });
});

describe("large stored entries", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hangar-apk-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a package with a 48 MB stored asset ahead of the manifest without touching the asset", async () => {
    const source = await FileRangeReader.open(join(FIXTURES, "aapt1-stored-asset.apk"));
    const ctx = createInspectContext();
    const zip = await openZip(source, ctx);
    const items: ZipWriterEntry[] = [{ name: "assets/huge.bin", data: Buffer.alloc(48 * 1024 * 1024, 0x42), method: "store" }];
    for (const name of zip.entries.keys()) items.push({ name, data: await zip.read(name), method: "store" });
    await source.close();
    const path = join(dir, "huge.apk");
    await writeFile(path, await zipToBuffer(items));

    const { result, bytesRead } = await inspectFile(path);
    expect(result).toMatchObject({ bundleId: "com.hangar.stored", appName: "Stored Asset", version: "1.5", buildNumber: "150" });
    expect(bytesRead).toBeLessThan(1024 * 1024);
  });
});
