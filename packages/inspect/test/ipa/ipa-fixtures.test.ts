import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import plist from "plist";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExpectedIpa } from "../../fixtures/ipa-fixtures";
import { iconPixels } from "../../fixtures/ipa-fixture-images";
import { writeBigAssetIpa, writeManyEntryIpa } from "../../fixtures/large-fixtures";
import { zipToBuffer } from "../../fixtures/zip-writer";
import { BufferRangeReader, FileRangeReader, inspectPackage } from "../../src";
import type { InspectResult } from "../../src";
import { isCgbi } from "../../src/png/png";
import { createInspectContext } from "../../src/inspect-context";
import { LOCAL_HEADER_SLACK, openZip } from "../../src/zip/open-zip";
import { TAIL_READ_BYTES } from "../../src/zip/zip-structure";
import { errorCode } from "../helpers/error-code";
import { LoggingReader } from "../helpers/logging-reader";

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/ipa");
const expected = JSON.parse(await readFile(join(fixturesDir, "expected.json"), "utf8")) as Record<
  string,
  ExpectedIpa & { description: string }
>;

async function inspectFile(path: string): Promise<{ result: InspectResult; reader: LoggingReader }> {
  const reader = new LoggingReader(await FileRangeReader.open(path));
  try {
    return { result: await inspectPackage(reader, { fileName: path }), reader };
  } finally {
    await reader.close();
  }
}

/** The central directory of a package, read separately from the run being measured. */
async function directoryOf(path: string) {
  const reader = await FileRangeReader.open(path);
  try {
    return await openZip(reader, createInspectContext());
  } finally {
    await reader.close();
  }
}

describe.each(Object.keys(expected))("IPA fixture %s", (file) => {
  const truth = expected[file]!;

  it("matches expected.json field by field", async () => {
    const { result } = await inspectFile(join(fixturesDir, file));
    expect(result.platform).toBe(truth.platform);
    expect(result.appName).toBe(truth.appName);
    expect(result.bundleId).toBe(truth.bundleId);
    expect(result.version).toBe(truth.version);
    expect(result.buildNumber).toBe(truth.buildNumber);
    expect(result.minOs).toBe(truth.minOs);
    expect(result.supportedPlatforms).toEqual(truth.supportedPlatforms);
    expect(result.labels).toEqual(truth.labels);
    expect(result.locales).toEqual(truth.locales);
    expect(result.provisioning).toEqual(truth.provisioning);
    expect(result.provisionedUdids).toEqual(truth.provisionedUdids);
    expect(result.warnings).toEqual(truth.warnings);
    if (truth.icon) {
      expect(result.icon).toMatchObject({ path: truth.icon.path, width: truth.icon.width, height: truth.icon.height });
      // Always a standard PNG a browser can show, whatever the package held.
      expect(isCgbi(result.icon!.data)).toBe(false);
      const png = PNG.sync.read(result.icon!.data);
      expect([png.width, png.height]).toEqual([truth.icon.width, truth.icon.height]);
    } else {
      expect(result.icon).toBeUndefined();
    }
  });
});

