import { can, personalWorkspaceId, ROLES, ROUTE_ACTIONS, type Action, type Role } from "@hangar/core";
import { DynamoUserRepository, DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { DynamoDevices, newDeviceId } from "@hangar/core/devices";
import { randomIds } from "@hangar/core";
import { routes, routeKey } from "@hangar/functions";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, PASSWORD, signedIn, uniqueEmail, type Browser } from "./support/accounts";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { call, db, presign, put, readFixture, stack, type Key, type Reply } from "./support/api";
import { ipaPath, uploadIpa } from "./support/dashboard";

/**
 * The role × route matrix (issue 19): every session route of routes.ts on a workspace's data is
 * called by an owner, an admin, a developer, a viewer and a non-member of one team workspace, and
 * each answer is checked against the one policy, `can(role, ROUTE_ACTIONS[route])` (core's
 * workspaces/route-actions.ts, which docs/teams.md prints): allowed, or 403 `forbidden` naming
 * the permission; a non-member gets the 404 of an unknown id. A new session route fails here
 * until it has a row in ROUTE_ACTIONS and a call below (or is listed as not about a workspace).
 */

/** Session routes that are about the caller's own account or session, not a workspace's data. */
const NOT_WORKSPACE_DATA = new Set([
  "GET /api/account",
  "PUT /api/account/profile",
  "POST /api/account/password",
  "GET /api/account/sessions",
  "DELETE /api/account/sessions",
  "DELETE /api/account/sessions/{sessionId}",
  // Account deletion: what it does to each workspace is tested below.
  "DELETE /api/account",
  // The caller's own list of workspaces, and a new one (the caller becomes its owner).
  "GET /api/workspaces",
  "POST /api/workspaces",
  // Accepting an invitation is about the invited account (the invitations tests).
  "POST /api/invitations/accept",
]);

/**
 * Changes that leave the fixture as the next caller needs it, so they share one: each fixture is a
 * project (and the workspace holds at most 100). Register with Apple is off on this stack (409
 * apple_not_configured, nothing changes); a device's rename only renames it.
 */
const KEEPS_FIXTURE = new Set(["POST /api/workspaces/{workspaceId}/devices/apple", "PATCH /api/devices/{deviceId}"]);

/** 404 codes of the access check: what a non-member gets, exactly as for an unknown id. */
const ACCESS_NOT_FOUND = ["workspace_not_found", "project_not_found", "key_not_found", "file_not_found", "group_not_found", "webhook_not_found", "device_not_found"];

type Caller = Role | "stranger";

interface World {
  workspaceId: string;
  workspaceName: string;
  owner: Browser;
  members: Record<Role | "stranger", Browser>;
  strangerId: string;
}

/** What one call works on: a project with a key, a build and two uploads under way (owner's). */
interface Fixture {
  projectId: string;
  projectName: string;
  key: Key;
  fileId: string;
  multipart: { key: string; uploadId: string };
  presigned: { key: string };
  /** A member (viewer) for the member routes to act on. */
  memberId: string;
  /** A tester group (owner's) with one tester, `tester@example.com` (issue 20). */
  groupId: string;
  /** A webhook of the workspace (to a port nothing listens on: its test events fail, harmlessly). */
  webhookId: string;
  /** A registered iOS device of the workspace (issue 22), put in the table as an enrollment leaves it. */
  deviceId: string;
}

interface Call {
  path: string;
  body?: unknown;
  /** Allowed may still be a domain refusal of this input (409, a 404 of an upload or member): only not a refusal of access. */
  loose?: boolean;
}

const APK = "application/vnd.android.package-archive";
const declared = { fileName: "Build.apk", fileSize: 10, fileType: APK };

