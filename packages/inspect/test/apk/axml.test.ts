import { describe, expect, it } from "vitest";
import { parseAxml } from "../../src/apk/axml/axml";
import type { AxmlDocument } from "../../src/apk/axml/axml";
import { BinaryFormatError } from "../../src/apk/binary/bytes";
import { readManifest } from "../../src/apk/manifest/manifest";
import { ANDROID_NS, Attr, buildAxml, buildManifest, sampleManifest } from "./helpers/axml-builder";
import type { ManifestSpec } from "./helpers/axml-builder";
import { T, chunk } from "./helpers/encode";

const spec: ManifestSpec = {
  ...sampleManifest,
  permissions: ["android.permission.INTERNET", "android.permission.CAMERA"],
};

function summary(doc: AxmlDocument) {
  const m = readManifest(doc);
  const text = (v: { type: number; data: number } | undefined) =>
    v?.type === T.STRING ? doc.strings.get(v.data) : v?.data;
  return {
    package: m.packageName,
    versionCode: text(m.versionCode),
    versionName: text(m.versionName),
    label: text(m.label),
    minSdk: text(m.minSdkVersion),
    targetSdk: text(m.targetSdkVersion),
    permissions: m.permissions,
  };
}

const expected = {
  package: "com.example.app",
  versionCode: 42,
  versionName: "1.0.4 [BETA]",
  label: "My App",
  minSdk: 21,
  targetSdk: 34,
  permissions: ["android.permission.INTERNET", "android.permission.CAMERA"],
};

/** Only BinaryFormatError may escape: anything else is a parser bug a hostile file can trigger. */
function parseOrFormatError(buf: Buffer): AxmlDocument | undefined {
  try {
    return parseAxml(buf);
  } catch (error) {
    if (error instanceof BinaryFormatError) return undefined;
    throw error;
  }
}

