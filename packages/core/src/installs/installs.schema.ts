// Issue 20 (docs/testers.md, "Personal install links and who installed what"): the answers of the
// installs routes, browser-safe (types only, no node imports): the dashboard imports them.

/**
 * The kind of device a tester used, from the user agent of their latest counted request: an
 * iPhone's or iPad's installer says `model/iPhone…`/`model/iPad…`, browsers name their platform.
 * `other` is a program that names none (curl, a script).
 */
export type DeviceFamily = "iPhone" | "iPad" | "Android" | "desktop" | "other";

/**
 * How the tester came: `link` through the personal link of a mail, `portal` when a request for
 * this build carried their tester session (the portal's cookie) of the same address. Once a
 * request came through the portal it stays `portal`: iOS's installer fetches the manifest and the
 * package without cookies, so the later requests of one install can never say so themselves.
 */
export type InstallVia = "link" | "portal";

/** One tester's use of one build (`GET /api/files/{fileId}/installs`), newest `lastAt` first. */
export interface FileInstall {
  email: string;
  /** ISO times of the first and the latest counted request. */
  firstAt: string;
  lastAt: string;
  /** Counted GETs of the personal download (iOS's installer fetches the package this way too). */
  downloads: number;
  /** Counted install starts: an iPhone or iPad fetching the personal manifest. */
  installStarts: number;
  deviceFamily: DeviceFamily;
  via: InstallVia;
}

export interface FileInstalls {
  items: FileInstall[];
}

/** One build a tester got in a workspace (`GET /api/workspaces/{workspaceId}/testers/{email}/installs`). */
export interface TesterInstall {
  fileId: string;
  projectId: string;
  /** Null when the project is gone or no longer readable. */
  projectName: string | null;
  platform: string | null;
  version: string | null;
  build: string | null;
  firstAt: string;
  lastAt: string;
  downloads: number;
  installStarts: number;
  deviceFamily: DeviceFamily;
  via: InstallVia;
}

export interface TesterInstalls {
  items: TesterInstall[];
}
