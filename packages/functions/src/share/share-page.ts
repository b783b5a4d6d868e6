import { createHash } from "node:crypto";
import type { SharedFile } from "@hangar/core";
import { html, raw, type SafeHtml } from "@hangar/core/html";
import type { InstallAction, InstallNotice, SharePage } from "@hangar/core/links";
import { INSTALL_BLOCKER_TEXT } from "@hangar/core/installability";
import { formatBytes } from "@hangar/inspect/format";
import { guidanceCard } from "./install-help";

/**
 * The one stylesheet of every share page, inline and allowed by its hash in the CSP, so the page
 * is one request and the policy still refuses every other style and all script. Light and dark
 * (testers open links at night) by `prefers-color-scheme`, through the custom properties only;
 * the QR code keeps its white ground in both, as cameras read dark modules on light.
 */
const STYLE = `
:root{color-scheme:light dark;--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#f6f8fa;--card:#fff;--accent:#0a58ca;--accent-ink:#fff;--warn-bg:#fff8c5;--warn-line:#d4a72c;--focus:#0969da;--field:#6e7781;--err:#a40e26;--ok-bg:#dafbe1;--ok-line:#1a7f37;--no-bg:#ffebe9;--no-line:#cf222e}
@media (prefers-color-scheme:dark){:root{--ink:#e6edf3;--muted:#9da7b3;--line:#30363d;--bg:#0d1117;--card:#161b22;--accent:#58a6ff;--accent-ink:#0d1117;--warn-bg:#2b2111;--warn-line:#9e6a03;--focus:#58a6ff;--field:#8b949e;--err:#ff7b72;--ok-bg:#0f2a1a;--ok-line:#3fb950;--no-bg:#2d1214;--no-line:#f85149}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:44rem;margin:0 auto;padding:1.25rem 1rem 2.5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:16px;padding:1.25rem;margin-bottom:1rem}
.app{display:flex;gap:1rem;align-items:center}
.app img,.app .placeholder{width:72px;height:72px;border-radius:16px;flex:none;border:1px solid var(--line);background:var(--bg)}
h1{font-size:1.45rem;line-height:1.25;margin:0;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:0 0 .75rem}
.sub{margin:.15rem 0 0;color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}
.button{display:inline-flex;align-items:center;justify-content:center;min-height:48px;padding:.7rem 1.4rem;border-radius:10px;font-weight:600;text-decoration:none;border:2px solid var(--accent)}
.button.primary{background:var(--accent);color:var(--accent-ink)}
.button.secondary{background:var(--card);color:var(--accent)}
.button:focus-visible,input:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.notice{margin-top:1rem;padding:.75rem 1rem;border-radius:10px;background:var(--warn-bg);border:1px solid var(--warn-line)}
.notice p{margin:0}.notice p+p{margin-top:.4rem}
.qr{display:flex;gap:1.25rem;align-items:center;flex-wrap:wrap}
.qr svg{width:176px;height:176px;flex:none;border-radius:8px}
.qr p{margin:0;color:var(--muted);max-width:22rem}
dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.45rem 1rem;margin:0}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.notes{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font:inherit}
form{display:grid;gap:.6rem;max-width:22rem;margin-top:1rem}
label{font-weight:600}
input[type=password]{font:inherit;padding:.6rem .75rem;border:1px solid var(--field);border-radius:8px;min-height:48px;color:var(--ink);background:var(--card)}
button{font:inherit;cursor:pointer}
.error{color:var(--err);margin:0}
footer{text-align:center;color:var(--muted);font-size:.875rem}
.newer{margin-top:1rem;padding:.75rem 1rem;border-radius:10px;border:1px solid var(--accent)}
.newer p{margin:0}
h3{font-size:1rem;margin:1rem 0 .4rem}
.builds{list-style:none;margin:0;padding:0}
.builds li{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 0;border-top:1px solid var(--line)}
.builds li:first-child{border-top:0;padding-top:0}
.builds .button{min-height:44px;padding:.5rem 1rem}
.verdict{margin-top:1rem;padding:.75rem 1rem;border-radius:10px;border:1px solid var(--line);border-left-width:6px}
.verdict p{margin:0}.verdict p+p{margin-top:.5rem}
.verdict.ok{background:var(--ok-bg);border-color:var(--ok-line)}
.verdict.no{background:var(--no-bg);border-color:var(--no-line)}
.verdict.ask{border-color:var(--accent)}
.udid{display:flex;flex-wrap:wrap;gap:.4rem .6rem;align-items:center}
.udid code{font:600 .95rem/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere;user-select:all;-webkit-user-select:all}
.button.small{min-height:44px;padding:.4rem .9rem}
details{margin-top:.6rem}details p{margin:.4rem 0 0}
summary{cursor:pointer;font-weight:600;min-height:44px;display:list-item;padding:.6rem 0}
summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.help details{border-top:1px solid var(--line);margin:0}.help details:first-of-type{border-top:0}
@media (max-width:30rem){main{padding:.75rem .75rem 2rem}.card{padding:1rem}.actions .button,.builds .button{flex:1 1 100%}.qr svg{width:150px;height:150px}dl{grid-template-columns:auto 1fr;gap:.4rem .75rem}}
`.trim();

