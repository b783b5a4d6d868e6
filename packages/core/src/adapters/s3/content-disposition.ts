/**
 * RFC 6266 Content-Disposition: a quoted ASCII `filename` every client understands, plus an
 * RFC 8187 `filename*` with the exact UTF-8 name when the name is not plain ASCII.
 */
export function contentDisposition(fileName: string, type: "attachment" | "inline" = "attachment"): string {
  const ascii = fileName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  if (ascii === fileName) return `${type}; filename="${ascii}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