/** How each route is called; the `{param}`s from the fixture. */
const CALLS: Record<string, (w: World, f: Fixture) => Call> = {
  "POST /api/projects": (w) => ({ path: "/api/projects", body: { name: `P ${randomIds.userKey()}`, color: "blue", workspaceId: w.workspaceId } }),
  "GET /api/projects": (w) => ({ path: `/api/projects?workspaceId=${w.workspaceId}` }),
  "GET /api/projects/{projectId}": (_w, f) => ({ path: `/api/projects/${f.projectId}` }),
  "PATCH /api/projects/{projectId}": (_w, f) => ({ path: `/api/projects/${f.projectId}`, body: { description: "changed" } }),
  "DELETE /api/projects/{projectId}": (_w, f) => ({ path: `/api/projects/${f.projectId}`, body: { confirmName: f.projectName } }),
  "GET /api/projects/{projectId}/files": (_w, f) => ({ path: `/api/projects/${f.projectId}/files` }),
  "POST /api/projects/{projectId}/uploads": (_w, f) => ({ path: `/api/projects/${f.projectId}/uploads`, body: declared }),
  "POST /api/projects/{projectId}/uploads/multipart": (_w, f) => ({ path: `/api/projects/${f.projectId}/uploads/multipart`, body: declared }),
  "POST /api/projects/{projectId}/uploads/multipart/parts": (_w, f) => ({
    path: `/api/projects/${f.projectId}/uploads/multipart/parts`,
    body: { ...f.multipart, partChecksums: [{ partNumber: 1, checksumCRC32C: "AAAAAA==" }] },
    loose: true,
  }),
  "DELETE /api/projects/{projectId}/uploads/multipart": (_w, f) => ({ path: `/api/projects/${f.projectId}/uploads/multipart`, body: f.multipart, loose: true }),
  // Nothing was PUT: allowed means complete looked for the object (409/400), not a refusal.
  "POST /api/projects/{projectId}/uploads/complete": (_w, f) => ({
    path: `/api/projects/${f.projectId}/uploads/complete`,
    body: { ...declared, key: f.presigned.key },
    loose: true,
  }),
  "POST /api/keys": (_w, f) => ({ path: "/api/keys", body: { name: "Matrix", projectId: f.projectId } }),
  "GET /api/keys": (w) => ({ path: `/api/keys?workspaceId=${w.workspaceId}` }),
  "DELETE /api/keys/{clientId}": (_w, f) => ({ path: `/api/keys/${f.key.clientId}` }),
  "POST /api/keys/{clientId}/regenerate": (_w, f) => ({ path: `/api/keys/${f.key.clientId}/regenerate` }),
  "GET /api/keys/{clientId}/usage": (_w, f) => ({ path: `/api/keys/${f.key.clientId}/usage` }),
  "GET /api/files": (w) => ({ path: `/api/files?workspaceId=${w.workspaceId}` }),
  "GET /api/files/{fileId}": (_w, f) => ({ path: `/api/files/${f.fileId}` }),
  "GET /api/files/{fileId}/diff": (_w, f) => ({ path: `/api/files/${f.fileId}/diff` }),
  // Retention (issue 24): the preview, and a pin (the policy itself rides on the project's PATCH).
  "GET /api/projects/{projectId}/retention/preview": (_w, f) => ({ path: `/api/projects/${f.projectId}/retention/preview` }),
  "PATCH /api/files/{fileId}": (_w, f) => ({ path: `/api/files/${f.fileId}`, body: { pinned: true } }),
  "DELETE /api/files/{fileId}": (_w, f) => ({ path: `/api/files/${f.fileId}` }),
  "PATCH /api/files/{fileId}/share": (_w, f) => ({ path: `/api/files/${f.fileId}/share`, body: { maxDownloads: 50 } }),
  "POST /api/files/{fileId}/share/regenerate": (_w, f) => ({ path: `/api/files/${f.fileId}/share/regenerate` }),
  // Issue 20, distribute: a silent copy (notify false) sends no mail; an empty default-groups list.
  "POST /api/files/{fileId}/distribute": (_w, f) => ({ path: `/api/files/${f.fileId}/distribute`, body: { testers: ["matrix@hangar.test"], notify: false } }),
  "GET /api/files/{fileId}/distributions": (_w, f) => ({ path: `/api/files/${f.fileId}/distributions` }),
  "GET /api/projects/{projectId}/default-groups": (_w, f) => ({ path: `/api/projects/${f.projectId}/default-groups` }),
  "PUT /api/projects/{projectId}/default-groups": (_w, f) => ({ path: `/api/projects/${f.projectId}/default-groups`, body: { groupIds: [] } }),
  "GET /api/workspaces/{workspaceId}": (w) => ({ path: `/api/workspaces/${w.workspaceId}` }),
  "PATCH /api/workspaces/{workspaceId}": (w) => ({ path: `/api/workspaces/${w.workspaceId}`, body: { name: w.workspaceName } }),
  // A name that does not match: allowed means 400 (the name checked after the role), never a delete.
  "DELETE /api/workspaces/{workspaceId}": (w) => ({ path: `/api/workspaces/${w.workspaceId}`, body: { confirmName: "not its name" }, loose: true }),
  "GET /api/workspaces/{workspaceId}/members": (w) => ({ path: `/api/workspaces/${w.workspaceId}/members` }),
  "PATCH /api/workspaces/{workspaceId}/members/{userId}": (w, f) => ({ path: `/api/workspaces/${w.workspaceId}/members/${f.memberId}`, body: { role: "developer" } }),
  "DELETE /api/workspaces/{workspaceId}/members/{userId}": (w, f) => ({ path: `/api/workspaces/${w.workspaceId}/members/${f.memberId}` }),
  // To a non-member: allowed means the target was refused, never a transfer.
  "POST /api/workspaces/{workspaceId}/transfer": (w) => ({ path: `/api/workspaces/${w.workspaceId}/transfer`, body: { userId: w.strangerId }, loose: true }),
  "POST /api/workspaces/{workspaceId}/invitations": (w) => ({ path: `/api/workspaces/${w.workspaceId}/invitations`, body: { email: uniqueEmail("invited"), role: "viewer" } }),
  "GET /api/workspaces/{workspaceId}/invitations": (w) => ({ path: `/api/workspaces/${w.workspaceId}/invitations` }),
  "DELETE /api/workspaces/{workspaceId}/invitations/{invitationId}": (w) => ({ path: `/api/workspaces/${w.workspaceId}/invitations/inv_0000000000000000`, loose: true }),
  "POST /api/workspaces/{workspaceId}/invitations/{invitationId}/resend": (w) => ({
    path: `/api/workspaces/${w.workspaceId}/invitations/inv_0000000000000000/resend`,
    loose: true,
  }),
  "GET /api/workspaces/{workspaceId}/audit": (w) => ({ path: `/api/workspaces/${w.workspaceId}/audit` }),
  "GET /api/workspaces/{workspaceId}/expiring": (w) => ({ path: `/api/workspaces/${w.workspaceId}/expiring` }),
  // Tester groups (issue 20).
  "GET /api/workspaces/{workspaceId}/groups": (w) => ({ path: `/api/workspaces/${w.workspaceId}/groups` }),
  "POST /api/workspaces/{workspaceId}/groups": (w) => ({ path: `/api/workspaces/${w.workspaceId}/groups`, body: { name: `G ${randomIds.userKey()}` } }),
  "GET /api/groups/{groupId}": (_w, f) => ({ path: `/api/groups/${f.groupId}` }),
  "PATCH /api/groups/{groupId}": (_w, f) => ({ path: `/api/groups/${f.groupId}`, body: { name: `Renamed ${randomIds.userKey()}` } }),
  "DELETE /api/groups/{groupId}": (_w, f) => ({ path: `/api/groups/${f.groupId}` }),
  "POST /api/groups/{groupId}/testers": (_w, f) => ({ path: `/api/groups/${f.groupId}/testers`, body: { emails: ["another@example.com"] } }),
  "DELETE /api/groups/{groupId}/testers/{email}": (_w, f) => ({ path: `/api/groups/${f.groupId}/testers/tester%40example.com` }),
  "POST /api/groups/{groupId}/invite-link": (_w, f) => ({ path: `/api/groups/${f.groupId}/invite-link`, body: { maxMembers: 10 } }),
  "DELETE /api/groups/{groupId}/invite-link": (_w, f) => ({ path: `/api/groups/${f.groupId}/invite-link` }),
  "GET /api/workspaces/{workspaceId}/testers": (w) => ({ path: `/api/workspaces/${w.workspaceId}/testers` }),
  // Who installed what (installs function).
  "GET /api/files/{fileId}/installs": (_w, f) => ({ path: `/api/files/${f.fileId}/installs` }),
  "GET /api/workspaces/{workspaceId}/testers/{email}/installs": (w) => ({ path: `/api/workspaces/${w.workspaceId}/testers/${encodeURIComponent("tester@hangar.test")}/installs` }),
  // Issue 20, apps: the app page's settings and the update tokens.
  "GET /api/projects/{projectId}/app-page": (_w, f) => ({ path: `/api/projects/${f.projectId}/app-page` }),
  "PUT /api/projects/{projectId}/app-page": (_w, f) => ({ path: `/api/projects/${f.projectId}/app-page`, body: { enabled: true } }),
  "GET /api/projects/{projectId}/update-tokens": (_w, f) => ({ path: `/api/projects/${f.projectId}/update-tokens` }),
  "POST /api/projects/{projectId}/update-tokens": (_w, f) => ({ path: `/api/projects/${f.projectId}/update-tokens`, body: { name: "Matrix" } }),
  // No such token: allowed means 404 update_token_not_found, never a refusal of access.
  "DELETE /api/projects/{projectId}/update-tokens/{tokenId}": (_w, f) => ({ path: `/api/projects/${f.projectId}/update-tokens/utk_0000000000000000`, loose: true }),
  "GET /api/workspaces/{workspaceId}/webhooks": (w) => ({ path: `/api/workspaces/${w.workspaceId}/webhooks` }),
  "POST /api/workspaces/{workspaceId}/webhooks": (w) => ({ path: `/api/workspaces/${w.workspaceId}/webhooks`, body: { url: "http://127.0.0.1:9/matrix", events: ["key.created"], enabled: false } }),
  "GET /api/webhooks/{webhookId}": (_w, f) => ({ path: `/api/webhooks/${f.webhookId}` }),
  "PATCH /api/webhooks/{webhookId}": (_w, f) => ({ path: `/api/webhooks/${f.webhookId}`, body: { description: "changed" } }),
  "DELETE /api/webhooks/{webhookId}": (_w, f) => ({ path: `/api/webhooks/${f.webhookId}` }),
  "POST /api/webhooks/{webhookId}/rotate-secret": (_w, f) => ({ path: `/api/webhooks/${f.webhookId}/rotate-secret` }),
  "POST /api/webhooks/{webhookId}/test": (_w, f) => ({ path: `/api/webhooks/${f.webhookId}/test`, body: {} }),
  "GET /api/webhooks/{webhookId}/deliveries": (_w, f) => ({ path: `/api/webhooks/${f.webhookId}/deliveries` }),
  // A delivery of no webhook: allowed means 404 delivery_not_found, never a refusal of access.
  "POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": (_w, f) => ({ path: `/api/webhooks/${f.webhookId}/deliveries/msg_000000000000000000000000/redeliver`, loose: true }),
  // iOS devices (issue 22, docs/devices.md).
  "GET /api/workspaces/{workspaceId}/devices": (w) => ({ path: `/api/workspaces/${w.workspaceId}/devices` }),
  "GET /api/workspaces/{workspaceId}/devices/export": (w, f) => ({ path: `/api/workspaces/${w.workspaceId}/devices/export?fileId=${f.fileId}&missing=true` }),
  "PATCH /api/devices/{deviceId}": (_w, f) => ({ path: `/api/devices/${f.deviceId}`, body: { name: "Renamed" } }),
  "DELETE /api/devices/{deviceId}": (_w, f) => ({ path: `/api/devices/${f.deviceId}` }),
  "GET /api/files/{fileId}/devices": (_w, f) => ({ path: `/api/files/${f.fileId}/devices` }),
  // Register with Apple is off on the shared stack: allowed means 409 apple_not_configured, never a
  // refusal of access (test/devices-apple.test.ts runs a stack with it on).
  "POST /api/workspaces/{workspaceId}/devices/apple": (w) => ({ path: `/api/workspaces/${w.workspaceId}/devices/apple`, body: { deviceIds: ["dev_0000000000000000"] }, loose: true }),
};