describe("parseAxml", () => {
  it("reads elements, depths, namespaces and typed attributes", () => {
    const doc = parseAxml(buildManifest(spec));
    expect(doc.elements.map((e) => [e.name, e.depth])).toEqual([
      ["manifest", 1],
      ["uses-sdk", 2],
      ["uses-permission", 2],
      ["uses-permission", 2],
      ["application", 2],
      ["activity", 3],
    ]);
    const versionCode = doc.elements[0]?.attributes.find((a) => a.resourceId === Attr.versionCode);
    expect(versionCode).toMatchObject({ namespace: ANDROID_NS, name: "versionCode", value: { type: T.INT_DEC, data: 42 } });
    expect(doc.damage).toBeUndefined();
    expect(summary(doc)).toEqual(expected);
  });

  it("reads a UTF-8 string pool the same way", () => {
    expect(summary(parseAxml(buildManifest(spec, { utf8: true })))).toEqual(expected);
  });

  it("identifies android attributes by resource id, whatever their names say", () => {
    const blank = parseAxml(buildManifest({ ...spec, attributeName: () => "" }));
    expect(summary(blank)).toEqual(expected);
    const swapped = parseAxml(
      buildManifest({ ...spec, attributeName: (n) => (n === "versionName" ? "label" : n === "label" ? "versionName" : `x${n}`) }),
    );
    expect(summary(swapped)).toEqual(expected);
  });

  it("ignores an attribute that is only named like an android attribute", () => {
    const doc = parseAxml(
      buildAxml({
        name: "manifest",
        attrs: [
          { name: "package", string: "com.decoy" },
          { ns: ANDROID_NS, name: "versionName", string: "fake (no resource id)" },
          { ns: ANDROID_NS, name: "", resId: Attr.versionName, string: "2.0" },
        ],
      }),
    );
    const m = readManifest(doc);
    expect(doc.strings.get(m.versionName?.data ?? -1)).toBe("2.0");
  });

  it("uses attributeStart and attributeSize from the element header, and headerSize for the extension", () => {
    const padded = buildManifest(spec, { attributeStart: 28, attributeSize: 32, nodeHeaderSize: 24 });
    expect(summary(parseAxml(padded))).toEqual(expected);
  });

  it("does not check the XML header's chunk type, like Android", () => {
    const doc = parseAxml(buildManifest(spec, { headerType: 0x0000 }));
    expect(summary(doc)).toEqual(expected);
    expect(doc.damage).toBeUndefined();
    expect(doc.anomalies.join()).toMatch(/header type/);
  });

  it("skips unknown chunks", () => {
    const unknown = chunk(0x0777, Buffer.alloc(8), Buffer.alloc(12, 0x55));
    const doc = parseAxml(buildManifest(spec, { extraChunks: [unknown, unknown] }));
    expect(summary(doc)).toEqual(expected);
    expect(doc.anomalies.some((a) => a.includes("0x777"))).toBe(true);
  });

  it("ignores trailing bytes after the declared size, even an all-zero chunk header", () => {
    const xml = buildManifest(spec);
    const doc = parseAxml(Buffer.concat([xml, Buffer.alloc(4096)]));
    expect(summary(doc)).toEqual(expected);
    expect(doc.damage).toBeUndefined();
  });

  it("stops at a zero-size chunk inside the document instead of looping", () => {
    const xml = buildManifest(spec);
    const grown = Buffer.concat([xml, Buffer.alloc(64)]);
    grown.writeUInt32LE(grown.length, 4);
    // After the root closed: harmless.
    expect(summary(parseAxml(grown))).toEqual(expected);
    // Before the root closed: the rest is lost, and the document is flagged as damaged.
    const stop = buildManifest(spec);
    const endTags = findChunks(stop, 0x0103);
    const cut = endTags[endTags.length - 1] as number; // the </manifest> tag
    stop.writeUInt32LE(0, cut + 4);
    const damaged = parseAxml(stop);
    expect(damaged.damage).toMatch(/size 0/);
    expect(summary(damaged).package).toBe("com.example.app");
  });

  it.each([1, 4, 7])("stops at a chunk declaring size %i (< 8)", (size) => {
    const xml = buildManifest(spec);
    const at = findChunks(xml, 0x0102)[2] as number; // first uses-permission
    xml.writeUInt32LE(size, at + 4);
    const doc = parseAxml(xml);
    expect(doc.elements.map((e) => e.name)).toEqual(["manifest", "uses-sdk"]);
    expect(doc.damage).toBeDefined();
  });

  it("clamps a document that declares more bytes than it has, and says it is damaged", () => {
    const xml = buildManifest(spec);
    xml.writeUInt32LE(xml.length + 5000, 4);
    const doc = parseAxml(xml);
    expect(summary(doc)).toEqual(expected);
    expect(doc.damage).toMatch(/declares/);
  });

  it("clamps an element whose declared size runs past the document", () => {
    const xml = buildManifest(spec);
    const lastStart = findChunks(xml, 0x0102).pop() as number;
    xml.writeUInt32LE(0x7fffffff, lastStart + 4);
    const doc = parseAxml(xml);
    expect(doc.elements.map((e) => e.name)).toContain("activity");
    expect(doc.damage).toBeDefined();
  });

  it("ignores attributes whose count runs past the element chunk", () => {
    const xml = buildManifest(spec);
    const first = findChunks(xml, 0x0102)[0] as number;
    xml.writeUInt16LE(500, first + 16 + 12); // attributeCount of <manifest>
    const doc = parseAxml(xml);
    expect(doc.elements[0]?.attributes.length).toBeLessThan(10);
    expect(doc.anomalies.join()).toMatch(/outside the chunk/);
  });

  it("gives a BinaryFormatError, never another error, for every truncation", () => {
    const xml = buildManifest(spec);
    let parsed = 0;
    for (let cut = 0; cut < xml.length; cut++) {
      const doc = parseOrFormatError(xml.subarray(0, cut));
      if (doc !== undefined) {
        parsed++;
        expect(doc.elements[0]?.name).toBe("manifest");
      }
    }
    // Cuts after the first start tag still give the manifest element (and say it is damaged).
    expect(parsed).toBeGreaterThan(0);
    const half = parseAxml(xml.subarray(0, Math.floor(xml.length * 0.8)));
    expect(half.damage).toBeDefined();
  });

  it("survives random corruption with either a result or a BinaryFormatError", () => {
    const xml = buildManifest(spec);
    let seed = 12345;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    const outcomes = { parsed: 0, formatError: 0 };
    for (let round = 0; round < 400; round++) {
      const copy = Buffer.from(xml);
      for (let k = 0; k < 1 + (round % 6); k++) copy[next() % copy.length] = next() & 0xff;
      // parseOrFormatError rethrows anything but a BinaryFormatError, which fails the test here.
      const doc = parseOrFormatError(copy);
      if (doc === undefined) outcomes.formatError++;
      else {
        expect(Array.isArray(doc.elements)).toBe(true);
        outcomes.parsed++;
      }
    }
    // Every input ended in one of the two, and both happen: the corruption reaches the parser.
    expect(outcomes.parsed + outcomes.formatError).toBe(400);
    expect(outcomes.parsed).toBeGreaterThan(0);
    expect(outcomes.formatError).toBeGreaterThan(0);
  });

  it("refuses input that has no string pool or no element", () => {
    expect(() => parseAxml(Buffer.alloc(4))).toThrow(BinaryFormatError);
    expect(() => parseAxml(Buffer.from('<?xml version="1.0"?><manifest package="a"/>'))).toThrow(BinaryFormatError);
    const onlyHeader = chunk(0x0003, Buffer.alloc(0), Buffer.alloc(0));
    expect(() => parseAxml(onlyHeader)).toThrow(/no string pool/);
  });

  it("stops after the root element when asked, ignoring a second root", () => {
    const one = buildManifest(spec);
    const second = buildManifest({ package: "com.second" });
    // Append the second document's nodes (skip its XML header) into the first's size.
    const merged = Buffer.concat([one, second.subarray(8)]);
    merged.writeUInt32LE(merged.length, 4);
    const doc = parseAxml(merged, { stopAfterRoot: true });
    expect(doc.elements.filter((e) => e.name === "manifest")).toHaveLength(1);
    expect(readManifest(doc).packageName).toBe("com.example.app");
  });
});

function findChunks(xml: Buffer, type: number): number[] {
  const out: number[] = [];
  let pos = xml.readUInt16LE(2);
  while (pos + 8 <= xml.length) {
    const size = xml.readUInt32LE(pos + 4);
    if (xml.readUInt16LE(pos) === type) out.push(pos);
    if (size < 8) break;
    pos += size;
  }
  return out;
}
