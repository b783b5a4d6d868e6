/*
 * The tester access API's answers (issue 20, /api/tester/* and /api/join*), as the contract states
 * them. They belong in core's browser-safe `@hangar/core/tester-access-schema`; until that file
 * has them this is the one place that declares them, so switching is one import line here.
 */

/** `GET /api/tester/session`: who this browser's tester session is. */
export interface TesterSession {
  email: string;
  expiresAt: string;
}

/** `POST /api/tester/session`: the session a magic link opened, and the group it joined (a join link's mail). */
export interface TesterSignedIn extends TesterSession {
  joined: null | { groupId: string; groupName: string; workspaceName: string };
}

/** One build sent to the signed-in tester. */
export interface TesterBuild {
  fileId: string;
  platform: "ios" | "android";
  appName: string | null;
  bundleId: string | null;
  version: string | null;
  build: string | null;
  uploadedAt: string;
  size: number;
  releaseNotes: string | null;
  /** What the person who sent the build wrote to the testers. */
  message: string | null;
  /** The tester's personal install link (`{share}/install/<token>`): the build's install page. */
  installUrl: string;
  iconUrl: string | null;
  /** False for an iOS build iOS would refuse (expired or store-signed profile, no device list). */
  installable: boolean;
}

/** `GET /api/tester/apps`: one row per app, its newest build per platform. */
export interface TesterApp {
  projectId: string;
  projectName: string;
  workspaceName: string;
  latest: { ios: TesterBuild | null; android: TesterBuild | null };
}

/** `GET /api/tester/apps/{projectId}`: the builds of one app sent to the tester, newest first. */
export interface TesterAppDetail {
  projectId: string;
  projectName: string;
  workspaceName: string;
  builds: TesterBuild[];
}

/** `POST /api/join/preview`: what a group's invite link offers (410 `join_link_gone` when it does not). */
export interface JoinPreview {
  groupName: string;
  workspaceName: string;
  expiresAt: string | null;
  /** False when the link no longer takes members (full or closed) though it still exists. */
  open: boolean;
}
