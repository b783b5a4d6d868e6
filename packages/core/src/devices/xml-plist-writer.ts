/**
 * The XML property list of the enroll profile, written as npm `plist`'s `build` writes it (same
 * header, DOCTYPE and two-space indentation; the tests compare the two byte for byte). The profile
 * holds strings, integers, booleans, arrays and dictionaries only, so this is a dozen lines rather
 * than `plist`, whose XML builder and DOM parser (xmlbuilder, @xmldom/xmldom: 160 KB minified) sat
 * in the devices function's bundle for it. The device's answer is read by inspect's plist scanner.
 */
export type PlistWritable = string | number | boolean | readonly PlistWritable[] | { readonly [key: string]: PlistWritable };

const HEADER = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
  '<plist version="1.0">',
];

/** Character data as xmlbuilder escapes it. */
const text = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");

function lines(value: PlistWritable, indent: string, out: string[]): void {
  if (typeof value === "string") out.push(`${indent}<string>${text(value)}</string>`);
  else if (typeof value === "boolean") out.push(`${indent}<${value}/>`);
  else if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("a plist number must be finite");
    out.push(Number.isInteger(value) ? `${indent}<integer>${value}</integer>` : `${indent}<real>${value}</real>`);
  } else if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(`${indent}<array/>`);
    out.push(`${indent}<array>`);
    for (const item of value as readonly PlistWritable[]) lines(item, `${indent}  `, out);
    out.push(`${indent}</array>`);
  } else {
    const entries = Object.entries(value as { readonly [key: string]: PlistWritable });
    if (entries.length === 0) return void out.push(`${indent}<dict/>`);
    out.push(`${indent}<dict>`);
    for (const [key, item] of entries) {
      out.push(`${indent}  <key>${text(key)}</key>`);
      lines(item, `${indent}  `, out);
    }
    out.push(`${indent}</dict>`);
  }
}

export function buildXmlPlist(value: PlistWritable): string {
  const out = [...HEADER];
  lines(value, "  ", out);
  out.push("</plist>");
  return out.join("\n");
}
