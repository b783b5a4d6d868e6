import type { AppPage, ShownBuild } from "@hangar/core/app-pages";
import { versionLabel } from "@hangar/core/app-pages";
import { html, raw, type SafeHtml } from "@hangar/core/html";
import type { PageVerdict } from "@hangar/core/devices";
import type { Device } from "@hangar/core/links";
import { guidanceItems, verdictHtml } from "../share/install-help";
import { actionButton, describeBuild, formatDateTime, frame, noticeText, platformName } from "../share/share-page";

/**
 * A project's public app page (`/apps/<slug>`): the latest build of each platform with the same
 * device-aware buttons and notices as a share page (core's install-offer.ts), its release notes,
 * and the earlier builds below, each with its own button. Same frame, stylesheet and policy as
 * the share pages (share-page.ts): no script, one style by hash, dark mode by the system's setting.
 */

/** The addresses of one build on the page, built by the HTTP layer on the share host. */
export interface BuildLinks {
  downloadUrl: string;
  /** The `itms-services://` link (iOS builds only). */
  installUrl?: string;
}

export interface AppPageLinks {
  pageUrl: string;
  /** The page address's QR code, inline SVG, for desktops. */
  qrSvg: string;
  build(file: ShownBuild["file"]): BuildLinks;
}

const PLATFORMS = [
  ["ios", "iPhone and iPad"],
  ["android", "Android"],
] as const;

/** What the page knows of the visitor's device: its kind, its user agent (the help), the verdicts by file id (install-help.ts). */
export interface AppPageDevice {
  device: Device;
  userAgent?: string | undefined;
  verdicts?: ReadonlyMap<string, PageVerdict>;
  /** The page's own path, where the enroll flow comes back to (`/apps/<slug>`). */
  returnPath?: string;
}

function latestCard(platform: "ios" | "android", device: string, shown: ShownBuild, links: AppPageLinks, visitor: AppPageDevice): SafeHtml {
  const { file, offer, iconUrl } = shown;
  const m = file.metadata;
  const id = `latest-${platform}`;
  const notes = file.buildContext?.releaseNotes;
  const devices = offer.registeredDevices;
  const verdict = visitor.returnPath ? verdictHtml(visitor.verdicts?.get(file.fileId), visitor.returnPath, `-${platform}`) : undefined;
  const help = guidanceItems(file, visitor.device, visitor.userAgent, offer.actions.some((a) => a.action === "install"));
  return html`<section class="card" aria-labelledby="${id}">
<div class="app">${iconUrl ? html`<img src="${iconUrl}" alt="" width="72" height="72">` : html`<div class="placeholder" aria-hidden="true"></div>`}
<div><h2 id="${id}">${m.appName} for ${device}</h2><p class="sub">${describeBuild(file)}</p><p class="sub">Uploaded ${formatDateTime(file.completedAt)}</p></div></div>
${offer.notices.length > 0 && html`<div class="notice" role="note">${offer.notices.map((n) => noticeText(n, file))}</div>`}
${verdict}
<div class="actions">${offer.actions.map((a) => actionButton(a, links.build(file)))}</div>
${devices !== undefined && html`<p class="sub">Installs only on the ${devices} device${devices === 1 ? "" : "s"} registered in its provisioning profile.</p>`}
${notes && html`<h3>Release notes</h3><p class="notes">${notes}</p>`}
${help.length > 0 && html`<div class="help"><h3>Help with installing</h3>${help}</div>`}
</section>`;
}

function earlierRow(shown: ShownBuild, links: AppPageLinks, device: Device): SafeHtml {
  const { file, offer } = shown;
  const m = file.metadata;
  const label = versionLabel(m.version, m.buildNumber);
  // One button per build, named for it: Install on an iPhone or iPad that can, else the download
  // (a desktop has its QR code for the latest build; an old build is a download away).
  const first = device === "ios" ? offer.actions[0] : offer.actions.find((a) => a.action === "download");
  return html`<li><div><strong>${m.appName} ${label}</strong><br><span class="sub">${platformName(m.platform)} · ${formatDateTime(file.completedAt)}</span></div>
${first && actionButton({ ...first, primary: false }, links.build(file), `${first.label}: ${m.appName} ${label} (${platformName(m.platform)})`)}</li>`;
}

export function renderAppPage(page: AppPage, links: AppPageLinks, options: AppPageDevice): string {
  const latest = PLATFORMS.flatMap(([platform, device]) => {
    const shown = page.latest[platform];
    return shown ? [latestCard(platform, device, shown, links, options)] : [];
  });
  const body = html`<section class="card" aria-labelledby="page-title">
<h1 id="page-title">${page.projectName}</h1>
<p class="sub">${latest.length > 0 ? "The latest test builds of this app. Open this page on your phone to install." : "No build of this app has been published yet. Check back later."}</p>
</section>
${latest}
${options.device === "desktop" && latest.length > 0 && html`<section class="card" aria-labelledby="qr-title"><h2 id="qr-title">Open on your phone</h2><div class="qr">${raw(links.qrSvg)}<p>Scan this code with the phone's camera to open this page there, then tap Install or Download.</p></div></section>`}
${page.earlier.length > 0 && html`<section class="card" aria-labelledby="earlier-title"><h2 id="earlier-title">Earlier builds</h2><ul class="builds">${page.earlier.map((b) => earlierRow(b, links, options.device))}</ul></section>`}`;
  return frame({
    title: page.projectName,
    ...(page.protected ? {} : { card: { title: page.projectName, description: `The latest test builds of ${page.projectName}.`, url: links.pageUrl } }),
    body,
  });
}