export const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`;

/**
 * Every share page's policy: the one style by hash, images from us and the signed store, and no
 * script, except the constant scripts a page names by hash (the UDID's Copy button, install-help.ts).
 */
export function pageCsp(imageOrigins: string[] = [], scriptHashes: string[] = []): string {
  const img = ["'self'", "data:", ...new Set(imageOrigins)].join(" ");
  const script = scriptHashes.length > 0 ? `; script-src ${[...new Set(scriptHashes)].join(" ")}` : "";
  return `default-src 'none'; img-src ${img}; style-src ${STYLE_HASH}${script}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
}

export interface Frame {
  title: string;
  /** Open Graph / Twitter card (omitted on protected, gone and unknown links). */
  card?: { title: string; description: string; url: string; image?: string | undefined };
  body: SafeHtml;
}

/** The document around every share and app page (head, the one stylesheet, footer); the build mail's unsubscribe page uses it too. */
export function frame({ title, card, body }: Frame): string {
  const meta = card
    ? html`<meta property="og:type" content="website">
<meta property="og:title" content="${card.title}">
<meta property="og:description" content="${card.description}">
<meta property="og:url" content="${card.url}">
${card.image && html`<meta property="og:image" content="${card.image}">
`}<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${card.title}">
<meta name="twitter:description" content="${card.description}">
${card.image && html`<meta name="twitter:image" content="${card.image}">
`}<meta name="description" content="${card.description}">`
    : undefined;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
${meta}
<style>${raw(STYLE)}</style>
</head>
<body>
<main>
${body}
<footer><p>Shared with Hangar</p></footer>
</main>
</body>
</html>
`.toString();
}

export const platformName = (p: unknown) => (p === "ios" ? "iOS" : p === "android" ? "Android" : "");
const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : undefined);

interface Provisioning {
  kind?: string;
  teamName?: string;
  teamId?: string;
  expiresAt?: string;
  provisionedDevices?: number;
}

const PROFILE_KIND: Record<string, string> = {
  development: "Development",
  "ad-hoc": "Ad hoc",
  enterprise: "Enterprise (in-house)",
  "app-store": "App Store",
};

/** Why iOS will not install a build, worded for testers (core decides, installability.ts; the dashboard's words are INSTALL_BLOCKER_TEXT). */
function blockerText(reason: keyof typeof INSTALL_BLOCKER_TEXT, file: SharedFile): string {
  const p = file.metadata.provisioning as Provisioning | undefined;
  switch (reason) {
    case "no_profile":
      return "This build carries no provisioning profile, so iOS cannot install it over the air. Upload a build signed for development, ad hoc or enterprise distribution.";
    case "app_store_signed":
      return "This build is signed for App Store distribution. iOS installs such builds only from the App Store or TestFlight, never from a link. Upload an ad hoc, development or enterprise build to install it here.";
    case "profile_expired":
      return `Its provisioning profile expired on ${formatDate(String(p?.expiresAt))}, and iOS refuses to install a build whose profile has expired. Upload a build signed with a current profile.`;
    case "no_devices":
      return "Its provisioning profile lists no devices, so no iPhone or iPad can install it. Ask the developer to register your device in the profile and build again.";
  }
}

export function noticeText(notice: InstallNotice, file: SharedFile): SafeHtml {
  switch (notice.kind) {
    case "not_installable":
      return html`<p><strong>Cannot be installed over the air.</strong> ${blockerText(notice.reason, file)}</p>`;
    case "needs_https":
      return html`<p><strong>iOS installs need https.</strong> This page is served over plain http, and iPhones and iPads install builds over the air only from https addresses, so Install will not work from here. Open the link through an https address (the stage's public URL) to install.</p>`;
    case "wrong_platform":
      return notice.platform === "ios"
        ? html`<p>This build is for iPhone and iPad. Open this page on one of them to install it.</p>`
        : html`<p>This build is for Android. Open this page on an Android device to install it.</p>`;
  }
}

