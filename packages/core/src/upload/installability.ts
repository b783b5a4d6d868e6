/**
 * Whether a build can be installed from its link, decided from what extraction found. One rule for
 * complete (which records it in the metadata, so CI hears it at upload time instead of a tester at
 * install time), the share page and the dashboard (which decide again at view time: a profile that
 * was valid at upload expires later).
 *
 * Imports nothing: the web app imports it through `@hangar/core/installability`, like the palette.
 *
 * Only iOS has such rules. An APK installs anywhere sideloading is allowed; an IPA installs over the
 * air only when it carries a profile that lists the device (development, ad hoc) or all devices
 * (enterprise), and only until that profile expires. App Store profiles install from the App Store
 * or TestFlight only.
 */

/** Stable codes (the complete answer's `metadata.reason`, the dashboard's `installBlocker`). */
export type InstallBlocker = "no_profile" | "app_store_signed" | "profile_expired" | "no_devices";

export type Installability = { installable: true } | { installable: false; reason: InstallBlocker };

/** The part of extraction's metadata the decision reads; anything else is ignored. */
interface InstallFacts {
  platform?: unknown;
  provisioning?: unknown;
}

interface Provisioning {
  kind?: unknown;
  expiresAt?: unknown;
  provisionedDevices?: unknown;
}

/** The decision at `now`; the order is what the developer would fix first. */
export function installability(metadata: InstallFacts, now: Date): Installability {
  if (metadata.platform !== "ios") return { installable: true };
  const p = metadata.provisioning;
  if (typeof p !== "object" || p === null) return { installable: false, reason: "no_profile" };
  const { kind, expiresAt, provisionedDevices } = p as Provisioning;
  if (kind === "app-store") return { installable: false, reason: "app_store_signed" };
  if (typeof expiresAt === "string" && Date.parse(expiresAt) <= now.getTime()) return { installable: false, reason: "profile_expired" };
  if ((kind === "development" || kind === "ad-hoc") && provisionedDevices === 0) return { installable: false, reason: "no_devices" };
  return { installable: true };
}

/** One sentence per code, for the dashboard and the CLI (the share page words it for testers). */
export const INSTALL_BLOCKER_TEXT: Record<InstallBlocker, string> = {
  no_profile: "It carries no provisioning profile, so iOS cannot install it from a link. Upload a build signed for development, ad hoc or enterprise distribution.",
  app_store_signed:
    "It is signed for App Store distribution, which iOS installs only from the App Store or TestFlight. Upload an ad hoc, development or enterprise build to install it from a link.",
  profile_expired: "Its provisioning profile has expired, and iOS refuses to install such a build. Upload a build signed with a current profile.",
  no_devices: "Its provisioning profile lists no devices, so no iPhone or iPad can install it. Register the testers' devices in the profile and build again.",
};

export const isInstallBlocker = (value: unknown): value is InstallBlocker =>
  typeof value === "string" && Object.hasOwn(INSTALL_BLOCKER_TEXT, value);
