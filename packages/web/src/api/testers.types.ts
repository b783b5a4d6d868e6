/*
 * The testers API's answers (issue 20), as the shared contract fixes them (CONTRACT-20: "HTTP API").
 * They MIRROR the contract until core's browser-safe modules carry them: `@hangar/core/tester-groups-schema`,
 * `distribution-schema`, `installs-schema` and `app-pages-schema`. This is the one file to switch to
 * those imports (re-export them under these names); nothing else in the web app declares these shapes.
 */

/** A group's self-service invite link (`{public}/join/<token>`); `url` can be shown again at any time. */
export interface InviteLink {
  url: string;
  createdAt: string;
  expiresAt: string | null;
  maxMembers: number | null;
  joinedCount: number;
}

export interface Group {
  groupId: string;
  workspaceId: string;
  name: string;
  testerCount: number;
  createdAt: string;
  inviteLink: InviteLink | null;
}

/** The build a tester last installed in the workspace (any project). */
export interface LastInstall {
  fileId: string;
  projectId: string;
  platform: string;
  version: string | null;
  build: string | null;
  at: string;
}

export interface GroupTester {
  email: string;
  addedAt: string;
  /** `added` by a member; `joined` through the group's invite link. */
  source: "added" | "joined";
  lastInstall: LastInstall | null;
}

export type GroupDetail = Group & { testers: GroupTester[] };

/** `POST /api/groups/{groupId}/testers`: what became of each address, and the group after it. */
export type AddTestersAnswer = Group & { added: string[]; already: string[]; invalid: string[] };

/** `GET /api/workspaces/{workspaceId}/testers`: every tester of the workspace with their groups. */
export interface WorkspaceTester {
  email: string;
  groups: { groupId: string; name: string }[];
  lastInstall: LastInstall | null;
}

/** `GET /api/workspaces/{workspaceId}/testers/{email}/installs`, newest first. */
export interface TesterInstall {
  fileId: string;
  projectId: string;
  projectName: string;
  platform: string;
  version: string | null;
  build: string | null;
  firstAt: string;
  lastAt: string;
  deviceFamily: string;
}

export interface DistributeInput {
  groups?: string[];
  testers?: string[];
  notify?: boolean;
  message?: string;
}

/** recipients: distinct addresses named; queued: new mails (a tester already sent this build gets none). */
export interface DistributeAnswer {
  distributionId: string;
  recipients: number;
  queued: number;
}

export interface Distribution {
  distributionId: string;
  createdAt: string;
  createdBy: { userId: string; email: string | null } | { clientId: string };
  groups: { groupId: string; name: string }[];
  testers: string[];
  message: string | null;
  notify: boolean;
  recipients: number;
}

export type RecipientStatus = "queued" | "sent" | "suppressed" | "unsubscribed" | "capped" | "failed" | "silent";

export interface Recipient {
  email: string;
  status: RecipientStatus;
  sentAt: string | null;
}

export interface DistributionsAnswer {
  items: Distribution[];
  recipients: Recipient[];
}

/** `GET /api/files/{fileId}/installs`: one row per tester who fetched this build through their link or the portal. */
export interface FileInstall {
  email: string;
  firstAt: string;
  lastAt: string;
  downloads: number;
  installStarts: number;
  deviceFamily: string;
  via: "link" | "portal";
}

export interface AppPageInput {
  enabled: boolean;
  password?: string | null;
  regenerate?: boolean;
}

export interface AppPage {
  enabled: boolean;
  url: string | null;
  passwordProtected: boolean;
}

export interface UpdateToken {
  tokenId: string;
  name: string;
  createdAt: string;
  createdBy?: string;
  lastUsedAt?: string | null;
}

/** The create answer: the token itself (`hut_…`) is shown this once. */
export type CreatedUpdateToken = UpdateToken & { token: string };
