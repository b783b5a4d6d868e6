/**
 * What changed between two builds of one app (issue 24, docs/release-safety.md): the mistakes that
 * hurt are changes nobody looked at — another signing key (the update cannot install over the
 * app), a permission a library brought in, a lower minimum OS, a build number that did not go up
 * (stores and devices refuse it), a profile of another kind or team, a package twice the size.
 *
 * A pure function of the two builds' stored metadata, so complete, the dashboard's "compare any
 * two builds" and the CLI's gate all say the same thing. Each change has a stable `kind` (what
 * `hangar upload --fail-on` names) and a severity. Fields one of the builds lacks (builds stored
 * before extraction read them) are unknown, never reported as a change. Browser-safe.
 */
import type { PackageMetadata } from "../ports/package-inspector.port";
import { compareVersions } from "./version-order";

export const CHANGE_KINDS = [
  "version-changed",
  "build-number-decreased",
  "build-number-repeated",
  "size-changed",
  "min-os-raised",
  "min-os-lowered",
  "target-sdk-raised",
  "target-sdk-lowered",
  "permission-added",
  "permission-removed",
  "entitlement-added",
  "entitlement-removed",
  "signing-key-changed",
  "profile-kind-changed",
  "team-changed",
  "profile-expiry-changed",
  "profile-devices-changed",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Gate names that stand for several kinds (`--fail-on build-number-not-increased`). */
export const CHANGE_KIND_GROUPS: Readonly<Record<string, readonly ChangeKind[]>> = {
  "build-number-not-increased": ["build-number-decreased", "build-number-repeated"],
};

export type ChangeSeverity = "info" | "warning" | "danger";

export interface BuildChange {
  kind: ChangeKind;
  severity: ChangeSeverity;
  /** One sentence for people (CLI, dashboard, mail). */
  message: string;
  /** The previous and the new value, where the change has one (a permission: the name in `to` or `from`). */
  from?: string | number | null;
  to?: string | number | null;
}

/** What the diff reads of a build. */
export interface BuildFacts {
  fileId: string;
  fileSize: number;
  metadata: PackageMetadata;
}

export interface BuildDiff {
  previous: { fileId: string; version: string; buildNumber: string | null };
  changes: BuildChange[];
}

/** Growth at or above this share of the previous size is a warning, not just information. */
export const SIZE_WARNING_GROWTH = 0.5;
/** Size changes below this share of the previous size are not reported at all. */
export const SIZE_REPORT_THRESHOLD = 0.1;

/**
 * Android's runtime ("dangerous") permissions: each asks the user at run time and guards personal
 * data, so one appearing in a build is a `danger`, not a `warning`
 * (developer.android.com/reference/android/Manifest.permission, protection level "dangerous").
 */
const DANGEROUS_PERMISSIONS = new Set(
  [
    "ACCEPT_HANDOVER", "ACCESS_BACKGROUND_LOCATION", "ACCESS_COARSE_LOCATION", "ACCESS_FINE_LOCATION", "ACCESS_MEDIA_LOCATION",
    "ACTIVITY_RECOGNITION", "ADD_VOICEMAIL", "ANSWER_PHONE_CALLS", "BODY_SENSORS", "BODY_SENSORS_BACKGROUND", "BLUETOOTH_ADVERTISE",
    "BLUETOOTH_CONNECT", "BLUETOOTH_SCAN", "CALL_PHONE", "CAMERA", "GET_ACCOUNTS", "NEARBY_WIFI_DEVICES", "POST_NOTIFICATIONS",
    "PROCESS_OUTGOING_CALLS", "READ_CALENDAR", "READ_CALL_LOG", "READ_CONTACTS", "READ_EXTERNAL_STORAGE", "READ_MEDIA_AUDIO",
    "READ_MEDIA_IMAGES", "READ_MEDIA_VIDEO", "READ_MEDIA_VISUAL_USER_SELECTED", "READ_PHONE_NUMBERS", "READ_PHONE_STATE", "READ_SMS",
    "RECEIVE_MMS", "RECEIVE_SMS", "RECEIVE_WAP_PUSH", "RECORD_AUDIO", "SEND_SMS", "USE_SIP", "UWB_RANGING", "WRITE_CALENDAR",
    "WRITE_CALL_LOG", "WRITE_CONTACTS", "WRITE_EXTERNAL_STORAGE",
  ].map((name) => `android.permission.${name}`),
);

const SEVERITY_ORDER: Record<ChangeSeverity, number> = { danger: 0, warning: 1, info: 2 };

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;

interface Provisioning {
  kind?: string;
  teamId?: string;
  expiresAt?: string;
  provisionedDevices?: number;
  developerCertificateSha256?: string[];
  entitlements?: string[];
}

function provisioningOf(metadata: PackageMetadata): Provisioning | undefined {
  const p = metadata.provisioning;
  if (!p || typeof p !== "object") return undefined;
  const record = p as Record<string, unknown>;
  return {
    ...(text(record.kind) ? { kind: text(record.kind)! } : {}),
    ...(text(record.teamId) ? { teamId: text(record.teamId)! } : {}),
    ...(text(record.expiresAt) ? { expiresAt: text(record.expiresAt)! } : {}),
    ...(typeof record.provisionedDevices === "number" ? { provisionedDevices: record.provisionedDevices } : {}),
    ...(strings(record.developerCertificateSha256) ? { developerCertificateSha256: strings(record.developerCertificateSha256)! } : {}),
    ...(strings(record.entitlements) ? { entitlements: strings(record.entitlements)! } : {}),
  };
}

/** The APK's signer certificates; undefined when unknown (not extracted, or unsigned). */
function androidSigners(metadata: PackageMetadata): string[] | undefined {
  const s = metadata.signing;
  if (!s || typeof s !== "object") return undefined;
  const certs = strings((s as Record<string, unknown>).certificateSha256);
  return certs && certs.length > 0 ? certs : undefined;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const shortHash = (hashes: readonly string[]) => hashes.map((h) => `${h.slice(0, 12)}…`).join(", ");

function percent(from: number, to: number): string {
  const share = (to - from) / from;
  const rounded = Math.round(share * 100);
  return `${rounded > 0 ? "+" : ""}${rounded} %`;
}

/**
 * The changes from `previous` to `current`, most severe first (kinds in CHANGE_KINDS order within a
 * severity). Both builds are of one app (same platform and bundle id): the caller picks them.
 */
export function diffBuilds(previous: BuildFacts, current: BuildFacts): BuildDiff {
  const changes: BuildChange[] = [];
  const add = (change: BuildChange) => changes.push(change);
  const before = previous.metadata;
  const after = current.metadata;
  const android = (after.platform ?? before.platform) === "android";

  if (before.version !== after.version) {
    add({ kind: "version-changed", severity: "info", message: `Version ${before.version} → ${after.version}`, from: before.version, to: after.version });
  }

  const buildBefore = text(before.buildNumber);
  const buildAfter = text(after.buildNumber);
  if (buildBefore && buildAfter) {
    const order = compareVersions(buildAfter, buildBefore);
    if (order === 0) {
      add({
        kind: "build-number-repeated",
        severity: "danger",
        message: `Build number ${buildAfter} is the same as the previous build's: ${android ? "Android will not install it over that build" : "TestFlight and devices refuse a repeated build number"}`,
        from: buildBefore,
        to: buildAfter,
      });
    } else if (order === -1) {
      add({
        kind: "build-number-decreased",
        severity: "danger",
        message: `Build number went down from ${buildBefore} to ${buildAfter}: ${android ? "Android will not install it over the previous build" : "TestFlight and devices refuse a lower build number"}`,
        from: buildBefore,
        to: buildAfter,
      });
    }
  }

  if (previous.fileSize > 0 && current.fileSize !== previous.fileSize) {
    const share = (current.fileSize - previous.fileSize) / previous.fileSize;
    if (Math.abs(share) >= SIZE_REPORT_THRESHOLD) {
      add({
        kind: "size-changed",
        severity: share >= SIZE_WARNING_GROWTH ? "warning" : "info",
        message: `Size ${percent(previous.fileSize, current.fileSize)} (${previous.fileSize} → ${current.fileSize} bytes)`,
        from: previous.fileSize,
        to: current.fileSize,
      });
    }
  }

  const minBefore = text(before.minOs);
  const minAfter = text(after.minOs);
  if (minBefore && minAfter) {
    const order = compareVersions(minAfter, minBefore);
    const what = android ? "Minimum SDK" : "Minimum iOS";
    if (order === 1) add({ kind: "min-os-raised", severity: "warning", message: `${what} raised from ${minBefore} to ${minAfter}: older devices can no longer install it`, from: minBefore, to: minAfter });
    if (order === -1) add({ kind: "min-os-lowered", severity: "warning", message: `${what} lowered from ${minBefore} to ${minAfter}: test it on the older devices it now reaches`, from: minBefore, to: minAfter });
  }

  const targetBefore = text(before.targetSdk);
  const targetAfter = text(after.targetSdk);
  if (targetBefore && targetAfter) {
    const order = compareVersions(targetAfter, targetBefore);
    if (order === 1) add({ kind: "target-sdk-raised", severity: "info", message: `Target SDK raised from ${targetBefore} to ${targetAfter}`, from: targetBefore, to: targetAfter });
    if (order === -1) add({ kind: "target-sdk-lowered", severity: "warning", message: `Target SDK lowered from ${targetBefore} to ${targetAfter}: Google Play may refuse it`, from: targetBefore, to: targetAfter });
  }

  const permsBefore = strings(before.permissions);
  const permsAfter = strings(after.permissions);
  if (permsBefore && permsAfter) {
    for (const name of [...new Set(permsAfter)].filter((p) => !permsBefore.includes(p)).sort()) {
      const dangerous = DANGEROUS_PERMISSIONS.has(name);
      add({
        kind: "permission-added",
        severity: dangerous ? "danger" : "warning",
        message: `Permission added: ${name}${dangerous ? " (asks the user: it guards personal data)" : ""}`,
        from: null,
        to: name,
      });
    }
    for (const name of [...new Set(permsBefore)].filter((p) => !permsAfter.includes(p)).sort()) {
      add({ kind: "permission-removed", severity: "info", message: `Permission removed: ${name}`, from: name, to: null });
    }
  }

  const signersBefore = androidSigners(before);
  const signersAfter = androidSigners(after);
  if (signersBefore && signersAfter && !sameSet(signersBefore, signersAfter)) {
    add({
      kind: "signing-key-changed",
      severity: "danger",
      message: `Signed with another key (${shortHash(signersAfter)}, was ${shortHash(signersBefore)}): it will not install over the previous build`,
      from: signersBefore.join(","),
      to: signersAfter.join(","),
    });
  }

  const profileBefore = provisioningOf(before);
  const profileAfter = provisioningOf(after);
  if (profileBefore && profileAfter) {
    const certsBefore = profileBefore.developerCertificateSha256;
    const certsAfter = profileAfter.developerCertificateSha256;
    if (certsBefore?.length && certsAfter?.length && !sameSet(certsBefore, certsAfter)) {
      add({
        kind: "signing-key-changed",
        severity: "warning",
        message: `The profile allows other signing certificates (${shortHash(certsAfter)}, was ${shortHash(certsBefore)})`,
        from: certsBefore.join(","),
        to: certsAfter.join(","),
      });
    }
    if (profileBefore.kind && profileAfter.kind && profileBefore.kind !== profileAfter.kind) {
      add({
        kind: "profile-kind-changed",
        severity: "warning",
        message: `Profile kind ${profileBefore.kind} → ${profileAfter.kind}`,
        from: profileBefore.kind,
        to: profileAfter.kind,
      });
    }
    if (profileBefore.teamId && profileAfter.teamId && profileBefore.teamId !== profileAfter.teamId) {
      add({
        kind: "team-changed",
        severity: "danger",
        message: `Signed by another team (${profileAfter.teamId}, was ${profileBefore.teamId}): it will not install over the previous build`,
        from: profileBefore.teamId,
        to: profileAfter.teamId,
      });
    }
    if (profileBefore.expiresAt && profileAfter.expiresAt && profileBefore.expiresAt !== profileAfter.expiresAt) {
      const sooner = profileAfter.expiresAt < profileBefore.expiresAt;
      add({
        kind: "profile-expiry-changed",
        severity: sooner ? "warning" : "info",
        message: `Profile expires ${profileAfter.expiresAt.slice(0, 10)} (was ${profileBefore.expiresAt.slice(0, 10)})`,
        from: profileBefore.expiresAt,
        to: profileAfter.expiresAt,
      });
    }
    const devicesBefore = profileBefore.provisionedDevices;
    const devicesAfter = profileAfter.provisionedDevices;
    if (devicesBefore !== undefined && devicesAfter !== undefined && devicesBefore !== devicesAfter) {
      const fewer = devicesAfter < devicesBefore;
      add({
        kind: "profile-devices-changed",
        severity: fewer ? "warning" : "info",
        message: `Devices in the profile: ${devicesBefore} → ${devicesAfter}${fewer ? " (some testers' devices can no longer install it)" : ""}`,
        from: devicesBefore,
        to: devicesAfter,
      });
    }
    const entBefore = profileBefore.entitlements;
    const entAfter = profileAfter.entitlements;
    if (entBefore && entAfter) {
      for (const name of entAfter.filter((e) => !entBefore.includes(e)).sort()) {
        add({ kind: "entitlement-added", severity: "warning", message: `Entitlement added: ${name}`, from: null, to: name });
      }
      for (const name of entBefore.filter((e) => !entAfter.includes(e)).sort()) {
        add({ kind: "entitlement-removed", severity: "info", message: `Entitlement removed: ${name}`, from: name, to: null });
      }
    }
  }

  changes.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || CHANGE_KINDS.indexOf(a.kind) - CHANGE_KINDS.indexOf(b.kind));
  return {
    previous: { fileId: previous.fileId, version: before.version, buildNumber: buildBefore ?? null },
    changes,
  };
}

/**
 * The severity of a diff's most severe change (changes come most severe first), null when nothing
 * changed or there is no diff: what a file list marks without carrying every change.
 */
export function diffSeverity(diff: BuildDiff | null | undefined): ChangeSeverity | null {
  return diff?.changes[0]?.severity ?? null;
}

/**
 * The kinds a `--fail-on` list names (group names expanded), and the names it does not know:
 * the CLI refuses an unknown name before uploading rather than gate on nothing.
 */
export function parseChangeKinds(list: string): { kinds: ChangeKind[]; unknown: string[] } {
  const kinds = new Set<ChangeKind>();
  const unknown: string[] = [];
  for (const raw of list.split(",")) {
    const name = raw.trim();
    if (!name) continue;
    if ((CHANGE_KINDS as readonly string[]).includes(name)) kinds.add(name as ChangeKind);
    // Own keys only: "constructor" or "__proto__" are unknown names, not groups.
    else if (Object.hasOwn(CHANGE_KIND_GROUPS, name)) for (const kind of CHANGE_KIND_GROUPS[name]!) kinds.add(kind);
    else unknown.push(name);
  }
  return { kinds: [...kinds], unknown };
}
