import type { SharedFile } from "@hangar/core";
import { formatBytes } from "@hangar/inspect/format";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A plain, dependency-free page: everything user-controlled (names from the package) is escaped. */
export function renderSharePage(file: SharedFile, links: { download: string; icon?: string }): string {
  const m = file.metadata;
  const platform = m.platform === "ios" ? "iOS" : m.platform === "android" ? "Android" : "";
  const rows: [string, string][] = [
    ["Version", m.buildNumber ? `${m.version} (${m.buildNumber})` : m.version],
    ["Bundle ID", m.bundleId],
    ["Platform", platform],
    ["Minimum OS", m.minOs ?? ""],
    ["Size", formatBytes(file.fileSize)],
    ["File", file.fileName],
    ["Uploaded", file.completedAt],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(m.appName)} ${escapeHtml(m.version)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
header{display:flex;gap:1rem;align-items:center}img{width:72px;height:72px;border-radius:16px}
h1{font-size:1.5rem;margin:0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}
dt{color:#57606a}dd{margin:0;word-break:break-all}
a.download{display:inline-block;margin-top:1.5rem;padding:.75rem 1.5rem;background:#0969da;color:#fff;border-radius:8px;text-decoration:none}
</style>
</head>
<body>
<header>${links.icon ? `<img src="${escapeHtml(links.icon)}" alt="">` : ""}<h1>${escapeHtml(m.appName)}</h1></header>
<dl>
${rows
  .filter(([, v]) => v)
  .map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`)
  .join("\n")}
</dl>
<a class="download" href="${escapeHtml(links.download)}">Download</a>
</body>
</html>
`;
}
