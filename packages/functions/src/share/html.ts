/** Text for HTML element content and attribute values: every character markup could use is escaped. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"'`]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" })[c]!);

/** Text for XML (the plist): the five predefined entities; the plist's values are never attributes. */
export const escapeXml = (s: string) =>
  // Characters XML 1.0 cannot hold at all (C0 controls but tab and newlines, lone surrogates) are dropped.
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udfff]/gu, "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
