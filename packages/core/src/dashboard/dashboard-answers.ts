/**
 * What the dashboard API answers: the one definition of these shapes, for the use cases that
 * build them and for the web app that reads them (through `@hangar/core/dashboard-answers`).
 * Types only (its one import is a type from a file that imports nothing), so the browser build can use it.
 */
import type { InstallBlocker } from "../upload/installability";

/** A list answer: every list is one page today (`nextCursor` null) except a project's files. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface ProjectAnswer {
  projectId: string;
  /** The workspace it belongs to. */
  workspaceId: string;
  name: string;
  description: string;
  color: string;
  /** The badge colors the dashboard paints (from the one palette). */
  colorHex: string;
  status: "active" | "deleting";
  fileCount: number;
  lastUploadAt: string | null;
  createdAt: string;
  /** The retention policy the daily run applies (docs/release-safety.md); null when none. A number null does not apply. */
  retention: { keepLatest: number | null; maxAgeDays: number | null } | null;
  /** Bytes of the completed builds stored; null for an old project the deploy's migration could not count yet (its first list counts it). */
  storageBytes: number | null;
}

/** `GET /api/projects/{projectId}/retention/preview`: what the daily run would remove now. */
export interface RetentionPreviewAnswer {
  policy: { keepLatest: number | null; maxAgeDays: number | null } | null;
  /** Oldest first. */
  items: {
    fileId: string;
    platform: string;
    version: string | null;
    build: string | null;
    branch: string | null;
    completedAt: string;
    size: number;
    reasons: ("over_keep_latest" | "older_than_max_age")[];
  }[];
  /** The bytes these builds free. */
  bytes: number;
}

/** An API key as lists show it: never its secret. */
export interface KeyAnswer {
  clientId: string;
  name: string;
  projectId: string;
  projectName: string;
  /** The workspace of its project: the key belongs to it, not to who created it. */
  workspaceId: string;
  /** Who created it; `email` null once that account is gone (the key keeps working). */
  createdBy: { userId: string; email: string | null };
  status: "active" | "revoked";
  createdAt: string;
  lastUsedAt: string | null;
}

/** The answer of create and regenerate, the only ones that carry the secret. */
export interface CreatedKeyAnswer extends KeyAnswer {
  clientSecret: string;
}

/** One UTC day of a key's usage; `accepted` and `rateLimited` add up to its requests. */
export interface UsageDayAnswer {
  day: string;
  accepted: number;
  rateLimited: number;
  uploads: number;
  bytes: number;
}

export interface KeyUsage {
  clientId: string;
  from: string;
  to: string;
  days: UsageDayAnswer[];
  totals: { accepted: number; rateLimited: number; uploads: number; bytes: number };
  lastUsedAt: string | null;
}

/** Why a link that exists serves nothing, or `open`; the order is what the owner would fix first. */
export type LinkState = "open" | "disabled" | "expired" | "capped";

/** What a row of a file list shows of the build's link. */
export interface LinkSummary {
  state: LinkState;
  hasPassword: boolean;
  downloads: number;
  installs: number;
}

/** What the owner sees of a link: its settings (never the password), its counts and their days. */
export interface LinkView extends LinkSummary {
  userKey: string;
  shareUrl: string;
  enabled: boolean;
  expiresAt: string | null;
  maxDownloads: number | null;
  /** The last 30 UTC days, oldest first. */
  daily: { day: string; downloads: number; installs: number }[];
}

export interface FileSummary {
  fileId: string;
  projectId: string;
  fileName: string;
  fileSize: number;
  status: "pending" | "completed" | "rejected";
  rejection: { reason: string; message: string } | null;
  createdAt: string;
  completedAt: string | null;
  appName: string | null;
  version: string | null;
  buildNumber: string | null;
  platform: string | null;
  bundleId: string | null;
  /** Why testers cannot install this completed build from its link right now (core's installability); null when they can. */
  installBlocker: InstallBlocker | null;
  iconUrl: string | null;
  /** The key that uploaded it (its name is null once the key is gone); both null when uploaded from the dashboard. */
  uploadedBy: { clientId: string | null; name: string | null };
  shareUrl: string | null;
  downloadUrl: string | null;
  /** The share link's state and counts; null while the build has no link (pending, rejected). */
  share: LinkSummary | null;
  /** Kept whatever the project's retention policy says (`PATCH /api/files/{fileId}`). */
  pinned: boolean;
  /**
   * The most severe change since the previous build of the same app, as complete stored it
   * (docs/release-safety.md); null for a first build, one with no change, or one completed before
   * diffs were stored. Lists mark `danger`.
   */
  diffSeverity: "danger" | "warning" | "info" | null;
}

export interface FileDetail extends FileSummary {
  /** The share link's settings (never its password), counts and daily series; null without a link. */
  share: LinkView | null;
  fileType: string;
  projectName: string;
  /** Everything the extractor found (permissions, SDKs, locales, provisioning…). */
  metadata: Record<string, unknown> | null;
  /** Epoch seconds after which a pending upload is dead. */
  expiresAt: number | null;
  /** What CI sent with complete (release notes, where the build came from); null where nothing was sent. */
  releaseNotes: string | null;
  branch: string | null;
  commit: string | null;
  ciUrl: string | null;
}
