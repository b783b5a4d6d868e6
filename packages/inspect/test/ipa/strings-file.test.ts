import bplistCreator from "bplist-creator";
import plist from "plist";
import { describe, expect, it } from "vitest";
import { parseOldStyleStrings, parseStringsFile, StringsFileError } from "../../src/ipa/strings-file";

describe("InfoPlist.strings", () => {
  it("parses the old-style syntax with comments, escapes and unquoted keys", () => {
    const source = [
      "/* multi",
      "   line */",
      '"CFBundleDisplayName" = "Say \\"hi\\"\\n";',
      "// line comment",
      'CFBundleName = "\\U00e9t\\u00e9";',
      '"octal" = "\\101";',
      '"same";',
    ].join("\n");
    expect(Object.fromEntries(parseOldStyleStrings(source))).toEqual({
      CFBundleDisplayName: 'Say "hi"\n',
      CFBundleName: "été",
      octal: "A",
      same: "same",
    });
  });

  it("accepts an enclosing { } dictionary", () => {
    expect(parseOldStyleStrings('{ a = "b"; }').get("a")).toBe("b");
  });

  it("decodes UTF-8, UTF-16 LE/BE with BOM and UTF-16 LE without BOM", () => {
    const text = '"CFBundleDisplayName" = "火箭 🚀";';
    const le = Buffer.from(text, "utf16le");
    const forms = [
      Buffer.from(text, "utf8"),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), le]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]),
      le,
    ];
    for (const form of forms) expect(parseStringsFile(form).get("CFBundleDisplayName")).toBe("火箭 🚀");
  });

  it("reads binary and XML plist forms", () => {
    expect(parseStringsFile(bplistCreator({ CFBundleDisplayName: "Bin" })).get("CFBundleDisplayName")).toBe("Bin");
    expect(parseStringsFile(Buffer.from(plist.build({ CFBundleDisplayName: "Xml" }))).get("CFBundleDisplayName")).toBe("Xml");
  });

  it("throws StringsFileError on malformed text", () => {
    for (const bad of ['"a" = "b"', '"a" "b";', '"a = "b";', "/* open", '"a" = "\\U";']) {
      expect(() => parseOldStyleStrings(bad)).toThrow(StringsFileError);
    }
  });
});
