/**
 * Warnings before things expire (issue 24, docs/release-safety.md): a build installed from an
 * ad-hoc, development or enterprise profile stops launching when the profile expires, and a share
 * link with an expiry stops serving. The daily housekeeping run mails the workspace's admins once
 * per threshold and build: 30, 7 and 1 days before a profile expires, 1 day before a link does.
 *
 * Pure: which warnings are due now, given what was already sent. A run that missed days (or a
 * build uploaded 5 days before its profile expires) sends only the tightest threshold it has
 * reached and marks the wider ones as passed, so nobody gets "30 days left" and "7 days left" in
 * one morning. Browser-safe: no imports.
 */
export const PROFILE_THRESHOLDS_DAYS = [30, 7, 1] as const;
export const LINK_THRESHOLDS_DAYS = [1] as const;

export type ExpiryKind = "profile" | "link";

export interface ExpiringBuild {
  fileId: string;
  /** The profile's kind: App Store profiles do not stop installed builds, so they are never warned about. */
  profileKind?: string;
  profileExpiresAt?: string;
  linkExpiresAt?: string;
}

export interface ExpiryWarning {
  fileId: string;
  kind: ExpiryKind;
  /** The threshold reached (days). */
  thresholdDays: number;
  /** Whole days left, rounded up (0 = expires within the day, or already expired). */
  daysLeft: number;
  expiresAt: string;
  /** Every threshold this warning settles (the one sent and the wider ones it passed). */
  settles: number[];
}

/** The marker of one sent (or passed) threshold: what the run stores so it never mails twice. */
export const expiryMarker = (fileId: string, kind: ExpiryKind, thresholdDays: number) => `${fileId}#${kind}#${thresholdDays}`;

const DAY_MS = 24 * 60 * 60 * 1000;
const WARNED_PROFILE_KINDS = new Set(["ad-hoc", "development", "enterprise"]);

function due(fileId: string, kind: ExpiryKind, expiresAt: string | undefined, thresholds: readonly number[], sent: ReadonlySet<string>, now: Date): ExpiryWarning | undefined {
  const at = expiresAt === undefined ? NaN : Date.parse(expiresAt);
  if (!Number.isFinite(at) || at <= now.getTime()) return undefined;
  const daysLeft = Math.ceil((at - now.getTime()) / DAY_MS);
  const reached = thresholds.filter((t) => daysLeft <= t);
  if (reached.length === 0) return undefined;
  const tightest = Math.min(...reached);
  if (sent.has(expiryMarker(fileId, kind, tightest))) return undefined;
  return { fileId, kind, thresholdDays: tightest, daysLeft, expiresAt: expiresAt!, settles: reached.filter((t) => !sent.has(expiryMarker(fileId, kind, t))) };
}

/** The warnings due at `now`; `sent` holds the markers of thresholds already settled. */
export function expiryWarningsDue(builds: readonly ExpiringBuild[], sent: ReadonlySet<string>, now: Date): ExpiryWarning[] {
  const out: ExpiryWarning[] = [];
  for (const build of builds) {
    if (build.profileKind && WARNED_PROFILE_KINDS.has(build.profileKind)) {
      const w = due(build.fileId, "profile", build.profileExpiresAt, PROFILE_THRESHOLDS_DAYS, sent, now);
      if (w) out.push(w);
    }
    const link = due(build.fileId, "link", build.linkExpiresAt, LINK_THRESHOLDS_DAYS, sent, now);
    if (link) out.push(link);
  }
  return out;
}
