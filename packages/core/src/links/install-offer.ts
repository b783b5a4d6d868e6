import type { SharedFile } from "../ports";
import { installability, type InstallBlocker } from "../upload/installability";

/**
 * Which install path a visitor's device gets first, from its User-Agent. iPadOS Safari asks for
 * desktop sites (a Mac user agent): it gets the desktop page, which offers the install link too.
 */
export type Device = "ios" | "android" | "desktop";

export function deviceOfUserAgent(userAgent: string | undefined): Device {
  const ua = userAgent ?? "";
  if (/\b(iPhone|iPad|iPod)\b/.test(ua)) return "ios";
  if (/\bAndroid\b/.test(ua)) return "android";
  return "desktop";
}

/** Why the page says something before its buttons; the page words each one. */
export type InstallNotice =
  /** iOS will refuse the build whatever the device (installability.ts says why). */
  | { kind: "not_installable"; reason: InstallBlocker }
  /** The page is on plain http, from which iOS installs nothing over the air. */
  | { kind: "needs_https" }
  /** An iOS build opened on Android, or the other way round. */
  | { kind: "wrong_platform"; platform: "ios" | "android" };

export interface InstallAction {
  /** `install`: the `itms-services://` link (iOS builds only); `download`: the package itself. */
  action: "install" | "download";
  /** The one filled button; every other is outlined. */
  primary: boolean;
  label: string;
}

/** What the share page offers a device: its notices, its buttons in order, and what the QR code's caption says to tap. */
export interface InstallOffer {
  notices: InstallNotice[];
  actions: InstallAction[];
  /** Development and ad hoc builds that iOS will install: how many devices their profile lists. */
  registeredDevices?: number;
  /** Desktops only: the page shows a QR code to open it on a phone, and this is the button to tap there. */
  qrTap?: string;
}

interface Provisioning {
  kind?: unknown;
  provisionedDevices?: unknown;
}

/**
 * The install decision, apart from the markup: an iOS build offers Install (the manifest link) on
 * an iPhone or iPad and on desktops (a QR code away), unless iOS would refuse it; Download is
 * always there. Over plain http Install is still offered (the local stack, a misconfigured proxy),
 * beside a notice saying why iOS will refuse it, rather than hiding the one action people look for.
 */
export function installOffer(file: Pick<SharedFile, "metadata">, device: Device, options: { insecure: boolean; now: Date }): InstallOffer {
  const m = file.metadata;
  const ios = m.platform === "ios";
  const decision = installability(m, options.now);
  const blocker = decision.installable ? undefined : decision.reason;
  const install = ios && !blocker;
  const downloadLabel = `Download ${ios ? "IPA" : "APK"}`;
  const download = (primary: boolean): InstallAction => ({ action: "download", primary, label: downloadLabel });
  const notices: InstallNotice[] = [];
  const actions: InstallAction[] = [];

  if (ios) {
    if (blocker) notices.push({ kind: "not_installable", reason: blocker });
    else if (options.insecure && device !== "android") notices.push({ kind: "needs_https" });
    if (device === "android") {
      notices.push({ kind: "wrong_platform", platform: "ios" });
      actions.push(download(false));
    } else {
      if (install) actions.push({ action: "install", primary: true, label: device === "ios" ? "Install" : "Install on iPhone or iPad" });
      actions.push(download(!install));
    }
  } else {
    if (device === "ios") notices.push({ kind: "wrong_platform", platform: "android" });
    actions.push(download(device !== "ios"));
  }

  const p = m.provisioning as Provisioning | undefined;
  const registered = install && p && (p.kind === "development" || p.kind === "ad-hoc");
  return {
    notices,
    actions,
    ...(registered ? { registeredDevices: typeof p.provisionedDevices === "number" ? p.provisionedDevices : 0 } : {}),
    ...(device === "desktop" ? { qrTap: install ? "Install" : downloadLabel } : {}),
  };
}
