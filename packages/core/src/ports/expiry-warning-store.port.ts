import type { ExpiryKind } from "../releases/expiry-warnings";

/** A project the daily expiry run looks at. */
export interface WatchedProject {
  workspaceId: string;
  projectId: string;
  name: string;
}

/**
 * What the daily expiry-warning run stores (docs/release-safety.md, "Expiry warnings"): markers of
 * thresholds settled per build (`FILE#<id>` / `EXPIRYWARNING#<kind>#<days>`, purged with the build)
 * and each dashboard user's opt-out of these mails (`USER#<id>` / `PREF#expiry-mail`).
 */
export interface ExpiryWarningStore {
  /** Every active project of every workspace, a page at a time. */
  projects(): AsyncIterable<WatchedProject[]>;
  /** The markers (`expiryMarker(...)`) already stored for these builds. */
  settled(fileIds: readonly string[]): Promise<Set<string>>;
  /**
   * Writes the marker of one threshold unless it exists (a conditional put): true for the one run
   * that wrote it, which alone mails. Written before the mail, so two runs never both send.
   */
  claim(fileId: string, kind: ExpiryKind, thresholdDays: number, at: string): Promise<boolean>;
  /** Marks wider thresholds as passed (a run that reached several at once mails only the tightest). */
  settle(fileId: string, kind: ExpiryKind, thresholds: readonly number[], at: string): Promise<void>;
  /** Takes a claim back when no mail at all went out (the mail service was down): the next run retries. */
  release(fileId: string, kind: ExpiryKind, thresholdDays: number): Promise<void>;
  /** Which of these users opted out of expiry warnings. */
  optedOut(userIds: readonly string[]): Promise<Set<string>>;
  /** Records a user's opt-out (idempotent). */
  optOut(userId: string, at: string): Promise<void>;
}
