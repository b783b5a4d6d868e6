import { describe, expect, it } from "vitest";
import { escapeXml, unescapeXml, xmlElement, xmlRecords, xmlText } from "../../src/html/xml";

describe("XML text (one helper for S3 documents, the local store and the install manifest)", () => {
  it("escapes the five predefined characters and CR, and decodes them back", () => {
    const text = `a&b <c> "d" 'e'\r\nf`;
    const escaped = escapeXml(text);
    expect(escaped).toBe("a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;&#13;\nf");
    expect(unescapeXml(escaped)).toBe(text);
  });

  it("drops what XML 1.0 cannot hold (C0 controls, U+FFFE/U+FFFF, unpaired surrogates) and keeps tab, newline and astral characters", () => {
    expect(escapeXml("a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFFg\uD800h\uDC00i")).toBe("abcdefghi");
    expect(escapeXml("tab\there\nnew line 🚀 ünïcödé")).toBe("tab\there\nnew line 🚀 ünïcödé");
  });

  it("decodes decimal and hexadecimal references, and leaves unknown entities as written", () => {
    expect(unescapeXml("&#65;&#x42;&#x1F680;&nbsp;")).toBe("AB🚀&nbsp;");
  });

  it("reads S3's flat records: the first element's decoded text, every record of a list", () => {
    const answer = "<R><Key>a&amp;b</Key><Version><Key>k1</Key></Version><Version><Key>k2</Key></Version></R>";
    expect(xmlText(answer, "Key")).toBe("a&b");
    expect(xmlText(answer, "Missing")).toBeUndefined();
    // A leaf's text only: an element that holds markup is not read as text.
    expect(xmlText("<Object><Key>a<b/></Key></Object>", "Key")).toBeUndefined();
    expect(xmlRecords(answer, "Version").map((v) => xmlText(v, "Key"))).toEqual(["k1", "k2"]);
  });

  it("writes an element with its value escaped, and nothing for an absent value", () => {
    expect(xmlElement("ETag", '"abc"')).toBe("<ETag>&quot;abc&quot;</ETag>");
    expect(xmlElement("PartNumber", 3)).toBe("<PartNumber>3</PartNumber>");
    expect(xmlElement("ChecksumCRC32", undefined)).toBe("");
  });
});
