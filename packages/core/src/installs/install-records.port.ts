import type { DeviceFamily, FileInstall, InstallVia } from "./installs.schema";

/** What a personal install link names: one build for one tester (the `installLink` item). */
export interface InstallLinkTarget {
  email: string;
  fileId: string;
  projectId: string;
  workspaceId: string;
}

/**
 * A token's item: the link, the trace a deleted build's links leave (`"removed"`: its visitors get
 * a 410 that says so), or nothing (a token never handed out: 404).
 */
export type FoundInstallLink = InstallLinkTarget | "removed" | undefined;

/** What one counted request adds to a tester's record of a build. */
export interface InstallEvent {
  target: InstallLinkTarget;
  kind: "download" | "installStart";
  /** ISO time of the request. */
  at: string;
  deviceFamily: DeviceFamily;
  via: InstallVia;
  /** The build as the lists show it (copied onto the records: the history needs no file reads). */
  build: { platform: string | null; version: string | null; build: string | null };
}

/** One tester's record of one build (`install` item): the file page's row, and the build it is of. */
export interface InstallRecord extends FileInstall {
  fileId: string;
  projectId: string;
  workspaceId: string;
  platform: string | null;
  version: string | null;
  build: string | null;
}

/** Personal install links and what testers did with them (docs/testers.md). */
export interface InstallRecords {
  /** One read of `installLink(<hash>)`, strongly consistent: a deleted build's link is dead at once. */
  findLink(tokenHash: string): Promise<FoundInstallLink>;
  /** Whether `sessionId` (the SHA-256 of a `hangar_tester` cookie) is a live tester session of `email`. */
  testerSession(email: string, sessionId: string, now: Date): Promise<boolean>;
  /**
   * Counts the request on the tester's `install` item and makes the build their `lastInstall` of
   * the workspace, in one transaction that holds only while the build is still there (completed):
   * false, and nothing written, once its delete has begun.
   */
  record(event: InstallEvent): Promise<boolean>;
  /** Every tester's record of a build. */
  listByFile(fileId: string): Promise<InstallRecord[]>;
  /** A tester's records in a workspace, newest `lastAt` first, at most `limit`. */
  listByTester(workspaceId: string, email: string, limit: number): Promise<InstallRecord[]>;
}