/** A device of the workspace with a fresh UDID, as the enroll callback records it. */
async function seedDevice(workspaceId: string): Promise<string> {
  const deviceId = newDeviceId();
  const udid = `00008030-${randomIds.fileId().slice(4, 20).replace(/[^0-9A-F]/gi, "0").toUpperCase().padEnd(16, "0")}`;
  const at = new Date().toISOString();
  const device = { deviceId, workspaceId, udid, name: "Matrix iPhone", product: "iPhone15,2", model: "iPhone 14 Pro", osVersion: "22B83", serial: null, email: null, registeredAt: at, updatedAt: at };
  expect(await new DynamoDevices(db(), stack().tableName).record(device, 1000)).toBe("created");
  return deviceId;
}

const userIdOf = async (b: Browser): Promise<string> => (await dash(b, "GET", "/api/account")).json.userId;

/**
 * A member of any role, made directly in the table (test setup, as an accepted invitation would
 * leave it): an account (with its personal workspace) and its membership of the team workspace.
 */
async function seedMember(workspaceId: string, role: Role, userId?: string): Promise<string> {
  const table = stack().tableName;
  const id = userId ?? `usr_${randomIds.userKey().replace(/[^0-9A-Za-z]/g, "").padEnd(16, "0").slice(0, 16)}`;
  if (!userId) await new DynamoUserRepository(db(), table).create({ userId: id, email: uniqueEmail("member"), emailVerified: true, createdAt: new Date().toISOString() });
  await new DynamoWorkspaceCatalog(db(), table).addMember({ workspaceId, userId: id, role, joinedAt: new Date().toISOString() });
  return id;
}