const formatDate = (iso: string) => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t);
  return `${d.getUTCDate()} ${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
export const formatDateTime = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${formatDate(iso)}, ${new Date(t).toISOString().slice(11, 16)} UTC`;
};

/** The addresses the page links to, built by the HTTP layer on the share host. */
export interface PageLinks {
  shareUrl: string;
  downloadUrl: string;
  /** The `itms-services://` link (iOS builds only). */
  installUrl?: string;
  /** The stable icon route for the card (links without a password only: previews fetch it without cookies). */
  iconRoute?: string;
  /** The share URL's QR code, inline SVG (drawn by the qrcode library, no user text in it). */
  qrSvg: string;
  /** A newer build of the same app in the project (core's app-pages/newer-build.ts): its label and page. */
  newer?: { label: string; url: string };
}

export function describeBuild(file: SharedFile): string {
  const m = file.metadata;
  const version = m.buildNumber ? `${m.version} (${m.buildNumber})` : m.version;
  return [`Version ${version}`, platformName(m.platform), formatBytes(file.fileSize)].filter(Boolean).join(" · ");
}

/** One button of an install offer; `ariaLabel` names the build where several buttons share a label (the app page's list). */
export function actionButton({ action, primary, label }: InstallAction, links: Pick<PageLinks, "installUrl" | "downloadUrl">, ariaLabel?: string): SafeHtml {
  const kind = primary ? "primary" : "secondary";
  const named = ariaLabel ? html` aria-label="${ariaLabel}"` : undefined;
  return action === "install"
    ? html`<a class="button ${kind}" href="${links.installUrl}"${named}>${label}</a>`
    : html`<a class="button ${kind}" href="${links.downloadUrl}" download${named}>${label}</a>`;
}

/** What differs on a tester's personal install page (installs/installs.handler.ts) from the share page. */
export interface PageOptions {
  /** The tester the build was sent to: "Sent to <address>" under the build's name. */
  sentTo?: string;
  /**
   * Whether this iPhone is in the build's profile (install-help.ts's verdictHtml), above the
   * buttons: the tester reads it before tapping Install, not after.
   */
  verdict?: SafeHtml | undefined;
  /** The install help that applies here (install-help.ts's guidanceItems), a card below the buttons. */
  help?: SafeHtml[];
}

