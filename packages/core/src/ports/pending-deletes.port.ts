import type { PurgeTask } from "./background.port";

/** A project or workspace delete that has started and not finished, as its marker item records it. */
export type PendingDelete = PurgeTask & {
  startedAt: string;
  /** The last time a purge step started on it: a delete whose progress is old has lost its worker. */
  progressAt: string;
};

/**
 * Markers of unfinished deletes, findable without scanning the table: written when a delete
 * starts, touched by every purge step, removed when the project (or workspace) is gone. The housekeeping sweep
 * resumes those whose progress is older than STALE_DELETE_MS (a failed background run leaves one).
 */
export interface PendingDeletes {
  /** Idempotent: a second start keeps the first `startedAt`. */
  started(task: PurgeTask, at: string): Promise<void>;
  /** Refreshes `progressAt`; does nothing when the marker is gone (the delete finished). */
  progressed(task: PurgeTask, at: string): Promise<void>;
  finished(task: PurgeTask): Promise<void>;
  /** Markers whose last progress is before `progressBefore`, oldest first, at most `limit`. */
  stale(progressBefore: string, limit: number): Promise<PendingDelete[]>;
}
