import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import plist from "plist";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MockInstance } from "vitest";
import { createInspectContext, FileRangeReader, openZip } from "../../src";
import { isBinaryPlist } from "../../src/ipa/binary-plist";
import { extractProvisioningPlist } from "../../src/ipa/mobileprovision";
import { decodeText, parsePlist, PlistParseError as PlistModuleError } from "../../src/ipa/plist";
import type { PlistValue } from "../../src/ipa/plist-value";
import { parseXmlPlist, PlistParseError } from "../../src/ipa/xml-plist";
import { prng } from "../../fixtures/prng";

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/ipa");

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n';
const doc = (body: string) => `${HEAD}<plist version="1.0">${body}</plist>`;
const parse = (body: string) => parseXmlPlist(doc(body));

// Text xmlbuilder accepts and xmldom reads back unchanged: no C0 controls but tab/LF/CR (XML 1.0
// forbids them), and no U+0085/U+2028/U+2029, which xmldom rewrites to "\n" (tested below).
const PIECES = [
  "a", "Z", "0", "9", " ", "  ", "\t", "\n", "\r\n", "\r", "&", "<", ">", '"', "'", "&amp;", "&#65;",
  "]]>", "<!--", "-->", "<?x?>", "é", "ß", "€", "火箭", "🚀", "👩‍💻", "صاروخ", "רקטה", "\u200f", "\u202e",
  "\u0301", "\x7f", "\x80", "\x9f", "\ufffd", "\u{10ffff}", "CFBundleName",
];
// Not "__proto__" (plist.parse throws on it), "toString"/"valueOf" (plist.parse throws on a nested
// dict holding them; both tested separately) nor "hasOwnProperty" (breaks plist.build).
const KEYS = ["", "constructor", "prototype", "1", "CFBundleIdentifier", " spaced ", "a.b-c_d"];

function generate(random: () => number): PlistValue {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const text = () => Array.from({ length: int(8) }, () => pick(PIECES)).join("");
  const scalar = (): PlistValue => {
    switch (int(9)) {
      case 0:
        return text();
      case 1:
        return pick([0, 1, -1, 42, -7, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, 2 ** 60, -(2 ** 62), int(1e9) - 5e8]);
      case 2:
        return pick([2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n + 1n, BigInt(int(1e9))]);
      case 3:
        return pick([0.5, -1.25, 1e-300, 1e300, 6.02e23, NaN, Infinity, -Infinity, (random() - 0.5) * 10 ** (int(40) - 20)]);
      case 4:
        return new Date(int(4e12) - 1e12);
      case 5:
        return Buffer.from(Array.from({ length: int(48) }, () => int(256)));
      case 6:
        return random() < 0.5;
      case 7:
        return null;
      default:
        return "";
    }
  };
  const value = (depth: number): PlistValue => {
    const roll = random();
    if (depth < 5 && roll < 0.25) {
      const dict: Record<string, PlistValue> = {};
      for (let i = int(6); i > 0; i--) dict[random() < 0.3 ? pick(KEYS) : text()] = value(depth + 1);
      return dict as PlistValue;
    }
    if (depth < 5 && roll < 0.4) return Array.from({ length: int(6) }, () => value(depth + 1)) as PlistValue;
    return scalar();
  };
  if (random() < 0.1) return value(1);
  const root: Record<string, PlistValue> = {};
  for (let i = int(10); i > 0; i--) root[random() < 0.3 ? pick(KEYS) : text()] = value(1);
  return root as PlistValue;
}

const build = (value: PlistValue, pretty: boolean) => plist.build(value as plist.PlistValue, { pretty });

/** plist.parse, with xmldom's console chatter (e.g. a warning for every U+FFFD) muted. */
function reference(xml: string): unknown {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    return plist.parse(xml);
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
}

/** The XML plists inside the committed IPA fixtures: Info.plist, XML .strings, mobileprovision. */
async function fixturePlists(): Promise<Array<{ name: string; text: string }>> {
  const found: Array<{ name: string; text: string }> = [];
  for (const file of (await readdir(fixturesDir)).filter((f) => f.endsWith(".ipa"))) {
    const reader = await FileRangeReader.open(join(fixturesDir, file));
    try {
      const zip = await openZip(reader, createInspectContext());
      for (const name of zip.entries.keys()) {
        if (!/(\.plist|\.strings|\.mobileprovision)$/.test(name)) continue;
        let bytes = await zip.read(name);
        if (name.endsWith(".mobileprovision")) bytes = extractProvisioningPlist(bytes);
        if (isBinaryPlist(bytes)) continue;
        const text = decodeText(bytes);
        if (/^\s*(<\?xml|<!DOCTYPE|<plist)/.test(text)) found.push({ name: `${file}:${name}`, text });
      }
    } finally {
      await reader.close();
    }
  }
  return found;
}