/**
 * The webhook of the last fixture made for one change: removed when the next one is made, so the
 * workspace stays under its limit of webhooks (the first fixture, the shared one, keeps its own).
 */
let fixtures = 0;
let previousWebhook: string | undefined;

async function fixtureWebhook(w: World): Promise<string> {
  if (previousWebhook && fixtures > 1) await dash(w.owner, "DELETE", `/api/webhooks/${previousWebhook}`);
  const hook = await dash(w.owner, "POST", `/api/workspaces/${w.workspaceId}/webhooks`, { url: "http://127.0.0.1:9/matrix", events: ["build.deleted"] });
  expect(hook.status, hook.text).toBe(201);
  previousWebhook = hook.json.webhookId as string;
  fixtures++;
  return previousWebhook;
}

/**
 * `member`: the viewer the member routes act on, when the caller's route does not act on one
 * (seeding one per change would pass the workspace's 100 members once the routes that change
 * something outnumber them).
 */
async function newFixture(w: World, member?: string): Promise<Fixture> {
  const projectName = `Matrix ${randomIds.userKey()}`;
  const project = await dash(w.owner, "POST", "/api/projects", { name: projectName, color: "green", workspaceId: w.workspaceId });
  expect(project.status, project.text).toBe(201);
  const projectId = project.json.projectId as string;
  const created = await dash(w.owner, "POST", "/api/keys", { name: "Owner's CI", projectId });
  expect(created.status, created.text).toBe(201);
  const key = { clientId: created.json.clientId, clientSecret: created.json.clientSecret, projectId } as Key;
  // The uploads under way are the key's (the owner's dashboard uploads count on a per-account
  // rule this many fixtures would exhaust): the dashboard routes that continue them may answer
  // 404 upload_not_found to a caller who did not start them, which is still not a refusal of access.
  const [{ fileId }, multipart, presigned, memberId, groupId, webhookId, deviceId] = await Promise.all([
    uploadIpa(key),
    call("/api/upload/api-key/multipart", { method: "POST", key, body: declared }),
    presign(key, declared),
    member ?? seedMember(w.workspaceId, "viewer"),
    newGroup(w),
    fixtureWebhook(w),
    seedDevice(w.workspaceId),
  ]);
  expect(multipart.status, multipart.text).toBe(200);
  expect(presigned.status, presigned.text).toBe(200);
  return {
    projectId,
    projectName,
    key,
    fileId,
    multipart: { key: multipart.json.key, uploadId: multipart.json.uploadId },
    presigned: { key: presigned.json.key },
    memberId,
    groupId,
    webhookId,
    deviceId,
  };
}

