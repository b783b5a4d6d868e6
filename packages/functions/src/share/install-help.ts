import { createHash } from "node:crypto";
import type { SharedFile } from "@hangar/core";
import type { PageVerdict, VerdictDevice } from "@hangar/core/devices";
import { html, raw, type SafeHtml } from "@hangar/core/html";
import type { Device } from "@hangar/core/links";

/**
 * What the tester-facing pages (share page, personal install page, app page) say around the
 * Install button beyond the offer (docs/devices.md): the verdict of this iPhone against the
 * build's profile, and the help for what iOS and Android ask of a tester at install time. Through
 * the one html template (every value escaped); the core decides, this file words.
 */

/**
 * The UDID's Copy button, the pages' only script: a constant allowed by its hash, and only on a
 * page that shows a UDID (htmlResult's `script`); every other page keeps its CSP without script.
 * Without script the button stays hidden and the UDID is selectable text.
 */
const COPY_SCRIPT = `document.querySelectorAll("button[data-copy]").forEach(function(b){var s=document.getElementById(b.getAttribute("data-status"));b.hidden=false;b.addEventListener("click",function(){var t=b.getAttribute("data-copy");var ok=function(){s.textContent="Copied."};var no=function(){s.textContent="Could not copy: select the UDID and copy it."};if(navigator.clipboard){navigator.clipboard.writeText(t).then(ok,no)}else{no()}})})`;
export const COPY_SCRIPT_HASH = `'sha256-${createHash("sha256").update(COPY_SCRIPT).digest("base64")}'`;

/** "iPhone" or "iPad", from Apple's model identifier (`iPad13,4`). */
const kindOf = (device: VerdictDevice) => (device.product.startsWith("iPad") ? "iPad" : "iPhone");

/**
 * "Anna's iPhone, iPhone 14 Pro" (the identifier when the model is not in the table). Since iOS 16
 * a device names itself just "iPhone" to the profile service (docs/devices.md): such a name says
 * nothing the model does not, so it is left out.
 */
export function named(device: VerdictDevice): string {
  const model = device.model ?? device.product;
  const name = device.name && device.name !== kindOf(device) && device.name !== model ? device.name : undefined;
  return name ? `${name}, ${model}` : model;
}

/** The page's path the enroll flow comes back to (`/share/<key>`, `/install/<token>`, `/apps/<slug>`). */
export const enrollHref = (returnPath: string) => `/devices/enroll?return=${encodeURIComponent(returnPath)}`;

/** Whether a page with this verdict needs the copy script (and its hash in the CSP). */
export const needsScript = (verdict: PageVerdict | undefined) => verdict?.kind === "not-in-profile";

/**
 * The verdict box. `idSuffix` keeps ids unique where a page shows several builds (the app page).
 * Nothing for `not-applicable`: those builds keep their own explanations (installability, offer).
 */
export function verdictHtml(verdict: PageVerdict | undefined, returnPath: string, idSuffix = ""): SafeHtml | undefined {
  if (!verdict) return undefined;
  switch (verdict.kind) {
    case "in-profile": {
      const d = verdict.device!;
      return html`<div class="verdict ok" role="note"><p><strong>This ${kindOf(d)} (${named(d)}) is in this build's profile.</strong> It can install this build.</p></div>`;
    }
    case "not-in-profile": {
      const d = verdict.device!;
      const status = `udid-status${idSuffix}`;
      return html`<div class="verdict no" role="note"><p><strong>This ${kindOf(d)} (${named(d)}) is not in this build's profile${verdict.told ? " — the team has been told." : "."}</strong></p>
<p>Install will not work on it until the developer adds its UDID to the profile and uploads a new build.${verdict.told ? "" : " Send the team this UDID."}</p>
<p class="udid"><span>UDID</span> <code>${d.udid}</code> <button class="button secondary small" type="button" hidden data-copy="${d.udid}" data-status="${status}">Copy UDID</button> <span id="${status}" role="status"></span></p></div>
<script>${raw(COPY_SCRIPT)}</script>`;
    }
    case "unknown-device":
      return html`<div class="verdict ask" role="note"><p><strong>Will it install on this iPhone?</strong> This build installs only on the devices in its provisioning profile. Check this one: Safari downloads a small profile that tells Hangar this device's identifier (UDID), then brings you back here.</p>
<p><a class="button secondary" href="${enrollHref(returnPath)}">Check this iPhone</a></p>
<details><summary>How checking works</summary><p>After tapping Check this iPhone, allow the download, then open Settings → Profile Downloaded → Install. iOS sends the device's UDID, model and iOS version to this site, removes the profile again and opens this page with the answer. Nothing is installed on the device.</p></details></div>`;
    case "not-applicable":
      return undefined;
  }
}

/** The iOS major version of an iPhone or iPad user agent (`… iPhone OS 17_5 like Mac OS X …`), or undefined. */
export function iosMajor(userAgent: string | undefined): number | undefined {
  const found = /\bOS (\d{1,2})[_.]\d/.exec(userAgent ?? "");
  return found && /\b(iPhone|iPad|iPod)\b/.test(userAgent ?? "") ? Number(found[1]) : undefined;
}

/**
 * The install help that applies to this build on this device, collapsed: Developer Mode for
 * development and ad hoc builds on iOS 16 and later (and on a desktop, which cannot tell), trusting
 * an enterprise developer, and Android's "Install unknown apps". Nothing on the wrong platform's
 * device (its notice says where to open the page) or for builds iOS will not install anyway.
 */
export function guidanceItems(file: Pick<SharedFile, "metadata">, device: Device, userAgent: string | undefined, installable: boolean): SafeHtml[] {
  const m = file.metadata;
  const items: SafeHtml[] = [];
  if (m.platform === "ios" && device !== "android" && installable) {
    const p = m.provisioning as { kind?: unknown; teamName?: unknown } | undefined;
    const major = iosMajor(userAgent);
    if ((p?.kind === "development" || p?.kind === "ad-hoc") && (major === undefined || major >= 16)) {
      items.push(html`<details><summary>iOS says the app needs Developer Mode</summary><p>iOS 16 and later open development and ad hoc builds only with Developer Mode on. Open Settings → Privacy &amp; Security → Developer Mode, turn it on and restart when asked. After the restart, unlock the device and tap Turn On. Then open the app again.</p></details>`);
    }
    if (p?.kind === "enterprise") {
      const team = typeof p.teamName === "string" && p.teamName ? p.teamName : undefined;
      items.push(html`<details><summary>iOS says "Untrusted Enterprise Developer"</summary><p>Builds signed for enterprise (in-house) distribution open only once you trust their developer. After installing, open Settings → General → VPN &amp; Device Management, tap ${team ? html`<strong>${team}</strong>` : "the developer's name"} under Enterprise App, then Trust. The device needs the internet to verify the developer.</p></details>`);
    }
  }
  if (m.platform === "android" && device !== "ios") {
    items.push(html`<details><summary>Android blocks the install</summary><p>Android installs apps from outside the Play Store only from apps you allow. When it says your browser is not allowed, tap Settings in that message and turn on Allow from this source (Settings → Apps → your browser → Install unknown apps), then go back and open the downloaded APK again. If Play Protect warns about an unknown developer, choose More details → Install anyway.</p></details>`);
  }
  return items;
}

/** The share page's help card (the app page puts the items inside each build's card). */
export function guidanceCard(items: SafeHtml[]): SafeHtml | undefined {
  return items.length > 0 ? html`<section class="card help" aria-labelledby="help-title"><h2 id="help-title">Help with installing</h2>${items}</section>` : undefined;
}