describe("parseXmlPlist parity with plist.parse", () => {
  it("gives the same values for every XML plist in the committed IPA fixtures", async () => {
    const plists = await fixturePlists();
    // Info.plists, nested bundles, XML InfoPlist.strings and four provisioning profiles at least.
    expect(plists.length).toBeGreaterThanOrEqual(10);
    for (const { name, text } of plists) {
      expect(parseXmlPlist(text), name).toEqual(reference(text));
    }
  });

  it("gives the same values for 400 generated plists (seeded)", () => {
    const random = prng(0x9e3779b9);
    let dicts = 0;
    for (let i = 0; i < 400; i++) {
      const xml = build(generate(random), i % 3 !== 0);
      const expected = reference(xml);
      const actual = parseXmlPlist(xml);
      expect(actual, xml).toEqual(expected);
      if (actual !== null && typeof actual === "object" && !Array.isArray(actual)) dicts++;
    }
    // The generator really produced documents with content, not 400 trivial ones.
    expect(dicts).toBeGreaterThan(300);
  });

  it("maps every value type as plist.parse does", () => {
    const xml = doc(
      "<dict>" +
        "<key>int</key><integer>-42</integer>" +
        "<key>big</key><integer>9223372036854775807</integer>" +
        "<key>padded</key><integer> 12 </integer>" +
        "<key>junk</key><integer>abc</integer>" +
        "<key>real</key><real>-1.5e3</real>" +
        "<key>whole</key><real>2</real>" +
        "<key>date</key><date>2026-03-01T12:00:00Z</date>" +
        "<key>baddate</key><date>not a date</date>" +
        "<key>data</key><data>\n\taGVs\n\tbG8=\n</data>" +
        "<key>nodata</key><data/>" +
        "<key>yes</key><true/><key>no</key><false/>" +
        "<key>empty</key><string/><key>emptier</key><string></string>" +
        "<key>dict</key><dict/><key>array</key><array/>" +
        "<key>nothing</key><null/>" +
        "<key>nulls</key><array><null/><string>kept</string><null/></array>" +
        "<key>dup</key><string>first</string><key>dup</key><string>last</string>" +
        "<key>orphan</key>" +
        "</dict>",
    );
    const value = parseXmlPlist(xml) as Record<string, PlistValue>;
    expect(value).toEqual(plist.parse(xml));
    expect(value.int).toBe(-42);
    expect(value.big).toBe(2 ** 63); // parseInt: a number, rounded
    expect(value.padded).toBe(12);
    expect(value.junk).toBeNaN();
    expect(value.real).toBe(-1500);
    expect(value.whole).toBe(2);
    expect(value.date).toEqual(new Date("2026-03-01T12:00:00.000Z"));
    expect(Number.isNaN((value.baddate as Date).getTime())).toBe(true);
    expect(value.data).toEqual(Buffer.from("hello"));
    expect(Buffer.isBuffer(value.nodata) && value.nodata.length).toBe(0);
    expect([value.yes, value.no, value.empty, value.emptier, value.nothing]).toEqual([true, false, "", "", null]);
    expect([value.dict, value.array, value.nulls]).toEqual([{}, [], ["kept"]]);
    expect(value.dup).toBe("last");
    expect(value.orphan).toBe("");
  });

  it("returns a <plist> holding zero or several values as an array, one value as itself", () => {
    for (const body of ["", "  ", "<string>a</string>", "<string>a</string><integer>1</integer>", "<null/>", "<key>k</key>"]) {
      expect(parse(body)).toEqual(plist.parse(doc(body)));
    }
    expect(parseXmlPlist("<plist/>")).toEqual([]);
    expect(parse("<string>a</string><integer>1</integer>")).toEqual(["a", 1]);
  });
});

