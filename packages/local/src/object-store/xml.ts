/** XML 1.0 cannot carry most control characters even escaped, so they are dropped rather than emitted as invalid XML. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;");
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
export const S3_XML_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

/** `<Name>value</Name>` with the value escaped; `undefined` values are left out, as S3 omits absent elements. */
export function xmlElement(name: string, value: string | number | boolean | undefined): string {
  if (value === undefined) return "";
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** The text of an element in a request document (a part list, a DeleteObjects list), entities decoded. */
export function unescapeXml(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (_, name: string, dec?: string, hex?: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    return { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" }[name] ?? "";
  });
}