/** A tester group of the workspace with one tester (owner's). */
async function newGroup(w: World): Promise<string> {
  const group = await dash(w.owner, "POST", `/api/workspaces/${w.workspaceId}/groups`, { name: `Matrix ${randomIds.userKey()}` });
  expect(group.status, group.text).toBe(201);
  const added = await dash(w.owner, "POST", `/api/groups/${group.json.groupId}/testers`, { emails: ["tester@example.com"] });
  expect(added.status, added.text).toBe(200);
  return group.json.groupId as string;
}

function checkAnswer(route: string, caller: Caller, call: Call, reply: Reply) {
  const label = `${route} as ${caller}: ${reply.status} ${reply.text.slice(0, 200)}`;
  const action: Action = ROUTE_ACTIONS[route as keyof typeof ROUTE_ACTIONS];
  if (caller === "stranger") {
    expect(reply.status, label).toBe(404);
    expect(ACCESS_NOT_FOUND, label).toContain(reply.json.error.code);
    return;
  }
  if (!can(caller, action)) {
    expect(reply.status, label).toBe(403);
    expect(reply.json.error, label).toMatchObject({ code: "forbidden", permission: action, role: caller });
    return;
  }
  expect(reply.status, label).not.toBe(403);
  expect(reply.status, label).toBeLessThan(500);
  if (reply.status === 404) expect(ACCESS_NOT_FOUND, label).not.toContain(reply.json.error.code);
  if (!call.loose) expect(reply.status, label).toBeLessThan(400);
}