/** The build's page: what it is, the buttons and notices its offer (install-offer.ts) gives this device, and its details. */
export function renderSharePage({ file, offer, iconUrl }: Pick<SharePage, "file" | "offer" | "iconUrl">, links: PageLinks, options: PageOptions = {}): string {
  const m = file.metadata;
  const ios = m.platform === "ios";
  const p = m.provisioning as Provisioning | undefined;
  const ctx = file.buildContext ?? {};
  const rows: [string, string | undefined][] = [
    ["Version", m.version],
    ["Build", str(m.buildNumber)],
    ["Platform", platformName(m.platform) || undefined],
    ["Size", formatBytes(file.fileSize)],
    ["Uploaded", formatDateTime(file.completedAt)],
    ["Minimum OS", str(m.minOs) && `${ios ? "iOS" : "Android API"} ${m.minOs}`],
    [ios ? "Bundle ID" : "Package", m.bundleId],
    ["File", file.fileName],
    ...(p
      ? ([
          ["Profile", typeof p.kind === "string" ? (Object.hasOwn(PROFILE_KIND, p.kind) ? PROFILE_KIND[p.kind] : p.kind) : undefined],
          ["Team", str(p.teamName) ?? str(p.teamId)],
          ["Profile expires", str(p.expiresAt) && formatDate(p.expiresAt!)],
          ["Devices", typeof p.provisionedDevices === "number" && p.kind !== "enterprise" && p.kind !== "app-store" ? String(p.provisionedDevices) : undefined],
        ] as [string, string | undefined][])
      : []),
    ["Branch", ctx.branch],
    ["Commit", ctx.commit],
  ];
  const details = [
    ...rows.filter(([, v]) => v).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`),
    ...(ctx.ciUrl ? [html`<dt>CI run</dt><dd><a href="${ctx.ciUrl}" rel="noopener noreferrer nofollow">${ctx.ciUrl}</a></dd>`] : []),
  ].join("\n");

  const devices = offer.registeredDevices;
  const body = html`<section class="card" aria-labelledby="app-title">
<div class="app">${iconUrl ? html`<img src="${iconUrl}" alt="" width="72" height="72">` : html`<div class="placeholder" aria-hidden="true"></div>`}
<div><h1 id="app-title">${m.appName}</h1><p class="sub">${describeBuild(file)}</p>${options.sentTo && html`<p class="sub">Sent to <strong>${options.sentTo}</strong></p>`}</div></div>
${links.newer && html`<div class="newer" role="note"><p>A newer build is available: <a href="${links.newer.url}">${links.newer.label}</a></p></div>`}
${offer.notices.length > 0 && html`<div class="notice" role="note">${offer.notices.map((n) => noticeText(n, file))}</div>`}
${options.verdict}
<div class="actions">${offer.actions.map((a) => actionButton(a, links))}</div>
${devices !== undefined && html`<p class="sub">Installs only on the ${devices} device${devices === 1 ? "" : "s"} registered in its provisioning profile.</p>`}
</section>
${guidanceCard(options.help ?? [])}
${offer.qrTap && html`<section class="card" aria-labelledby="qr-title"><h2 id="qr-title">Open on your phone</h2><div class="qr">${raw(links.qrSvg)}<p>Scan this code with the phone's camera to open this page there, then tap ${offer.qrTap}.</p></div></section>`}
${ctx.releaseNotes && html`<section class="card" aria-labelledby="notes-title"><h2 id="notes-title">Release notes</h2><p class="notes">${ctx.releaseNotes}</p></section>`}
<section class="card" aria-labelledby="details-title"><h2 id="details-title">Details</h2><dl>
${raw(details)}
</dl></section>`;
  return frame({
    title: `${m.appName} ${m.version}`,
    card: {
      title: `${m.appName} ${m.version}`,
      description: `${describeBuild(file)}. Install it from this link.`,
      url: links.shareUrl,
      image: links.iconRoute,
    },
    body,
  });
}

/** What a password page protects, in its title and heading: a build's link, or a project's app page. */
export const PROTECTED_BUILD = { title: "Protected build", heading: "This build is protected" };

/** A protected link: nothing of the build until the password is given. */
export function renderPasswordPage(action: string, problem?: string, wording: { title: string; heading: string } = PROTECTED_BUILD): string {
  return frame({
    title: wording.title,
    body: html`<section class="card" aria-labelledby="pw-title"><h1 id="pw-title">${wording.heading}</h1>
<p class="sub">Enter the password the person who shared it gave you.</p>
<form method="post" action="${action}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${problem && raw(` aria-describedby="pw-error" aria-invalid="true"`)}>
${problem && html`<p class="error" id="pw-error" role="alert">${problem}</p>`}
<button class="button primary" type="submit">Continue</button>
</form></section>`,
  });
}

/** The friendly page of a link that serves nothing (410, or 404 for an unknown key). */
export function renderGonePage(heading: string, text: string): string {
  return frame({ title: heading, body: html`<section class="card" aria-labelledby="gone-title"><h1 id="gone-title">${heading}</h1><p>${text}</p></section>` });
}

/**
 * One heading, one paragraph and at most one link: what a client over its limit sees (429), and
 * what a link-preview bot gets from a download link (never the package).
 */
export function renderNoticePage(heading: string, text: string, link?: { href: string; label: string }): string {
  return frame({
    title: heading,
    body: html`<section class="card" aria-labelledby="notice-title"><h1 id="notice-title">${heading}</h1><p>${text}</p>${link && html`<p><a class="button" href="${link.href}">${link.label}</a></p>`}</section>`,
  });
}
