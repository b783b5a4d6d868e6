/**
 * Property lists in either form. The XML form goes to our own reader (xml-plist.ts), not the npm
 * `plist` package: that one bundles @xmldom/xmldom and xmlbuilder (~150 KB of the `complete`
 * Lambda) and xmldom prints every complaint about malformed XML to the console, which a hostile
 * upload turns into log noise.
 */
import { BinaryPlistError, isBinaryPlist, parseBinaryPlist } from "./binary-plist";
import type { PlistValue } from "./plist-value";
import { PlistParseError, parseXmlPlist } from "./xml-plist";

export { PlistParseError };

/** Either form of property list. Throws PlistParseError for anything unparseable. */
export function parsePlist(buf: Buffer, options: { maxDepth?: number } = {}): PlistValue {
  if (isBinaryPlist(buf)) {
    try {
      return parseBinaryPlist(buf, options);
    } catch (error) {
      if (error instanceof BinaryPlistError) throw new PlistParseError(error.message, { cause: error });
      throw error;
    }
  }
  return parseXmlPlist(decodeText(buf), options);
}

/** Text of a plist or .strings file: UTF-8 unless a BOM (or NUL pattern) says UTF-16. */
export function decodeText(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return buf.toString("utf16le", 2);
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    return Buffer.from(buf.subarray(2, 2 + ((buf.length - 2) & ~1))).swap16().toString("utf16le");
  }
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.toString("utf8", 3);
  // UTF-16 without BOM: ASCII text then has NULs at every other byte.
  if (buf.length >= 4 && buf.length % 2 === 0) {
    if (buf[1] === 0 && buf[3] === 0 && buf[0] !== 0) return buf.toString("utf16le");
    if (buf[0] === 0 && buf[2] === 0 && buf[1] !== 0) return Buffer.from(buf).swap16().toString("utf16le");
  }
  return buf.toString("utf8");
}
