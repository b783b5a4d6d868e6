import { describe, expect, it } from "vitest";
import { formatLocale, parseResConfig, unpackLanguageOrRegion } from "../../src/apk/arsc/res-config";
import { ResourceTable } from "../../src/apk/arsc/resource-table";
import { BinaryFormatError } from "../../src/apk/binary/bytes";
import { TYPE, buildArsc, configBytes, resId } from "./helpers/arsc-builder";
import type { EntrySpec } from "./helpers/arsc-builder";
import { T } from "./helpers/encode";

const S = TYPE.string;

function strings(table: ResourceTable, id: number): Array<[string, string | undefined]> {
  return table.entries(id).map((e) => [e.config.locale, e.value && table.strings.get(e.value.data)]);
}

const entries: EntrySpec[] = [
  { index: 0, key: "app_name", string: "Default" },
  { index: 2, key: "version", string: "1.0 [b]" },
  { index: 5, key: "count", type: T.INT_DEC, data: 7 },
];

describe.each(["dense", "sparse", "offset16"] as const)("ResourceTable with %s type chunks", (encoding) => {
  const table = ResourceTable.parse(
    buildArsc({
      types: [
        { typeId: S, encoding, entryCount: 8, entries },
        { typeId: S, encoding, entryCount: 8, config: { language: "fr" }, entries: [{ index: 2, key: "version", string: "1.0 [fr]" }] },
      ],
    }),
  );

  it("finds present entries in every config and nothing for absent ones", () => {
    expect(strings(table, resId(S, 0))).toEqual([["", "Default"]]);
    expect(strings(table, resId(S, 2))).toEqual([["", "1.0 [b]"], ["fr", "1.0 [fr]"]]);
    expect(table.entries(resId(S, 5))[0]?.value).toEqual({ type: T.INT_DEC, data: 7 });
    for (const missing of [1, 3, 4, 6, 7, 8, 500, 0xffff]) expect(table.entries(resId(S, missing))).toEqual([]);
  });

  it("names resources and lists locales", () => {
    expect(table.resourceName(resId(S, 2))).toBe("string/version");
    expect(table.locales).toEqual(["fr"]);
  });
});

describe("ResourceTable entry kinds", () => {
  it("reads compact entries (key in the first u16, type in the flags' high byte, data inline)", () => {
    const table = ResourceTable.parse(
      buildArsc({
        types: [
          {
            typeId: S,
            encoding: "offset16",
            entries: [
              { index: 0, key: "app_name", string: "Compact name", compact: true },
              { index: 1, key: "flag", type: T.BOOLEAN, data: 1, compact: true },
              { index: 2, key: "normal", string: "Normal" },
            ],
          },
        ],
      }),
    );
    expect(strings(table, resId(S, 0))).toEqual([["", "Compact name"]]);
    expect(table.entries(resId(S, 1))[0]?.value).toEqual({ type: T.BOOLEAN, data: 1 });
    expect(table.resourceName(resId(S, 1))).toBe("string/flag");
    expect(strings(table, resId(S, 2))).toEqual([["", "Normal"]]);
  });

  it("reports complex (bag) entries without a value and reads their neighbours", () => {
    const table = ResourceTable.parse(
      buildArsc({
        types: [
          {
            typeId: S,
            entries: [
              { index: 0, key: "style", complex: 3 },
              { index: 1, key: "after", string: "After the bag" },
            ],
          },
        ],
      }),
    );
    expect(table.entries(resId(S, 0))).toMatchObject([{ value: undefined }]);
    expect(strings(table, resId(S, 1))).toEqual([["", "After the bag"]]);
  });

  it("reads a UTF-16 value pool", () => {
    const table = ResourceTable.parse(
      buildArsc({ utf8: false, types: [{ typeId: S, entries: [{ index: 0, key: "k", string: "ユニコード 🚀" }] }] }),
    );
    expect(strings(table, resId(S, 0))).toEqual([["", "ユニコード 🚀"]]);
  });

  it("answers nothing for another package id", () => {
    const table = ResourceTable.parse(buildArsc({ types: [{ typeId: S, entries }] }));
    expect(table.entries(resId(S, 0, 0x01))).toEqual([]);
    expect(table.packageIds).toEqual([0x7f]);
  });
});

