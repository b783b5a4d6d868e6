/*
 * The testers API's answers (issue 20). Those core defines come from its browser-safe modules
 * (`@hangar/core/distribution-schema`, `installs-schema`: types only, nothing reaches the bundle).
 * The rest MIRROR the shared contract (CONTRACT-20, "HTTP API") until `@hangar/core/tester-groups-schema`
 * and `app-pages-schema` carry them: this is the one file to switch to those imports (re-export them
 * under these names); nothing else in the web app declares these shapes.
 */
export type {
  DistributionAnswer as DistributeAnswer,
  DistributionsAnswer,
  DistributionView as Distribution,
  RecipientStatus,
} from "@hangar/core/distribution-schema";
export type { DeviceFamily, FileInstall, InstallVia, TesterInstall } from "@hangar/core/installs-schema";

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

/** The body of a distribute as the dashboard sends it (core's `DistributeInput` with its defaults left out). */
export interface DistributeInput {
  groups?: string[];
  testers?: string[];
  notify?: boolean;
  message?: string;
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
