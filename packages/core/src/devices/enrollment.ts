import { randomBytes, randomInt } from "node:crypto";
import { NotFoundError, ValidationError } from "../errors/domain-errors";
import type { Clock, FileRepository, ProjectCatalog, RateLimiter } from "../ports";
import type { AppPageStore } from "../app-pages/app-page-store.port";
import type { InstallRecords } from "../installs/install-records.port";
import { USER_KEY } from "../links/link-access";
import { admit } from "../links/visit-link";
import type { TesterAccessDeps } from "../tester-access/tester-access-deps";
import { authenticateTester } from "../tester-access/tester-sessions";
import { INSTALL_LINK_TOKEN, installLinkHash } from "../testers/install-link";
import type { DeviceClaim } from "./device-cookie";
import { modelName } from "./device-models";
import type { DeviceStore, EnrollmentRecord, EnrollmentStore, TesterWorkspaces } from "./device-store.port";
import { ENROLL_TOKEN, MAX_DEVICES_PER_WORKSPACE } from "./devices.schema";
import { parseDeviceAnswer } from "./enroll-profile";
import { SignedDataError, verifiedContent } from "./signed-data";
import { hashSecret } from "../ids/random-ids";

/**
 * The one-tap enroll flow (docs/devices.md), Apple's Over-the-Air profile service:
 * 1. `GET /devices/enroll?return=<page>`: the page the tester came from decides the workspaces the
 *    device is recorded in and, when it knows, the tester's address; an enrollment is stored under
 *    the SHA-256 of a fresh 32-byte challenge and the profile carries the challenge.
 * 2. iOS installs the profile, posts its attributes signed by the device (`POST
 *    /devices/enroll/callback`); a live challenge makes the answer count: the device is recorded in
 *    each workspace, and iOS is sent (301) to the result page, whose address holds the challenge.
 * 3. `GET /devices/enrolled/<challenge>`: the result, and the signed device cookie.
 * An enrollment lives one hour; a challenge serves one device (iOS may post the same answer twice).
 */

/** How long a profile's challenge is good for: installing it takes the tester a minute or two. */
export const ENROLLMENT_TTL_SECONDS = 60 * 60;
/** A posted answer larger than this is not one (a real one is about 4 KB: the plist and the device's certificates). */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** A tester in groups of more workspaces than this has the device recorded in the first ones only. */
export const MAX_ENROLL_WORKSPACES = 50;

export const enrollmentHash: (challenge: string) => string = hashSecret;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export function newDeviceId(): string {
  let out = "dev_";
  for (let i = 0; i < 16; i++) out += BASE62[randomInt(62)];
  return out;
}

/** The enroll page's refusals: a page a tester cannot come back to, or one that names nobody's build. */
export class EnrollReturnError extends ValidationError {
  constructor(
    message: string,
    /** What the tester can do about it, for the page (the JSON names the field's problem). */
    readonly hint = "Open “Check this iPhone” from a build’s page (the link you were sent, or the tester portal) and try again.",
  ) {
    super([{ field: "return", message }]);
  }
}

/** An unknown, expired or unanswered enrollment's result page. */
export const enrollmentNotFound = () => new NotFoundError("enrollment_not_found", "No registration at this address: it is over an hour old, or the device never answered");

export interface EnrollDeps {
  enrollments: EnrollmentStore;
  devices: Pick<DeviceStore, "record">;
  testerWorkspaces: TesterWorkspaces;
  files: Pick<FileRepository, "getShared" | "get">;
  projects: Pick<ProjectCatalog, "workspaceOf">;
  installs: Pick<InstallRecords, "findLink">;
  appPages: Pick<AppPageStore, "bySlug">;
  testerSessions: TesterAccessDeps["sessions"];
  clock: Clock;
  limits: {
    /** Profiles handed out per client (`deviceEnroll`). */
    enroll: RateLimiter;
    /** Answers posted per client (`deviceEnrollAnswer`). */
    answer: RateLimiter;
  };
}

export interface EnrollRequest {
  /** `?return=`: the path of the page the tester came from. */
  returnTo: string;
  client: string;
  testerCookie?: string | undefined;
}

interface Target {
  workspaceIds: string[];
  email: string | null;
}

/** The tester of a live `hangar_tester` cookie, or undefined (no cookie, expired, forged). */
async function testerOf(deps: EnrollDeps, cookie: string | undefined): Promise<string | undefined> {
  if (!cookie) return undefined;
  try {
    return (await authenticateTester({ sessions: deps.testerSessions, clock: deps.clock }, cookie)).email;
  } catch {
    return undefined;
  }
}

async function workspaceOfFile(deps: EnrollDeps, fileId: string, projectId: string): Promise<string | undefined> {
  const record = await deps.files.get(fileId);
  return record?.workspaceId ?? (await deps.projects.workspaceOf(projectId));
}

