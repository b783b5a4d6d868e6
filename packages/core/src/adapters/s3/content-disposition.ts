/** Longer names are cut (keeping the extension): a header has to stay well under any proxy's limit. */
const MAX_NAME_CODE_POINTS = 255;
const MAX_EXTENSION = 16;

/**
 * What no header should carry even percent-encoded: unpaired surrogates (no UTF-8 form exists,
 * encodeURIComponent throws on them), controls, and invisible or bidirectional format
 * characters that make a save dialog show another name. Presign refuses all of them; records
 * made before it did may still hold them.
 */
const UNSAFE = /[\ud800-\udfff]|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** At most MAX_NAME_CODE_POINTS code points, the extension kept (never a half surrogate pair). */
function cut(name: string): string {
  const codePoints = [...name];
  if (codePoints.length <= MAX_NAME_CODE_POINTS) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot >= 0 && name.length - dot <= MAX_EXTENSION ? [...name.slice(dot)] : [];
  return [...codePoints.slice(0, MAX_NAME_CODE_POINTS - ext.length), ...ext].join("");
}

/**
 * RFC 6266 Content-Disposition: a quoted ASCII `filename` every client understands, plus an
 * RFC 8187 `filename*` with the exact UTF-8 name when the name is not plain ASCII. Total: any
 * string gives a valid header value, never an exception (a throw here is a 500 on every download).
 */
export function contentDisposition(fileName: string, type: "attachment" | "inline" = "attachment"): string {
  const name = cut(fileName.replace(UNSAFE, "_"));
  // NFKD can expand a character many times (U+FDFA gives 18): cut again after it.
  const ascii = cut(name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_"));
  if (ascii === name) return `${type}; filename="${ascii}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
