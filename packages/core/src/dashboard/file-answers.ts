/**
 * What the dashboard API answers about files and their share links: the one definition of these
 * shapes, for the use cases that build them and for the web app that reads them (through
 * `@hangar/core/file-answers`). Types only, importing nothing, so the browser build can use it.
 */

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
  iconUrl: string | null;
  /** The key that uploaded it (its name is null once the key is gone). */
  uploadedBy: { clientId: string; name: string | null };
  shareUrl: string | null;
  downloadUrl: string | null;
  /** The share link's state and counts; null while the build has no link (pending, rejected). */
  share: LinkSummary | null;
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
}