describe("parseXmlPlist XML syntax", () => {
  it("skips the XML declaration, DOCTYPE with or without internal subset, comments and PIs", () => {
    const subset =
      '<!DOCTYPE plist [\n  <!ENTITY e "]>">\n  <!-- ] > -->\n  <?pi ]>?>\n  <!ELEMENT plist ANY>\n  <!ATTLIST x y CDATA \'>]\'>\n]>';
    const texts = [
      '<?xml version="1.0"?><plist><string>v</string></plist>',
      "\ufeff<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\n<plist><string>v</string></plist>",
      `${HEAD}<plist version="1.0"><string>v</string></plist>\n`,
      `<?xml version="1.0"?>\n${subset}\n<plist><string>v</string></plist>`,
      "<!DOCTYPE plist><plist><string>v</string></plist>",
      "<!-- a -- comment --><?pi x?><plist><!-- c --><?pi?><string>v</string><!-- d --></plist><!-- e --><?pi?>\n",
      '<plist version="1.0" xmlns:x = \'urn:x\' ><string id="1">v</string></plist>',
      "<plist >\n\t<string\n>v</string\n>\r\n</plist >",
    ];
    for (const text of texts) expect(parseXmlPlist(text), text).toBe("v");
  });

  it("reads CDATA sections as text and ignores comments inside values", () => {
    expect(parse("<string>a<![CDATA[<b> & &amp; ]]]>c<!-- x -->d</string>")).toBe("a<b> & &amp; ]cd");
    expect(parse("<dict><key><![CDATA[k&]]></key><string/></dict>")).toEqual({ "k&": "" });
    expect(parse("<array><![CDATA[ \n ]]><string>x</string></array>")).toEqual(["x"]);
  });

  it("decodes the predefined entities and decimal and hex character references", () => {
    expect(parse("<string>&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&#x43;</string>")).toBe("&<>\"'ABC");
    expect(parse("<string>&#x1F680;&#128640;&#xe9;&#1;&#x9;&#0000065;</string>")).toBe("🚀🚀é\u0001\tA");
    expect(parse("<dict><key>a&amp;b</key><string>&#x10FFFF;</string></dict>")).toEqual({ "a&b": "\u{10ffff}" });
  });

  it("normalizes CRLF and CR to LF as XML 1.0 says, but keeps U+0085, U+2028, U+2029 and &#13;", () => {
    expect(parse("<string>a\r\nb\rc\nd&#13;e&#xD;&#10;</string>")).toBe("a\nb\nc\nd\re\r\n");
    expect(parse("<string><![CDATA[a\r\nb\rc]]></string>")).toBe("a\nb\nc");
    // xmldom applies XML 1.1 line-end rules and would return "a\nb\nc\nd".
    expect(parse("<string>a\u0085b\u2028c\u2029d</string>")).toBe("a\u0085b\u2028c\u2029d");
  });

  it("keeps whitespace inside strings and keys, and accepts every self-closing form", () => {
    expect(parse("<dict>\n  <key> k </key>\n  <string>\t v \n</string>\n</dict>")).toEqual({ " k ": "\t v \n" });
    expect(parse("<array><string/><key/><dict/><array/><data/><true/><false/><null/></array>")).toEqual([
      "",
      "",
      {},
      [],
      Buffer.alloc(0),
      true,
      false,
    ]);
    expect(parse("<dict><key/><true /></dict>")).toEqual({ "": true });
  });

  it("reads what parsePlist hands it, in UTF-8 or UTF-16, with the same error class", () => {
    const xml = doc("<dict><key>n</key><string>Ünï 🚀</string></dict>");
    expect(parsePlist(Buffer.from(xml))).toEqual({ n: "Ünï 🚀" });
    expect(parsePlist(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(xml, "utf16le").swap16()]))).toEqual({
      n: "Ünï 🚀",
    });
    expect(PlistModuleError).toBe(PlistParseError);
    expect(() => parsePlist(Buffer.from("<plist><dict>"))).toThrow(PlistParseError);
  });
});