let world: World;

beforeAll(async () => {
  const [owner, admin, developer, viewer, stranger] = await Promise.all(Array.from({ length: 5 }, () => signedIn().then((s) => s.b)));
  const workspaceName = `Team ${randomIds.userKey()}`;
  const created = await dash(owner!, "POST", "/api/workspaces", { name: workspaceName });
  expect(created.status, created.text).toBe(201);
  const workspaceId = created.json.workspaceId as string;
  const [adminId, developerId, viewerId, strangerId] = await Promise.all([admin!, developer!, viewer!, stranger!].map(userIdOf));
  await Promise.all([
    seedMember(workspaceId, "admin", adminId),
    seedMember(workspaceId, "developer", developerId),
    seedMember(workspaceId, "viewer", viewerId),
  ]);
  world = { workspaceId, workspaceName, owner: owner!, members: { owner: owner!, admin: admin!, developer: developer!, viewer: viewer!, stranger: stranger! }, strangerId: strangerId! };
}, 120_000);

const sessionRoutes = () => routes.filter((r) => r.auth === "session").map(routeKey);

describe("the role × route matrix", () => {
  it("has a policy row and a call for every session route on a workspace's data", () => {
    const missing = sessionRoutes().filter((k) => !NOT_WORKSPACE_DATA.has(k) && (!(k in ROUTE_ACTIONS) || !(k in CALLS)));
    expect(missing).toEqual([]);
  });

  it(
    "answers every route as the policy says for owner, admin, developer, viewer, and 404 for a non-member",
    async () => {
      const shared = await newFixture(world);
      let checked = 0;
      for (const route of sessionRoutes().filter((k) => !NOT_WORKSPACE_DATA.has(k))) {
        const method = route.slice(0, route.indexOf(" "));
        for (const caller of [...ROLES, "stranger"] as Caller[]) {
          const allowed = caller !== "stranger" && can(caller, ROUTE_ACTIONS[route as keyof typeof ROUTE_ACTIONS]);
          // An allowed change gets its own fixture, so it cannot take away what the next caller needs.
          // Only a member route needs a member of its own to change; the others reuse the shared one.
          const fixture = allowed && method !== "GET" && !KEEPS_FIXTURE.has(route) ? await newFixture(world, route.includes("{userId}") ? undefined : shared.memberId) : shared;
          const call = CALLS[route]!(world, fixture);
          const reply = await dash(world.members[caller], method, call.path, call.body);
          checkAnswer(route, caller, call, reply);
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(5 * 25);
      // The shared fixture is untouched by every refused call.
      const project = await dash(world.owner, "GET", `/api/projects/${shared.projectId}`);
      expect(project.json).toMatchObject({ name: shared.projectName, description: "", workspaceId: world.workspaceId });
      expect((await presign(shared.key, { fileName: "A.ipa", fileSize: 10, fileType: "application/octet-stream" })).status).toBe(200);
      expect((await dash(world.owner, "GET", `/api/files/${shared.fileId}`)).json.share).toMatchObject({ maxDownloads: null });
    },
    600_000,
  );
});

describe("the audit log of the team's changes", () => {
  it("holds an entry for each kind of change the matrix made, and for a developer's upload from the dashboard", async () => {
    const { projectId } = (await dash(world.owner, "POST", "/api/projects", { name: `Audited ${randomIds.userKey()}`, color: "red", workspaceId: world.workspaceId })).json;
    const bytes = readFixture(ipaPath());
    const declaredIpa = { fileName: "Dev.ipa", fileSize: bytes.length, fileType: "application/octet-stream" };
    const presigned = await dash(world.members.developer, "POST", `/api/projects/${projectId}/uploads`, declaredIpa);
    expect(presigned.status, presigned.text).toBe(200);
    expect((await put(presigned.json.uploadUrl, bytes)).status).toBe(200);
    const completed = await dash(world.members.developer, "POST", `/api/projects/${projectId}/uploads/complete`, { ...declaredIpa, key: presigned.json.key });
    expect(completed.status, completed.text).toBe(200);

    const entries: Record<string, any>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: stack().tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": `AUDIT#${world.workspaceId}` },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      entries.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const actions = new Set(entries.map((e) => e.action));
    for (const action of [
      "project.created",
      "project.updated",
      "project.deleted",
      "key.created",
      "key.regenerated",
      "key.revoked",
      "build.deleted",
      "build.uploaded",
      "link.settings_changed",
      "link.regenerated",
    ]) {
      expect(actions, action).toContain(action);
    }
    const developerId = await userIdOf(world.members.developer);
    expect(entries.find((e) => e.action === "build.uploaded" && e.target.id === completed.json.fileId)).toMatchObject({
      actor: { userId: developerId },
      target: { type: "build", label: "Dev.ipa" },
      details: { projectId },
    });
  });
});

describe("workspaces keep their data apart", () => {
  it("answers a member of one workspace 404 for another's project, key and build, and lists only the workspace asked for", async () => {
    const { b: outsider } = await signedIn();
    const theirs = await dash(outsider, "POST", "/api/projects", { name: "Elsewhere", color: "red" });
    expect(theirs.status).toBe(201);
    expect(theirs.json.workspaceId).toBe(personalWorkspaceId(await userIdOf(outsider)));
    const key = await dash(outsider, "POST", "/api/keys", { name: "CI", projectId: theirs.json.projectId });
    const file = await uploadIpa({ clientId: key.json.clientId, clientSecret: key.json.clientSecret, projectId: theirs.json.projectId } as Key);
    // The team's developer, a member of the team only.
    const dev = world.members.developer;
    for (const [method, path, body, code] of [
      ["GET", `/api/projects/${theirs.json.projectId}`, undefined, "project_not_found"],
      ["POST", "/api/keys", { name: "x", projectId: theirs.json.projectId }, "project_not_found"],
      ["DELETE", `/api/keys/${key.json.clientId}`, undefined, "key_not_found"],
      ["GET", `/api/files/${file.fileId}`, undefined, "file_not_found"],
      ["PATCH", `/api/files/${file.fileId}/share`, { enabled: false }, "file_not_found"],
      ["GET", `/api/projects?workspaceId=${theirs.json.workspaceId}`, undefined, "workspace_not_found"],
      ["POST", "/api/projects", { name: "Intruder", color: "red", workspaceId: theirs.json.workspaceId }, "workspace_not_found"],
    ] as [string, string, unknown, string][]) {
      const reply = await dash(dev, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.json.error.code, `${method} ${path}`).toBe(code);
    }
    // Lists default to the caller's personal workspace and name the workspace they show.
    const team = await dash(world.owner, "GET", `/api/projects?workspaceId=${world.workspaceId}`);
    expect(team.json.items.length).toBeGreaterThan(0);
    for (const p of team.json.items) expect(p.workspaceId).toBe(world.workspaceId);
    const personal = await dash(world.owner, "GET", "/api/projects");
    for (const p of personal.json.items) expect(p.workspaceId).toBe(personalWorkspaceId(await userIdOf(world.owner)));
    expect(personal.text).not.toContain(team.json.items[0].projectId);
  });
});

describe("keys belong to the workspace", () => {
  async function team() {
    const [{ b: owner }, { b: developer, email }] = await Promise.all([signedIn(), signedIn()]);
    const created = await dash(owner, "POST", "/api/workspaces", { name: `Keys ${randomIds.userKey()}` });
    const workspaceId = created.json.workspaceId as string;
    const developerId = await userIdOf(developer);
    await seedMember(workspaceId, "developer", developerId);
    const project = await dash(owner, "POST", "/api/projects", { name: "App", color: "blue", workspaceId });
    const made = await dash(developer, "POST", "/api/keys", { name: "Developer's CI", projectId: project.json.projectId });
    expect(made.status, made.text).toBe(201);
    expect(made.json).toMatchObject({ workspaceId, createdBy: { userId: developerId, email } });
    const key = { clientId: made.json.clientId, clientSecret: made.json.clientSecret, projectId: project.json.projectId } as Key;
    return { owner, developer, developerId, email, workspaceId, projectId: project.json.projectId as string, key };
  }
  const works = async (key: Key) => (await presign(key, { fileName: "A.ipa", fileSize: 10, fileType: "application/octet-stream" })).status;

  it("any member with keys.manage revokes or regenerates a key someone else created; the creator's removal leaves it working", async () => {
    const t = await team();
    // The owner, who did not create it, sees who did and may regenerate it.
    const listed = await dash(t.owner, "GET", `/api/keys?workspaceId=${t.workspaceId}`);
    expect(listed.json.items).toEqual([expect.objectContaining({ clientId: t.key.clientId, createdBy: { userId: t.developerId, email: t.email } })]);
    // The developer leaves the team (removed by the owner): their key keeps working for CI.
    const removed = await dash(t.owner, "DELETE", `/api/workspaces/${t.workspaceId}/members/${t.developerId}`);
    expect(removed.status, removed.text).toBe(204);
    expect(await works(t.key)).toBe(200);
    expect((await dash(t.developer, "POST", `/api/keys/${t.key.clientId}/regenerate`)).status).toBe(404);
    const again = await dash(t.owner, "POST", `/api/keys/${t.key.clientId}/regenerate`);
    expect(again.status, again.text).toBe(200);
    const regenerated = { ...t.key, clientSecret: again.json.clientSecret };
    expect(await works(regenerated)).toBe(200);
    expect(await works(t.key)).toBe(401);
    expect((await dash(t.owner, "DELETE", `/api/keys/${t.key.clientId}`)).status).toBe(204);
    expect(await works(regenerated)).toBe(401);
  });

  it("deleting the creator's account keeps the key and builds of a workspace with other owners", async () => {
    const t = await team();
    await uploadIpa(t.key);
    const gone = await dash(t.developer, "DELETE", "/api/account", { password: PASSWORD });
    expect([202, 204]).toContain(gone.status);
    expect(await works(t.key)).toBe(200);
    const keys = await dash(t.owner, "GET", `/api/keys?workspaceId=${t.workspaceId}`);
    expect(keys.json.items).toEqual([expect.objectContaining({ clientId: t.key.clientId, status: "active", createdBy: { userId: t.developerId, email: null } })]);
    const files = await dash(t.owner, "GET", `/api/projects/${t.projectId}/files`);
    expect(files.json.items.filter((f: { status: string }) => f.status === "completed")).toHaveLength(1);
    const members = await dash(t.owner, "GET", `/api/workspaces/${t.workspaceId}/members`);
    expect(members.text).not.toContain(t.developerId);
  });

  it("deleting the account of a workspace's only owner removes the workspace and everything in it", async () => {
    const t = await team();
    await uploadIpa(t.key);
    const gone = await dash(t.owner, "DELETE", "/api/account", { password: PASSWORD });
    expect([202, 204]).toContain(gone.status);
    expect(await works(t.key)).toBe(401);
    // The developer, who stays, can no longer reach it: the workspace is gone.
    const reply = await dash(t.developer, "GET", `/api/projects/${t.projectId}`);
    expect(reply.status).toBe(404);
    const listed = await dash(t.developer, "GET", "/api/workspaces");
    expect(listed.text).not.toContain(t.workspaceId);
  });
});