describe("ResTable_config", () => {
  const parse = (spec: Parameters<typeof configBytes>[0]) => {
    const bytes = configBytes(spec);
    return parseResConfig(bytes, 0, bytes.length);
  };

  it.each([
    [{}, ""],
    [{ language: "fr" }, "fr"],
    [{ language: "zh", region: "CN" }, "zh-CN"],
    [{ language: "sr", script: "Latn" }, "b+sr+Latn"],
    [{ language: "sr", script: "Latn", region: "RS" }, "b+sr+Latn+RS"],
    [{ language: "fil" }, "fil"],
    [{ language: "es", region: "419" }, "es-419"],
    [{ language: "ca", region: "ES", variant: "valencia" }, "b+ca+ES+valencia"],
  ])("formats %j as %s", (spec, locale) => {
    expect(parse(spec).locale).toBe(locale);
  });

  it("unpacks three-letter codes packed into two bytes", () => {
    // "fil": f=5, i=8, l=11 → byte0 = 0x80 | (11 << 2) | (8 >> 3), byte1 = (8 << 5) | 5
    expect(unpackLanguageOrRegion(0x80 | (11 << 2) | (8 >> 3), ((8 << 5) | 5) & 0xff, 0x61)).toBe("fil");
    // region "419" with base '0'
    expect(unpackLanguageOrRegion(0x80 | (9 << 2) | (1 >> 3), ((1 << 5) | 4) & 0xff, 0x30)).toBe("419");
    expect(formatLocale("", "US")).toBe("");
  });

  it("reads density and sdk version, and tells plain configs from qualified ones", () => {
    expect(parse({ density: 640, sdk: 4 })).toMatchObject({ density: 640, sdkVersion: 4, plain: true, locale: "" });
    expect(parse({ language: "de" }).plain).toBe(true);
    expect(parse({ night: true }).plain).toBe(false);
  });

  it("reads configs written by older tools with a smaller size", () => {
    const short = parse({ language: "en", region: "GB", script: "Latn", size: 32 });
    expect(short.locale).toBe("en-GB"); // the script lies past the 32 bytes: not part of the config
    const truncated = parseResConfig(configBytes({ language: "it" }), 0, 12);
    expect(truncated.locale).toBe("it");
  });
});

describe("ResourceTable hostile input", () => {
  const good = buildArsc({
    types: [
      { typeId: S, entries },
      { typeId: S, config: { language: "de" }, entries: [{ index: 0, key: "app_name", string: "Deutsch" }] },
    ],
  });

  it("ignores an entry offset pointing outside its chunk", () => {
    const buf = Buffer.from(good);
    const typeAt = buf.indexOf(Buffer.from([0x01, 0x02]), 0); // first ResTable_type header (type 0x0201)
    expect(typeAt).toBeGreaterThan(0);
    const headerSize = buf.readUInt16LE(typeAt + 2);
    buf.writeUInt32LE(0x00fffff0, typeAt + headerSize); // entry 0's offset
    const table = ResourceTable.parse(buf);
    expect(strings(table, resId(S, 0))).toEqual([["de", "Deutsch"]]);
  });

  it("cuts an entry count that claims more offsets than there is room for", () => {
    const buf = Buffer.from(good);
    const typeAt = buf.indexOf(Buffer.from([0x01, 0x02]), 0);
    buf.writeUInt32LE(0x10000000, typeAt + 12);
    const table = ResourceTable.parse(buf);
    expect(table.entries(resId(S, 0xfffe))).toEqual([]);
    expect(strings(table, resId(S, 0))[0]?.[1]).toBeDefined();
  });

  it("gives a table or a BinaryFormatError, never another error, for every truncation", () => {
    for (let cut = 0; cut < good.length; cut += 3) {
      try {
        const table = ResourceTable.parse(good.subarray(0, cut));
        table.entries(resId(S, 0));
        table.entries(resId(S, 2));
        void table.locales;
      } catch (error) {
        if (!(error instanceof BinaryFormatError)) throw error;
      }
    }
  });

  it("survives random corruption and zero-size chunks", () => {
    let seed = 99;
    const next = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed;
    };
    const outcomes = { table: 0, formatError: 0 };
    for (let round = 0; round < 300; round++) {
      const buf = Buffer.from(good);
      for (let k = 0; k < 1 + (round % 5); k++) buf[next() % buf.length] = next() & 0xff;
      try {
        const table = ResourceTable.parse(buf);
        for (let i = 0; i < 6; i++) expect(Array.isArray(table.entries(resId(S, i)))).toBe(true);
        table.resourceName(resId(S, 0));
        outcomes.table++;
      } catch (error) {
        // Anything but the typed error fails the test.
        expect(error).toBeInstanceOf(BinaryFormatError);
        outcomes.formatError++;
      }
    }
    expect(outcomes.table + outcomes.formatError).toBe(300);
    expect(outcomes.table).toBeGreaterThan(0);
    const zero = Buffer.from(good);
    const pkgAt = zero.indexOf(Buffer.from([0x00, 0x02, 0x20, 0x01])); // package chunk (0x0200, header 288)
    zero.writeUInt32LE(0, pkgAt + 4);
    expect(ResourceTable.parse(zero).entries(resId(S, 0))).toEqual([]);
  });

  it("checks the deadline while looking up entries across many type chunks", () => {
    const types = Array.from({ length: 5000 }, (_, i) => ({
      typeId: S,
      config: { density: i + 1 },
      entries: [{ index: 0, key: "k", string: `v${i}` }],
    }));
    let armed = false;
    const table = ResourceTable.parse(buildArsc({ types }), {
      checkDeadline: () => {
        if (armed) throw new Error("deadline passed");
      },
    });
    expect(table.entries(resId(S, 0))).toHaveLength(5000);
    armed = true;
    expect(() => table.entries(resId(S, 0))).toThrow("deadline passed");
  });
});
