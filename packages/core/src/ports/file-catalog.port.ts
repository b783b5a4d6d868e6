import type { FileRecord } from "./file-repository.port";

export interface FilePage {
  items: FileRecord[];
  /** The sort key of the last item when more may follow; undefined on the last page. */
  after?: string;
}

/** What a file list shows of a build's share link: its counts and what decides its state (never the password). */
export interface LinkStats {
  enabled: boolean;
  expiresAt?: string;
  maxDownloads?: number;
  hasPassword: boolean;
  downloads: number;
  installs: number;
}

/** The dashboard's view of a project's files, newest first (gsi1 `PROJECT#<id>` / `FILE#<createdAt>#<fileId>`). */
export interface FileCatalog {
  get(fileId: string): Promise<FileRecord | undefined>;
  /** One page of at most `limit` files, newest first, continuing after the sort key `after`. */
  page(projectId: string, limit: number, after?: string): Promise<FilePage>;
  /** The stats of these live share links (a page of a list, at most 100), in batched reads; others are absent. */
  linkStats(userKeys: string[]): Promise<Map<string, LinkStats>>;
  /** Removes the record and its share item (if any). */
  remove(file: FileRecord): Promise<void>;
  /** Removes many records and their share items (purges), in batches. */
  removeMany(files: FileRecord[]): Promise<void>;
  /**
   * Pins or unpins a completed build (retention never removes a pinned one) and answers the
   * record as written; undefined when the file is gone or not completed.
   */
  setPinned(fileId: string, pinned: boolean): Promise<FileRecord | undefined>;
}