describe("IPA specifics", () => {
  it("converts the CgBI icon to a PNG whose pixels equal the source image", async () => {
    const { result } = await inspectFile(join(fixturesDir, "binary-plist.ipa"));
    const source = await readFile(join(fixturesDir, "binary-plist.ipa"));
    expect(source.includes(Buffer.from("CgBI"))).toBe(true);
    const png = PNG.sync.read(result.icon!.data);
    expect(Buffer.from(png.data).equals(iconPixels(120, 7))).toBe(true);
  });

  it("never takes a nested bundle's Info.plist for the app's", async () => {
    const { result } = await inspectFile(join(fixturesDir, "nested-bundles.ipa"));
    expect(result.bundleId).toBe("com.example.host");
    expect(result.provisioning?.kind).toBe("enterprise");
    expect(result.icon?.path).toBe("Payload/Host.app/Icon@2x.png");
    expect(result.labels).toEqual({ "": "Host" });
  });

  it("not_an_ipa when only nested bundles have an Info.plist", async () => {
    const bytes = await zipToBuffer([
      { name: "Payload/Host.app/PlugIns/W.appex/Info.plist", data: Buffer.from("<plist/>") },
      { name: "Payload/Host.app/Frameworks/K.framework/Info.plist", data: Buffer.from("<plist/>") },
    ]);
    expect(await errorCode(inspectPackage(new BufferRangeReader(bytes)))).toBe("not_an_ipa");
  });

  it("plist_unreadable for a broken Info.plist or one without a bundle id", async () => {
    const broken = await zipToBuffer([{ name: "Payload/A.app/Info.plist", data: Buffer.from("<plist><dict><key>") }]);
    expect(await errorCode(inspectPackage(new BufferRangeReader(broken)))).toBe("plist_unreadable");
    const noId = await zipToBuffer([
      { name: "Payload/A.app/Info.plist", data: Buffer.from('<plist version="1.0"><dict><key>CFBundleName</key><string>A</string></dict></plist>') },
    ]);
    expect(await errorCode(inspectPackage(new BufferRangeReader(noId)))).toBe("plist_unreadable");
  });

  it("keeps the metadata when the profile or an icon is broken, with warnings", async () => {
    const plistXml = plist.build({
      CFBundleIdentifier: "com.example.x",
      CFBundleDisplayName: "X",
      CFBundleShortVersionString: "1",
      CFBundleIconFiles: ["Icon"],
    });
    const bytes = await zipToBuffer([
      { name: "Payload/X.app/Info.plist", data: Buffer.from(plistXml) },
      { name: "Payload/X.app/embedded.mobileprovision", data: Buffer.from("0\x82 garbage without a plist") },
      { name: "Payload/X.app/Icon.png", data: Buffer.from("not a png") },
    ]);
    const result = await inspectPackage(new BufferRangeReader(bytes));
    expect(result).toMatchObject({ appName: "X", bundleId: "com.example.x", version: "1" });
    expect(result.provisioning).toBeUndefined();
    expect(result.icon).toBeUndefined();
    expect(result.warnings.some((w) => w.includes("embedded.mobileprovision"))).toBe(true);
  });
});

describe("reads only what it needs from large IPAs", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hangar-ipa-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Entries inspectIpa reads from the xml-plist sample app. */
  const NEEDED = [
    "Info.plist",
    "AppIcon60x60@2x.png",
    "AppIcon60x60@3x.png",
    "AppIcon76x76@2x~ipad.png",
    "en.lproj/InfoPlist.strings",
    "fr.lproj/InfoPlist.strings",
    "embedded.mobileprovision",
  ].map((name) => `Payload/Demo.app/${name}`);

  function neededBytes(zip: { entries: ReadonlyMap<string, { compressedSize: number }> }): number {
    let total = 0;
    for (const name of NEEDED) {
      const entry = zip.entries.get(name);
      expect(entry).toBeDefined();
      // Local header + name + data + data descriptor, plus the bounded over-read.
      total += 30 + Buffer.byteLength(name) + entry!.compressedSize + 16 + LOCAL_HEADER_SLACK;
    }
    return total;
  }

  it("a 200 MB IPA: bytes read within tail + central directory + needed entries", async () => {
    const path = join(dir, "big.ipa");
    await writeBigAssetIpa(path, 200 * 1024 * 1024, { sparse: true });
    const { result, reader } = await inspectFile(path);
    expect(result.bundleId).toBe("com.example.demo");
    const zip = await directoryOf(path);
    const cd = zip.endRecord.centralDirectorySize;
    expect(reader.stats.bytesRead).toBeLessThanOrEqual(TAIL_READ_BYTES + cd + neededBytes(zip));
    expect(reader.stats.bytesRead).toBeLessThan(300 * 1024);
    // The tail read plus at most one read per needed entry.
    expect(reader.stats.reads).toBeLessThanOrEqual(1 + NEEDED.length);
  });

  it("a 70,000-entry ZIP64 IPA: the central directory is fetched exactly once", async () => {
    const path = join(dir, "many.ipa");
    await writeManyEntryIpa(path, 70_000);
    const { result, reader } = await inspectFile(path);
    expect(result.bundleId).toBe("com.example.demo");
    const zip = await directoryOf(path);
    expect(zip.endRecord.zip64).toBe(true);
    expect(zip.entries.size).toBeGreaterThan(70_000);
    const { centralDirectoryOffset: cdStart, centralDirectorySize: cdSize } = zip.endRecord;
    const tailStart = reader.size - TAIL_READ_BYTES;
    const cdReads = reader.log.filter(({ offset, length }) => offset < cdStart + cdSize && offset + length > cdStart);
    // The tail read covers the directory's last bytes; one more read fetches the rest of it.
    expect(cdReads.filter(({ offset }) => offset !== tailStart)).toEqual([{ offset: cdStart, length: tailStart - cdStart }]);
    expect(reader.stats.bytesRead).toBeLessThanOrEqual(TAIL_READ_BYTES + cdSize + neededBytes(zip));
  });
});
