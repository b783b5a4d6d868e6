import type { AuditEntryInput, SharedFile } from "../ports";
import type { Role } from "../workspaces/roles";

/** The owner's controls on a share link, stored on its share item beside what the page serves. */
export interface ShareLink extends SharedFile {
  /** False once the owner turned the link off. */
  enabled: boolean;
  /** ISO time after which the link answers 410. */
  expiresAt?: string;
  /** Self-describing scrypt hash of the link's password; never leaves the server. */
  passwordHash?: string;
  /** Random per-link key of the access tokens (cookie, manifest URLs): replaced with the password or the key. */
  tokenSecret?: string;
  /** Downloads admitted in all; the next one answers 410. */
  maxDownloads?: number;
  downloads: number;
  /** iOS install requests (manifest fetches by iOS, see isIosInstallRequest). */
  installs: number;
  /** Per-UTC-day counts, `YYYY-MM-DD` → counts, the last days only. */
  days: Record<string, { downloads: number; installs: number }>;
}

/** A change of settings: undefined keeps a value, null clears it. */
export interface ShareLinkChanges {
  enabled?: boolean;
  expiresAt?: string | null;
  /** A new password hash and token secret together, or null to remove the password. */
  password?: { hash: string; tokenSecret: string } | null;
  maxDownloads?: number | null;
}

/**
 * Whose link a change is for: the workspace, the file's project (in it), the file and its link's
 * key; and who asks: the change is made only while they are a member with one of `roles`.
 */
export interface LinkOwner {
  workspaceId: string;
  member: { userId: string; roles: readonly Role[] };
  projectId: string;
  fileId: string;
  userKey: string;
}

/** A download admitted and counted, or why not: the link was turned off, reached its cap, or ended (removed/replaced) meanwhile. */
export type DownloadCount = "counted" | "capped" | "disabled" | "removed" | "replaced";

/** Why a key that once served a build no longer does: the build was deleted, or the link regenerated. */
export type LinkEnd = "removed" | "replaced";

/** What a deleted or regenerated link leaves under its key for a while, so visitors learn why (410). */
export interface EndedLink {
  userKey: string;
  ended: LinkEnd;
}

export interface ShareLinks {
  /** Strongly consistent: a regenerated or disabled link is dead on the very next request. */
  get(userKey: string): Promise<ShareLink | undefined>;
  /** What a visitor's key names: a live link, the trace of an ended one, or nothing (never handed out). */
  find(userKey: string): Promise<ShareLink | EndedLink | undefined>;
  /** Applies the changes to an existing share item; false when it no longer exists. */
  update(userKey: string, changes: ShareLinkChanges): Promise<boolean>;
  /**
   * Applies the changes only while the link is still the file's, the file's project is still in
   * the workspace and not being deleted, and the caller is a member with one of the allowed
   * roles, all checked in the same write, which also puts `audit` (the entry of this change): the
   * controls need no reads of the project, the membership or the link before it, and the log holds
   * exactly the changes made. False (nothing changed, nothing logged) otherwise.
   */
  updateOwned(owner: LinkOwner, changes: ShareLinkChanges, audit: AuditEntryInput): Promise<boolean>;
  /**
   * Moves the link to a new key in one transaction: the new share item (same file, settings and
   * counts, a new token secret), the old one replaced by its trace, the file record pointing at the new key.
   * False when the old link is no longer the file's (a concurrent regenerate or delete).
   */
  regenerate(link: ShareLink, newUserKey: string, tokenSecret: string): Promise<boolean>;
  /** One download, atomically, admitted only below the cap: exactly `maxDownloads` ever pass. */
  countDownload(userKey: string, day: string): Promise<DownloadCount>;
  /** One iOS install request. */
  countInstall(userKey: string, day: string): Promise<void>;
}
