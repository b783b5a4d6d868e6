/**
 * Tester access (issue 20, docs/testers.md "Tester sign-in and the portal API"): the request
 * schemas of the tester pages' forms and the answers they read. Browser-safe (zod/mini and types
 * only): the web app imports this file through `@hangar/core/tester-access-schema`. The server
 * parses the addresses with accounts' normalizing `Email` (node, tester-access-input.ts); the form
 * checks them here with the same `emailProblem` rule, so neither restates it.
 */
import * as z from "zod/mini";
import { emailProblem, MAX_EMAIL_LENGTH, Token } from "../accounts/account-input.schema";
import type { DeviceVerdictKind, VerdictDevice } from "../devices/device-verdict";

/** A tester's address as the form checks it (trimmed, lower case; the server also punycodes a Unicode domain). */
export const TesterEmailForm = z.pipe(
  z.string().check(z.maxLength(MAX_EMAIL_LENGTH * 4, `must be at most ${MAX_EMAIL_LENGTH} characters`)),
  z.transform((s) => s.trim().toLowerCase()),
).check(z.refine((e) => emailProblem(e) === undefined, { error: (issue) => emailProblem(String(issue.input)) ?? "is invalid" }));

/** `POST /api/tester/session {token}`: the magic link's token (43 base64url characters, checked before any lookup). */
export const TesterTokenInput = z.object({ token: Token });
export type TesterTokenInput = z.infer<typeof TesterTokenInput>;

/** `POST /api/join/preview {token}`: the invite link's token (`{public}/join/<token>`), the same shape. */
export const JoinLinkInput = z.object({ token: Token });
export type JoinLinkInput = z.infer<typeof JoinLinkInput>;

/** `POST /api/tester/sign-in` and `POST /api/join`: 202 whatever the address (no enumeration). */
export interface TesterMailAnswer {
  status: "sent";
}

/** The group a join token added the tester to (`POST /api/tester/session` with a join token). */
export interface JoinedGroup {
  groupId: string;
  groupName: string;
  workspaceName: string;
}

/** `POST /api/tester/session` (200, with the `hangar_tester` cookie). */
export interface TesterSessionAnswer {
  email: string;
  /** ISO time the session ends (30 days after sign-in). */
  expiresAt: string;
  /** Set when the link was a join confirmation: the tester is now in this group. */
  joined: JoinedGroup | null;
}

/** `GET /api/tester/session`. */
export interface TesterSessionView {
  email: string;
  expiresAt: string;
}

/** `POST /api/join/preview`: what the join page shows before asking for an address (410 `join_link_gone` otherwise). */
export interface JoinPreview {
  groupName: string;
  workspaceName: string;
  /** ISO time the link stops working, or null when it does not expire. */
  expiresAt: string | null;
  open: boolean;
}

/**
 * Whether the build installs on the device the request's `hangar_ios_device` cookie names
 * (docs/devices.md "The verdict"): `unknown-device` asks the page to offer "Check this iPhone"
 * (the answer's `enrollUrl`); `not-applicable` for Android, App Store, enterprise, expired builds
 * and builds stored without their profile's UDIDs.
 */
export interface TesterBuildDevice {
  verdict: DeviceVerdictKind;
  /** The device the cookie names, for `in-profile` and `not-in-profile`; null otherwise. */
  device: VerdictDevice | null;
  /** `not-in-profile`: the build's workspace has the device now (the team sees it on its Devices page). */
  told: boolean;
}

/** One build sent to this tester, as the portal shows it. */
export interface TesterBuild {
  fileId: string;
  platform: "ios" | "android" | null;
  appName: string | null;
  bundleId: string | null;
  version: string | null;
  build: string | null;
  /** When the upload completed (ISO). */
  uploadedAt: string;
  /** Bytes. */
  size: number;
  releaseNotes: string | null;
  /** The uploader's message to testers, from the distribution that first sent it (null without one). */
  message: string | null;
  /** The tester's personal install page of this build (`{share}/install/<token>`): installs through it count for them. */
  installUrl: string;
  /** A presigned address of the app's icon (an hour), or null when the package has none. */
  iconUrl: string | null;
  /** Whether it can be installed from a link now (an expired iOS profile cannot). */
  installable: boolean;
  /** Whether it installs on this iPhone (iOS development and ad hoc builds; see TesterBuildDevice). */
  device: TesterBuildDevice;
}

/** `GET /api/tester/apps`: one row per project something was sent to the tester from, newest first. */
export interface TesterAppSummary {
  projectId: string;
  projectName: string;
  workspaceName: string;
  latest: { ios: TesterBuild | null; android: TesterBuild | null };
}

export interface TesterApps {
  items: TesterAppSummary[];
  /** "Check this iPhone": the enroll flow on the share host, coming back to `/apps`. */
  enrollUrl: string;
}

/** `GET /api/tester/apps/{projectId}`: every build of the project sent to the tester, newest first. */
export interface TesterAppDetail {
  projectId: string;
  projectName: string;
  workspaceName: string;
  builds: TesterBuild[];
  /** "Check this iPhone": the enroll flow on the share host, coming back to this page. */
  enrollUrl: string;
}