describe("parseXmlPlist safety", () => {
  it("keeps __proto__ and constructor keys as plain entries without touching any prototype", () => {
    const value = parse(
      "<dict><key>__proto__</key><dict><key>polluted</key><true/></dict>" +
        "<key>constructor</key><dict><key>prototype</key><dict><key>polluted</key><true/></dict></dict>" +
        "<key>toString</key><string>x</string></dict>",
    ) as Record<string, PlistValue>;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(["__proto__", "constructor", "toString"]);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
    expect(value.toString).toBe("x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    // plist.parse refuses the key outright; we read it as data.
    expect(() => plist.parse(doc("<dict><key>__proto__</key><true/></dict>"))).toThrow();
    // plist.parse stringifies every dict value for an error message it may not need, which throws here.
    const nested = doc("<dict><key>d</key><dict><key>toString</key><true/><key>valueOf</key><true/></dict></dict>");
    expect(() => plist.parse(nested)).toThrow(TypeError);
    expect(parseXmlPlist(nested)).toEqual({ d: { toString: true, valueOf: true } });
  });

  it("bounds nesting at maxDepth (64 by default) and never overflows the JS stack", () => {
    const nested = (n: number, inner = "") => "<array>".repeat(n) + inner + "</array>".repeat(n);
    expect(parse(nested(3))).toEqual([[[]]]);
    expect(parseXmlPlist(doc(nested(3)), { maxDepth: 3 })).toEqual([[[]]]);
    expect(() => parseXmlPlist(doc(nested(4)), { maxDepth: 3 })).toThrow(/nesting deeper than 3/);
    expect(() => parseXmlPlist(doc(nested(3, "<dict/>")), { maxDepth: 3 })).toThrow(PlistParseError);
    expect(() => parseXmlPlist(doc("<dict/>"), { maxDepth: 0 })).toThrow(PlistParseError);
    expect(parseXmlPlist(doc("<string>flat</string>"), { maxDepth: 0 })).toBe("flat");
    expect(() => parse(nested(64))).not.toThrow();
    expect(() => parse(nested(65))).toThrow(PlistParseError);
    const dicts = (n: number) => "<dict><key>k</key>".repeat(n) + "<true/>" + "</dict>".repeat(n);
    expect(() => parse(dicts(64))).not.toThrow();
    expect(() => parse(dicts(65))).toThrow(PlistParseError);

    let deep = parseXmlPlist(doc(nested(50_000)), { maxDepth: Infinity });
    let depth = 0;
    while (Array.isArray(deep) && deep.length === 1) {
      deep = deep[0]!;
      depth++;
    }
    expect(depth).toBe(49_999);
  });

  describe("throws PlistParseError, and prints nothing, for malformed input", () => {
    const spies: MockInstance[] = [];
    beforeEach(() => {
      for (const method of ["log", "info", "warn", "error", "debug"] as const) {
        spies.push(vi.spyOn(console, method).mockImplementation(() => undefined));
      }
    });
    afterEach(() => {
      for (const spy of spies) {
        expect(spy).not.toHaveBeenCalled();
        spy.mockRestore();
      }
      spies.length = 0;
    });

    it.each([
      ["empty input", ""],
      ["only a declaration", '<?xml version="1.0"?>'],
      ["not XML", "CFBundleName = Demo;"],
      ["text before the root", "x<plist/>"],
      ["a bare root value", "<string>bare</string>"],
      ["a root of another case", "<PLIST><true/></PLIST>"],
      ["mismatched tags", "<plist><string>x</strin></plist>"],
      ["crossed tags", "<plist><dict><key>a</key><string>x</dict></string></plist>"],
      ["an unclosed key", "<?xml version='1.0'?><plist><dict><key></plist>"],
      ["an unknown element", "<plist><foo/></plist>"],
      ["an unknown element in a dict", "<plist><dict><key>a</key><integr>1</integr></dict></plist>"],
      ["an element inside a string", "<plist><string>a<b/>c</string></plist>"],
      ["an element inside true", "<plist><true><false/></true></plist>"],
      ["a stray < in text", "<plist><string>a < b</string></plist>"],
      ["text in plist", "<plist>text<string>a</string></plist>"],
      ["text in a dict", "<plist><dict>k<key>a</key><true/></dict></plist>"],
      ["text in an array", "<plist><array>x</array></plist>"],
      ["an entity in an array", "<plist><array>&amp;</array></plist>"],
      ["CDATA text in an array", "<plist><array><![CDATA[x]]></array></plist>"],
      ["a value without a key", "<plist><dict><string>a</string></dict></plist>"],
      ["two keys in a row", "<plist><dict><key>a</key><key>b</key><true/></dict></plist>"],
      ["an unknown entity", "<plist><string>a&nbsp;b</string></plist>"],
      ["an entity declared in the DOCTYPE", '<!DOCTYPE plist [<!ENTITY e "x">]><plist><string>&e;</string></plist>'],
      ["a bare ampersand", "<plist><string>a & b</string></plist>"],
      ["a reference without ;", "<plist><string>&#65</string></plist>"],
      ["a very long reference", "<plist><string>&#x00000000000041;</string></plist>"],
      ["&#0;", "<plist><string>&#0;</string></plist>"],
      ["a lone surrogate", "<plist><string>&#xD800;</string></plist>"],
      ["a low surrogate", "<plist><string>&#57343;</string></plist>"],
      ["a code point past U+10FFFF", "<plist><string>&#x110000;</string></plist>"],
      ["a huge decimal reference", "<plist><string>&#99999999999;</string></plist>"],
      ["an empty reference", "<plist><string>&#;&#x;</string></plist>"],
      ["an uppercase hex marker", "<plist><string>&#X41;</string></plist>"],
      ["an empty integer", "<plist><integer></integer></plist>"],
      ["an empty real", "<plist><real/></plist>"],
      ["an empty date", "<plist><date></date></plist>"],
      ["an unterminated comment", "<plist><!-- never closed </plist>"],
      ["an unterminated CDATA", "<plist><string><![CDATA[x</string></plist>"],
      ["an unterminated PI", "<?xml version='1.0'<plist/>"],
      ["an unterminated DOCTYPE", '<!DOCTYPE plist [<!ENTITY e "x">'],
      ["a DOCTYPE with an open quote", '<!DOCTYPE plist PUBLIC "-//Apple><plist/>'],
      ["two DOCTYPEs", "<!DOCTYPE plist><!DOCTYPE plist><plist/>"],
      ["an unterminated start tag", "<plist version='1.0'"],
      ["an unterminated end tag", "<plist><true/></plist"],
      ["an unquoted attribute", "<plist version=1.0><true/></plist>"],
      ["an attribute without value", "<plist version><true/></plist>"],
      ["an unterminated attribute", "<plist version='1.0><true/></plist>"],
      ["< inside an attribute", "<plist version='<'><true/></plist>"],
      ["attributes without space", "<plist a='1'b='2'><true/></plist>"],
      ["a broken self-closing tag", "<plist><true/ ></plist>"],
      ["an empty tag name", "<plist><></plist>"],
      ["a space after <", "<plist>< true/></plist>"],
      ["a missing </plist>", "<plist><dict><key>a</key><string>x</string></dict>"],
      ["content after </plist>", "<plist><true/></plist>junk"],
      ["a second root", "<plist><true/></plist><plist><true/></plist>"],
      ["a DOCTYPE after the root", "<plist><true/></plist><!DOCTYPE plist>"],
      ["markup declarations in content", "<plist><!ELEMENT x ANY><true/></plist>"],
    ])("%s", (_label, text) => {
      expect(() => parseXmlPlist(text)).toThrow(PlistParseError);
    });

    it("every truncation of a real document", () => {
      const xml = build(
        {
          CFBundleIdentifier: "com.example.app",
          CFBundleDisplayName: "Démo & <Appli> 🚀",
          CFBundleIcons: { CFBundlePrimaryIcon: { CFBundleIconFiles: ["AppIcon60x60"] } },
          UIRequiredDeviceCapabilities: ["arm64"],
          Build: 142,
          Ratio: 1.5,
          Created: new Date("2026-01-02T03:04:05Z"),
          Blob: Buffer.from("hangar"),
          Yes: true,
        },
        true,
      );
      const end = xml.lastIndexOf("</plist>") + "</plist>".length;
      let failures = 0;
      for (let length = 0; length < end; length++) {
        try {
          parseXmlPlist(xml.slice(0, length));
        } catch (error) {
          expect(error).toBeInstanceOf(PlistParseError);
          failures++;
        }
      }
      expect(failures).toBe(end);
      expect(parseXmlPlist(xml.slice(0, end))).toEqual(plist.parse(xml));
    });

    it("hostile repetitions fail fast with a bounded message", () => {
      const hostile = [
        `<plist><string>${"&".repeat(100_000)}</string></plist>`,
        `<plist><string>${"&#x1;".repeat(100_000)}&bogus;</string></plist>`,
        `<plist>${"<!--".repeat(100_000)}`,
        `<plist>${"<array>".repeat(100_000)}`,
        `<plist>${"<![CDATA[".repeat(100_000)}`,
        `<!DOCTYPE plist [${"'".repeat(100_001)}]><plist/>`,
        `<plist><dict>${"<key>k</key><true/>".repeat(100_000)}`,
        `<plist ${"a='1' ".repeat(100_000)}`,
      ];
      for (const text of hostile) {
        let message = "";
        try {
          parseXmlPlist(text);
        } catch (error) {
          expect(error).toBeInstanceOf(PlistParseError);
          message = (error as Error).message;
        }
        expect(message).toMatch(/^XML plist: /);
        expect(message.length).toBeLessThan(200);
      }
    });
  });
});
