/**
 * XML text, the one way every document written or read by hand here is escaped and decoded: the
 * S3 request documents core sends (part lists, DeleteObjects) and the answers it reads, the local
 * object store's S3 answers and the request documents it reads, and the iOS install manifest (a
 * plist). HTML has its own helper beside this one (html.ts); XML differs in what it cannot hold.
 *
 * No parser: these documents are flat records of known elements (S3's answers, a part list), and
 * a regular expression per element reads them without a dependency or a DOM.
 */

/**
 * Characters XML 1.0 cannot hold at all, not even as a character reference: C0 controls but tab,
 * LF and CR, U+FFFE and U+FFFF, and unpaired surrogates (the `u` flag makes the last class match
 * only those). Object keys never contain them (FileName refuses control characters and unpaired
 * surrogates), so dropping them changes only text such as an app's name in a manifest.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#13;" };

/**
 * Text for an element or an attribute: the five predefined entities, and CR as a reference (a
 * literal CR would reach the reader as LF); characters XML cannot hold are dropped rather than
 * written as a document no parser accepts.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"'\r]/g, (c) => ESCAPES[c]!);
}

/** The declaration every document starts with. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** `<Name>value</Name>` with the value escaped; `undefined` is left out, as S3 omits absent elements. */
export function xmlElement(name: string, value: string | number | boolean | undefined): string {
  if (value === undefined) return "";
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

const NAMED: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" };

/** An element's text with its entities and character references decoded. */
export function unescapeXml(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (_, name: string, dec?: string, hex?: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    return NAMED[name] ?? "";
  });
}

/**
 * The text of the first `<name>` leaf element in `xml` (S3's documents are flat records), decoded;
 * undefined when absent. Text only: an element holding markup is not a leaf and is not matched.
 */
export function xmlText(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  return m ? unescapeXml(m[1]!) : undefined;
}

/** Every `<name>…</name>` record of a list (`Part`, `Version`, `DeleteMarker`, `Object`), as XML. */
export function xmlRecords(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, "g"))].map((m) => m[1]!);
}

/** The namespace of S3's documents, the answers the local object store writes and the requests core sends. */
export const S3_XML_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";