/** The workspaces and address a return path means; EnrollReturnError when it names nothing Hangar serves. */
async function targetOf(deps: EnrollDeps, returnTo: string, testerCookie: string | undefined): Promise<Target> {
  const segments = returnTo.split("/");
  const [empty, first, second, third, ...rest] = segments;
  if (empty !== "" || rest.length > 0 || /[?#\\]/.test(returnTo)) throw new EnrollReturnError("is not a page of this service");
  if (first === "share" && second !== undefined && third === undefined && USER_KEY.test(second)) {
    const shared = await deps.files.getShared(second);
    const workspaceId = shared && (await workspaceOfFile(deps, shared.fileId, shared.projectId));
    if (!workspaceId) throw new EnrollReturnError("names no shared build");
    return { workspaceIds: [workspaceId], email: (await testerOf(deps, testerCookie)) ?? null };
  }
  if (first === "install" && second !== undefined && third === undefined && INSTALL_LINK_TOKEN.test(second)) {
    const link = await deps.installs.findLink(installLinkHash(second));
    if (!link || link === "removed") throw new EnrollReturnError("names no install link");
    return { workspaceIds: [link.workspaceId], email: link.email };
  }
  if (first === "apps" && second !== undefined && third === undefined && second.length > 0 && second.length <= 96) {
    const project = await deps.appPages.bySlug(second);
    if (!project || project.status !== "active" || !project.appPage?.enabled) throw new EnrollReturnError("names no app page");
    return { workspaceIds: [project.workspaceId], email: (await testerOf(deps, testerCookie)) ?? null };
  }
  const portal = (first === "apps" && second === undefined) || (first === "tester" && second === "apps" && third !== undefined && /^[A-Za-z0-9_]{1,64}$/.test(third));
  if (portal) {
    const email = await testerOf(deps, testerCookie);
    if (!email) throw new EnrollReturnError("is a tester page: sign in to the tester portal first", "Sign in to the tester portal first (the link in your invitation mail), then tap “Check this iPhone” again.");
    const workspaceIds = (await deps.testerWorkspaces.workspacesOf(email)).sort().slice(0, MAX_ENROLL_WORKSPACES);
    if (workspaceIds.length === 0) throw new EnrollReturnError("is a tester page, and you are in no tester group yet", "You are in no tester group yet. Open the build’s link you were sent and tap “Check this iPhone” there.");
    return { workspaceIds, email };
  }
  throw new EnrollReturnError("is not a page of this service");
}

/** Step 1: the enrollment, and the challenge its profile must carry. */
export async function startEnrollment(deps: EnrollDeps, request: EnrollRequest): Promise<{ challenge: string; returnTo: string }> {
  const now = deps.clock.now();
  await admit(deps.limits.enroll, request.client, "client", now);
  const target = await targetOf(deps, request.returnTo, request.testerCookie);
  const challenge = randomBytes(32).toString("base64url");
  const record: EnrollmentRecord = {
    challengeHash: enrollmentHash(challenge),
    workspaceIds: target.workspaceIds,
    email: target.email,
    returnTo: request.returnTo,
    createdAt: now.toISOString(),
    ttl: Math.floor(now.getTime() / 1000) + ENROLLMENT_TTL_SECONDS,
  };
  await deps.enrollments.createEnrollment(record);
  return { challenge, returnTo: request.returnTo };
}

const refused = (message: string) => new ValidationError([{ field: "body", message }]);

/**
 * Step 2: a device's signed answer. Checked in order, nothing stored until all pass: its size, the
 * CMS signature over the content, the plist and each field, a live challenge. Then the device is
 * recorded in each workspace of the enrollment (a workspace at its limit is left out) and the
 * answer kept on the enrollment for the result page. Answers the challenge (the result page's token).
 */
export async function answerEnrollment(deps: EnrollDeps, body: Uint8Array, client: string): Promise<{ token: string }> {
  const now = deps.clock.now();
  await admit(deps.limits.answer, client, "client", now);
  if (body.byteLength === 0) throw refused("is empty: post the device's signed answer");
  if (body.byteLength > MAX_ANSWER_BYTES) throw refused(`is larger than ${MAX_ANSWER_BYTES / 1024} KB`);
  let content: Buffer;
  try {
    content = await verifiedContent(body);
  } catch (error) {
    if (error instanceof SignedDataError) throw refused(`is not a signed answer: ${error.message}`);
    throw error;
  }
  const answer = parseDeviceAnswer(content);
  const hash = enrollmentHash(answer.challenge);
  const enrollment = await deps.enrollments.enrollment(hash, now);
  if (!enrollment) throw refused("names no live registration (the profile is over an hour old, or not ours)");
  if (enrollment.device && enrollment.device.udid !== answer.claim.udid) throw refused("this profile was already answered by another device");
  if (!(await deps.enrollments.attachDevice(hash, answer.claim, now))) throw refused("this profile was already answered by another device");
  const at = now.toISOString();
  const fields = {
    udid: answer.claim.udid,
    name: answer.claim.name ?? "iPhone",
    product: answer.claim.product,
    model: modelName(answer.claim.product),
    osVersion: answer.claim.version,
    serial: answer.serial,
    email: enrollment.email,
    registeredAt: at,
    updatedAt: at,
  };
  await Promise.all(
    enrollment.workspaceIds.map((workspaceId) => deps.devices.record({ ...fields, workspaceId, deviceId: newDeviceId() }, MAX_DEVICES_PER_WORKSPACE)),
  );
  return { token: answer.challenge };
}

/** Step 3: what the result page shows and the cookie carries. */
export async function enrollmentResult(deps: Pick<EnrollDeps, "enrollments" | "clock">, token: string): Promise<{ device: DeviceClaim; model: string | null; returnTo: string }> {
  if (!ENROLL_TOKEN.test(token)) throw enrollmentNotFound();
  const enrollment = await deps.enrollments.enrollment(enrollmentHash(token), deps.clock.now());
  if (!enrollment?.device) throw enrollmentNotFound();
  return { device: enrollment.device, model: modelName(enrollment.device.product), returnTo: enrollment.returnTo };
}
