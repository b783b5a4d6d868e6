import { formatBytes } from "@hangar/core/format-bytes";
import type { TesterBuild } from "../api/tester.api";
import { formatDateTime } from "../app/format";
import { CopyButton } from "./data";
import { platformLabel } from "./file-list";
import "../styles/tester-portal.css";

/**
 * What a tester's device can do with a build, as the share page decides it (core's
 * `deviceOfUserAgent`), plus iPadOS: its Safari sends a Mac user agent, and a Mac has no touch
 * screen, so a "Mac" with several touch points is an iPad.
 */
export type Device = "ios" | "android" | "desktop";

export function currentDevice(): Device {
  const ua = navigator.userAgent;
  if (/\b(iPhone|iPad|iPod)\b/.test(ua)) return "ios";
  if (/\bAndroid\b/.test(ua)) return "android";
  if (/\bMacintosh\b/.test(ua) && navigator.maxTouchPoints > 1) return "ios";
  return "desktop";
}

/** "1.4.0 (52)", or what there is of it. */
export const buildVersion = (b: Pick<TesterBuild, "version" | "build">) =>
  b.version ? `${b.version}${b.build ? ` (${b.build})` : ""}` : b.build ? `Build ${b.build}` : "Unknown version";

/**
 * The personal install link's own paths (the installs function serves them): the package, and
 * the manifest iOS reads to install over the air. Both count for this tester, through the link.
 */
const downloadUrl = (b: TesterBuild) => `${b.installUrl}/download`;
const itmsUrl = (b: TesterBuild) => `itms-services://?action=download-manifest&url=${encodeURIComponent(`${b.installUrl}/manifest.plist`)}`;

/**
 * The buttons of one build on this device (the share page's choices):
 * - iPhone/iPad: Install for an iOS build iOS will take; for one it will refuse, why; for an
 *   Android build, a note.
 * - Android: Download APK; for an iOS build, a note.
 * - a computer: both ways, each opening the build's install page (it has the QR code to scan with
 *   the phone) or downloading the file, as a tester who sideloads from a laptop expects.
 */
export function BuildActions({ build, device, label }: { build: TesterBuild; device: Device; label: string }) {
  const ios = build.platform === "ios";
  // A package whose platform the inspector could not tell (rare): offered as a plain download.
  if (build.platform === null) {
    return (
      <div className="build-actions">
        <a className="button button-secondary" href={downloadUrl(build)} aria-label={`Download ${label}`}>
          Download
        </a>
      </div>
    );
  }
  const kind = ios ? "IPA" : "APK";
  if (device === "ios" && !ios) return <p className="build-note">Android build: open this page on an Android device to install it.</p>;
  if (device === "android" && ios) return <p className="build-note">iPhone and iPad build: open this page on an iPhone or iPad to install it.</p>;
  const refused = <p className="build-note build-note-warning">iOS will not install this build (its signing does not allow it). Ask the team for a new one.</p>;
  if (device === "ios" && !build.installable) return refused;
  if (device === "ios") {
    return (
      <div className="build-actions">
        <a className="button button-primary" href={itmsUrl(build)} aria-label={`Install ${label}`}>
          Install
        </a>
      </div>
    );
  }
  if (device === "android") {
    return (
      <div className="build-actions">
        <a className="button button-primary" href={downloadUrl(build)} aria-label={`Download the APK of ${label}`}>
          Download APK
        </a>
      </div>
    );
  }
  return (
    <div className="build-actions">
      {ios && !build.installable && refused}
      {(!ios || build.installable) && (
        <a className="button button-primary" href={build.installUrl} aria-label={`Install ${label} on ${ios ? "an iPhone or iPad" : "an Android device"}`}>
          Install on {ios ? "iPhone" : "Android"}
        </a>
      )}
      <a className="button button-secondary" href={downloadUrl(build)} aria-label={`Download the ${kind} of ${label}`}>
        Download {kind}
      </a>
    </div>
  );
}

/** Platform, version (unless a heading says it already), date and size in one line. */
export function BuildFacts({ build, version = true }: { build: TesterBuild; version?: boolean }) {
  return (
    <p className="file-meta">
      <span className="badge badge-muted">{platformLabel(build.platform)}</span>
      {version && <span>{buildVersion(build)}</span>}
      <span>
        <time dateTime={build.uploadedAt}>{formatDateTime(build.uploadedAt)}</time>
      </span>
      <span>{formatBytes(build.size)}</span>
    </p>
  );
}

/** "iPhone" or "iPad", from Apple's model identifier. */
const deviceKind = (product: string) => (product.startsWith("iPad") ? "iPad" : "iPhone");

/**
 * Whether this build installs on this iPhone (docs/devices.md "The verdict"), as the share page
 * says it: in the profile, or not (with the UDID to copy). Nothing on other devices or for builds
 * whose profile lists no devices; an unknown device gets the page's one "Check this iPhone"
 * (CheckThisDevice) rather than a button per build.
 */
export function DeviceVerdictNote({ build, device }: { build: TesterBuild; device: Device }) {
  const { verdict, device: known, told } = build.device;
  if (device !== "ios" || !known || (verdict !== "in-profile" && verdict !== "not-in-profile")) return null;
  const kind = deviceKind(known.product);
  // Since iOS 16 a device may call itself just "iPhone": then the model alone names it (as the share page does).
  const model = known.model ?? known.product;
  const named = known.name && known.name !== kind && known.name !== model ? `${known.name}, ${model}` : model;
  if (verdict === "in-profile") {
    return (
      <p className="device-verdict device-verdict-ok">
        <strong>
          This {kind} ({named}) is in this build’s profile.
        </strong>{" "}
        It can install this build.
      </p>
    );
  }
  return (
    <div className="device-verdict device-verdict-missing">
      <p>
        <strong>
          This {kind} ({named}) is not in this build’s profile{told ? " — the team has been told." : "."}
        </strong>
      </p>
      <p>Install will not work on it until the developer adds its UDID to the profile and sends a new build.</p>
      <p className="device-verdict-udid">
        <span className="muted">UDID</span> <code>{known.udid}</code> <CopyButton value={known.udid} label="UDID" />
      </p>
    </div>
  );
}

/** The page's "Check this iPhone" when one of its iOS builds can be checked and this device is not known yet. */
export function CheckThisDevice({ builds, device, enrollUrl }: { builds: TesterBuild[]; device: Device; enrollUrl: string }) {
  if (device !== "ios" || !builds.some((b) => b.device.verdict === "unknown-device")) return null;
  return (
    <div className="card device-check">
      <h2 className="card-title">Will it install on this iPhone?</h2>
      <p className="muted">
        Development and ad hoc builds install only on the devices in their provisioning profile. Check this one: Safari downloads a small profile; open Settings → Profile
        Downloaded → Install, and iOS sends this device’s identifier (UDID) to the team’s Hangar and brings you back here with the answer.
      </p>
      <a className="button button-secondary" href={enrollUrl}>
        Check this iPhone
      </a>
    </div>
  );
}
