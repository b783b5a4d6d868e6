import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { createHash } from "node:crypto";
import { randomIds, type Role } from "@hangar/core";
import { DynamoStageSecret, DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { DynamoTesterGroups, JOIN_LINK_SECRET, joinGroupByLink, previewJoinLink, JoinLinkGoneError, type JoinLinkDeps } from "@hangar/core/tester-groups";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser } from "./support/accounts";
import { db, stack } from "./support/api";

/*
 * Tester groups (issue 20 items 1 and 5, docs/testers.md "Groups") on the local stack: real
 * DynamoDB Local, the HTTP API as the dashboard calls it. The join through an invite link is the
 * tester access work's HTTP flow; here its core function is called directly on the stack's table
 * (as that flow calls it once the address is confirmed), with a clock moved past a link's expiry.
 */

const table = () => stack().tableName;
const joinDeps = (): JoinLinkDeps => ({
  groups: new DynamoTesterGroups(db(), table()),
  workspaces: new DynamoWorkspaceCatalog(db(), table()),
  clock: { now: () => new Date() },
  joinLinkSecret: new DynamoStageSecret(db(), table(), JOIN_LINK_SECRET),
});
const tokenOf = (url: string) => /\/join\/([A-Za-z0-9_-]{43})$/.exec(url)?.[1] ?? "";

interface Team {
  workspaceId: string;
  workspaceName: string;
  owner: Browser;
  viewer: Browser;
  developer: Browser;
  stranger: Browser;
}

async function addMember(workspaceId: string, b: Browser, role: Role) {
  const userId = (await dash(b, "GET", "/api/account")).json.userId as string;
  await new DynamoWorkspaceCatalog(db(), table()).addMember({ workspaceId, userId, role, joinedAt: new Date().toISOString() });
}

async function newTeam(): Promise<Team> {
  const [owner, viewer, developer, stranger] = await Promise.all(Array.from({ length: 4 }, () => signedIn().then((s) => s.b)));
  const workspaceName = `Testers ${randomIds.userKey()}`;
  const made = await dash(owner!, "POST", "/api/workspaces", { name: workspaceName });
  expect(made.status, made.text).toBe(201);
  const workspaceId = made.json.workspaceId as string;
  await addMember(workspaceId, viewer!, "viewer");
  await addMember(workspaceId, developer!, "developer");
  return { workspaceId, workspaceName, owner: owner!, viewer: viewer!, developer: developer!, stranger: stranger! };
}

async function newGroup(t: Team, name: string) {
  const made = await dash(t.owner, "POST", `/api/workspaces/${t.workspaceId}/groups`, { name });
  expect(made.status, made.text).toBe(201);
  return made.json as { groupId: string; name: string };
}

const addresses = (label: string, n: number) => Array.from({ length: n }, (_, i) => `${label}-${i}@testers.example`);

let team: Team;
beforeAll(async () => {
  team = await newTeam();
}, 120_000);

describe("tester groups", () => {
  it("are created with a unique name per workspace, whatever its case, listed by name, renamed and deleted", async () => {
    const qa = await newGroup(team, "  QA  ");
    expect(qa).toMatchObject({ groupId: expect.stringMatching(/^grp_[0-9A-Za-z]{16}$/), workspaceId: team.workspaceId, name: "QA", testerCount: 0, inviteLink: null });
    const twin = await dash(team.owner, "POST", `/api/workspaces/${team.workspaceId}/groups`, { name: "qa" });
    expect(twin.status, twin.text).toBe(409);
    expect(twin.json.error.code).toBe("group_name_taken");
    await newGroup(team, "beta");

    const listed = await dash(team.viewer, "GET", `/api/workspaces/${team.workspaceId}/groups`);
    expect(listed.status).toBe(200);
    expect(listed.json.items.map((g: { name: string }) => g.name)).toEqual(["beta", "QA"]);

    const renamed = await dash(team.owner, "PATCH", `/api/groups/${qa.groupId}`, { name: "Nightly QA" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.name).toBe("Nightly QA");
    // A change of case only is a rename; the other group's name stays taken.
    expect((await dash(team.owner, "PATCH", `/api/groups/${qa.groupId}`, { name: "nightly qa" })).json.name).toBe("nightly qa");
    const clash = await dash(team.owner, "PATCH", `/api/groups/${qa.groupId}`, { name: "BETA" });
    expect(clash.status).toBe(409);
    expect(clash.json.error.code).toBe("group_name_taken");
    // The old name is free again.
    await newGroup(team, "QA");

    const gone = await dash(team.owner, "DELETE", `/api/groups/${qa.groupId}`);
    expect(gone.status, gone.text).toBe(204);
    expect((await dash(team.owner, "GET", `/api/groups/${qa.groupId}`)).json.error.code).toBe("group_not_found");
    expect((await dash(team.owner, "DELETE", `/api/groups/${qa.groupId}`)).status).toBe(404);
    await newGroup(team, "Nightly QA");
  });

  it("take pasted addresses: normalized, reported as added, already or invalid; one is removed by its address", async () => {
    const g = await newGroup(team, `Paste ${randomIds.userKey()}`);
    const first = await dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, {
      emails: ["Ann@Example.COM", "  bob@example.com ", "not-an-address", "ann@example.com", "", "<script>@example.com", "eve@bücher.example"],
    });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({
      groupId: g.groupId,
      testerCount: 3,
      added: ["ann@example.com", "bob@example.com", "eve@xn--bcher-kva.example"],
      already: [],
      invalid: ["not-an-address", "", "<script>@example.com"],
    });
    const second = await dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: ["BOB@example.com", "carol@example.com"] });
    expect(second.json).toMatchObject({ added: ["carol@example.com"], already: ["bob@example.com"], invalid: [], testerCount: 4 });

    // The last build a tester installed in the workspace, as the installs' tracking writes it.
    const lastInstall = { fileId: "fil_00000000000000000000", projectId: "prj_0000000000000000", platform: "ios", version: "2.1", build: "42", at: "2030-01-02T03:04:05.000Z" };
    await db().send(new PutCommand({ TableName: table(), Item: { pk: `WORKSPACE#${team.workspaceId}`, sk: "LASTINSTALL#ann@example.com", type: "lastInstall", ...lastInstall } }));

    const read = await dash(team.viewer, "GET", `/api/groups/${g.groupId}`);
    expect(read.status, read.text).toBe(200);
    expect(read.json.testers).toEqual([
      { email: "ann@example.com", addedAt: expect.any(String), source: "added", lastInstall },
      { email: "bob@example.com", addedAt: expect.any(String), source: "added", lastInstall: null },
      { email: "carol@example.com", addedAt: expect.any(String), source: "added", lastInstall: null },
      { email: "eve@xn--bcher-kva.example", addedAt: expect.any(String), source: "added", lastInstall: null },
    ]);

    const removed = await dash(team.owner, "DELETE", `/api/groups/${g.groupId}/testers/${encodeURIComponent("BOB@Example.com")}`);
    expect(removed.status, removed.text).toBe(204);
    const again = await dash(team.owner, "DELETE", `/api/groups/${g.groupId}/testers/bob%40example.com`);
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe("tester_not_found");
    expect((await dash(team.owner, "DELETE", `/api/groups/${g.groupId}/testers/nobody`)).json.error.code).toBe("tester_not_found");
    expect((await dash(team.owner, "GET", `/api/groups/${g.groupId}`)).json.testerCount).toBe(3);

    // The workspace's testers: each address once, with its groups and last build.
    const other = await newGroup(team, `Other ${randomIds.userKey()}`);
    await dash(team.owner, "POST", `/api/groups/${other.groupId}/testers`, { emails: ["ann@example.com"] });
    const everyone = await dash(team.viewer, "GET", `/api/workspaces/${team.workspaceId}/testers`);
    expect(everyone.status, everyone.text).toBe(200);
    const ann = everyone.json.items.find((i: { email: string }) => i.email === "ann@example.com");
    expect(ann).toEqual({
      email: "ann@example.com",
      groups: expect.arrayContaining([{ groupId: g.groupId, name: g.name }, { groupId: other.groupId, name: other.name }]),
      lastInstall,
    });
    expect(ann.groups).toHaveLength(2);
    expect(everyone.json.items.map((i: { email: string }) => i.email)).not.toContain("bob@example.com");
  });

  it("are found by the distribution's directory by id or by name in any case, never another workspace's", async () => {
    const g = await newGroup(team, `Directory ${randomIds.userKey()}`);
    await dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: ["dir-1@example.com", "dir-2@example.com"] });
    const elsewhere = await newTeam();
    const theirs = await newGroup(elsewhere, "Theirs");
    const directory = new DynamoTesterGroups(db(), table());
    const resolved = await directory.resolve(team.workspaceId, [g.name.toUpperCase(), g.groupId, "no such group", theirs.groupId]);
    expect(resolved.groups).toEqual([{ groupId: g.groupId, workspaceId: team.workspaceId, name: g.name }]);
    expect(resolved.missing).toEqual(["no such group", theirs.groupId]);
    expect((await directory.addresses(g.groupId)).sort()).toEqual(["dir-1@example.com", "dir-2@example.com"]);
  });

  it("are the workspace's: a non-member gets 404 for its group ids, a viewer sees and a developer cannot manage them (403)", async () => {
    const g = await newGroup(team, `Private ${randomIds.userKey()}`);
    for (const [method, path, body] of [
      ["GET", `/api/groups/${g.groupId}`, undefined],
      ["PATCH", `/api/groups/${g.groupId}`, { name: "Mine now" }],
      ["DELETE", `/api/groups/${g.groupId}`, undefined],
      ["POST", `/api/groups/${g.groupId}/testers`, { emails: ["spy@example.com"] }],
      ["POST", `/api/groups/${g.groupId}/invite-link`, {}],
      ["DELETE", `/api/groups/${g.groupId}/invite-link`, undefined],
      ["DELETE", `/api/groups/${g.groupId}/testers/spy%40example.com`, undefined],
      ["GET", "/api/groups/grp_short", undefined],
    ] as [string, string, unknown][]) {
      const reply = await dash(team.stranger, method, path, body);
      expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(404);
      expect(reply.json.error.code, `${method} ${path}`).toBe("group_not_found");
    }
    for (const path of [`/api/workspaces/${team.workspaceId}/groups`, `/api/workspaces/${team.workspaceId}/testers`]) {
      const reply = await dash(team.stranger, "GET", path);
      expect(reply.status).toBe(404);
      expect(reply.json.error.code).toBe("workspace_not_found");
    }
    expect((await dash(team.viewer, "GET", `/api/groups/${g.groupId}`)).status).toBe(200);
    for (const who of [team.viewer, team.developer]) {
      for (const [method, path, body] of [
        ["POST", `/api/workspaces/${team.workspaceId}/groups`, { name: "Nope" }],
        ["PATCH", `/api/groups/${g.groupId}`, { name: "Nope" }],
        ["POST", `/api/groups/${g.groupId}/testers`, { emails: ["x@example.com"] }],
        ["POST", `/api/groups/${g.groupId}/invite-link`, {}],
        ["DELETE", `/api/groups/${g.groupId}`, undefined],
      ] as [string, string, unknown][]) {
        const reply = await dash(who, method, path, body);
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(403);
        expect(reply.json.error).toMatchObject({ code: "forbidden", permission: "testers.manage" });
      }
    }
    expect((await dash(team.owner, "GET", `/api/groups/${g.groupId}`)).json).toMatchObject({ name: g.name, testerCount: 0 });
  });

  it("refuse hostile input with 400 (or 413 for a body over its bound), never a 5xx", async () => {
    const g = await newGroup(team, `Hostile ${randomIds.userKey()}`);
    const base = `/api/workspaces/${team.workspaceId}/groups`;
    for (const name of ["x".repeat(61), "", "   ", "a,b", "bad\u0000name", "rtl\u202ename", 42, null]) {
      const reply = await dash(team.owner, "POST", base, { name });
      expect(reply.status, `${JSON.stringify(name)}: ${reply.text}`).toBe(400);
    }
    expect((await dash(team.owner, "POST", base, { name: "é".repeat(60) })).status).toBe(201);
    const testers = `/api/groups/${g.groupId}/testers`;
    for (const body of [
      { emails: [] },
      { emails: addresses("many", 1001) },
      { emails: "ann@example.com" },
      { emails: [null] },
      { emails: [{ email: "ann@example.com" }] },
      { emails: ["x".repeat(5000)] },
      {},
    ]) {
      const reply = await dash(team.owner, "POST", testers, body);
      expect(reply.status, reply.text.slice(0, 200)).toBe(400);
    }
    const huge = await dash(team.owner, "POST", testers, { emails: Array.from({ length: 1000 }, () => "y".repeat(1000)) });
    expect(huge.status, huge.text.slice(0, 200)).toBe(413);
    const link = `/api/groups/${g.groupId}/invite-link`;
    for (const body of [
      { expiresAt: "tomorrow" },
      { expiresAt: "2001-01-01T00:00:00Z" },
      { expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      { maxMembers: 0 },
      { maxMembers: 1001 },
      { maxMembers: 1.5 },
      { maxMembers: "10" },
    ]) {
      const reply = await dash(team.owner, "POST", link, body);
      expect(reply.status, `${JSON.stringify(body)}: ${reply.text}`).toBe(400);
    }
    const odd = await dash(team.owner, "DELETE", `/api/groups/${g.groupId}/testers/${encodeURIComponent("%00<>\"'")}`);
    expect(odd.status).toBe(404);
    expect((await dash(team.owner, "GET", `/api/groups/${g.groupId}`)).json).toMatchObject({ testerCount: 0, inviteLink: null });
  });
});

describe("the caps", () => {
  it("hold a group at exactly 1,000 testers, even against concurrent adds", async () => {
    const g = await newGroup(team, `Cap ${randomIds.userKey()}`);
    // Ten lists of 150 new addresses at once: 1,500 for 1,000 places.
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: addresses(`race${i}`, 150) })));
    for (const r of replies) expect([200, 409], r.text.slice(0, 200)).toContain(r.status);
    const added = replies.reduce((n, r) => n + (r.status === 200 ? r.json.added.length : r.json.error.added.length), 0);
    const after = await dash(team.owner, "GET", `/api/groups/${g.groupId}`);
    expect(after.json.testers.length).toBe(added);
    expect(after.json.testerCount).toBe(added);
    expect(added).toBeLessThanOrEqual(1000);
    // Fill it to exactly 1,000; then one more is refused with the free places named.
    const fill = 1000 - added;
    if (fill > 0) {
      const filled = await dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: addresses("fill", fill) });
      expect(filled.status, filled.text.slice(0, 200)).toBe(200);
      expect(filled.json.testerCount).toBe(1000);
    }
    const over = await dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: ["one-more@example.com", "race0-0@testers.example"] });
    expect(over.status).toBe(409);
    expect(over.json.error).toMatchObject({ code: "limit_reached", limit: "testers", max: 1000, free: 0 });
    // An address already in it is no new place: a list of those only is fine.
    const same = await dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: [after.json.testers[0].email.toUpperCase()] });
    expect(same.status, same.text.slice(0, 200)).toBe(200);
    expect(same.json.added).toEqual([]);
    // Deleting it removes every tester item with it.
    expect((await dash(team.owner, "DELETE", `/api/groups/${g.groupId}`)).status).toBe(204);
    const left = await db().send(new QueryCommand({ TableName: table(), KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `GROUP#${g.groupId}` }, ConsistentRead: true }));
    expect(left.Items).toEqual([]);
  });

  it("hold a workspace at exactly 100 groups, even against concurrent creates", async () => {
    const t = await newTeam();
    const replies: { status: number; json: any }[] = [];
    for (let round = 0; round < 6; round++) {
      replies.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => dash(t.owner, "POST", `/api/workspaces/${t.workspaceId}/groups`, { name: `G${round}-${i}` })))));
    }
    expect(replies.filter((r) => r.status === 201)).toHaveLength(100);
    for (const r of replies.filter((r) => r.status !== 201)) expect(r.json.error).toMatchObject({ code: "limit_reached", limit: "groups", max: 100 });
    const listed = await dash(t.owner, "GET", `/api/workspaces/${t.workspaceId}/groups`);
    expect(listed.json.items).toHaveLength(100);
    // One deleted: one place free again.
    expect((await dash(t.owner, "DELETE", `/api/groups/${listed.json.items[0].groupId}`)).status).toBe(204);
    expect((await dash(t.owner, "POST", `/api/workspaces/${t.workspaceId}/groups`, { name: "The hundredth" })).status).toBe(201);
    expect((await dash(t.owner, "POST", `/api/workspaces/${t.workspaceId}/groups`, { name: "One too many" })).status).toBe(409);
  });
});

describe("invite links", () => {
  it("are made, shown again, replaced and revoked; a replaced or revoked link takes nobody", async () => {
    const g = await newGroup(team, `Link ${randomIds.userKey()}`);
    const made = await dash(team.owner, "POST", `/api/groups/${g.groupId}/invite-link`, {});
    expect(made.status, made.text).toBe(201);
    expect(made.json).toEqual({
      url: expect.stringMatching(new RegExp(`^${stack().baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/join/[A-Za-z0-9_-]{43}$`)),
      createdAt: expect.any(String),
      expiresAt: null,
      maxMembers: null,
      joinedCount: 0,
    });
    // Shown again, to a viewer too, from the group and the list.
    expect((await dash(team.viewer, "GET", `/api/groups/${g.groupId}`)).json.inviteLink).toEqual(made.json);
    const listed = (await dash(team.viewer, "GET", `/api/workspaces/${team.workspaceId}/groups`)).json.items.find((x: { groupId: string }) => x.groupId === g.groupId);
    expect(listed.inviteLink.url).toBe(made.json.url);

    const preview = await previewJoinLink(joinDeps(), tokenOf(made.json.url));
    expect(preview).toEqual({ groupId: g.groupId, groupName: g.name, workspaceName: team.workspaceName, expiresAt: null, open: true });

    const replaced = await dash(team.owner, "POST", `/api/groups/${g.groupId}/invite-link`, { maxMembers: 5 });
    expect(replaced.status).toBe(201);
    expect(replaced.json.url).not.toBe(made.json.url);
    await expect(joinGroupByLink(joinDeps(), { token: tokenOf(made.json.url), email: "late@example.com" })).rejects.toBeInstanceOf(JoinLinkGoneError);
    await expect(previewJoinLink(joinDeps(), tokenOf(made.json.url))).rejects.toBeInstanceOf(JoinLinkGoneError);

    const joined = await joinGroupByLink(joinDeps(), { token: tokenOf(replaced.json.url), email: " Dana@Example.com " });
    expect(joined).toEqual({ groupId: g.groupId, groupName: g.name, workspaceId: team.workspaceId, workspaceName: team.workspaceName, email: "dana@example.com", joined: true });

    expect((await dash(team.owner, "DELETE", `/api/groups/${g.groupId}/invite-link`)).status).toBe(204);
    expect((await dash(team.owner, "DELETE", `/api/groups/${g.groupId}/invite-link`)).status).toBe(204);
    const after = await dash(team.owner, "GET", `/api/groups/${g.groupId}`);
    expect(after.json).toMatchObject({ inviteLink: null, testerCount: 1, testers: [{ email: "dana@example.com", source: "joined" }] });
    await expect(joinGroupByLink(joinDeps(), { token: tokenOf(replaced.json.url), email: "erin@example.com" })).rejects.toBeInstanceOf(JoinLinkGoneError);
    // A token nobody made, and no token at all: the same answer.
    await expect(previewJoinLink(joinDeps(), "A".repeat(43))).rejects.toBeInstanceOf(JoinLinkGoneError);
    await expect(previewJoinLink(joinDeps(), "../../etc")).rejects.toBeInstanceOf(JoinLinkGoneError);
  });

  it("take people up to their member cap, once each; a full or expired link is gone", async () => {
    const g = await newGroup(team, `Capped ${randomIds.userKey()}`);
    await dash(team.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: ["already@example.com"] });
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const link = await dash(team.owner, "POST", `/api/groups/${g.groupId}/invite-link`, { maxMembers: 2, expiresAt });
    expect(link.status, link.text).toBe(201);
    expect(link.json).toMatchObject({ maxMembers: 2, expiresAt, joinedCount: 0 });
    const token = tokenOf(link.json.url);

    // Someone in the group already: no change, nothing counted (a second click on the mail too).
    expect((await joinGroupByLink(joinDeps(), { token, email: "already@example.com" })).joined).toBe(false);
    // Three people at once for two places: exactly two get in.
    const attempts = await Promise.allSettled(["p1@example.com", "p2@example.com", "p3@example.com"].map((email) => joinGroupByLink(joinDeps(), { token, email })));
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(2);
    const refused = attempts.filter((a): a is PromiseRejectedResult => a.status === "rejected");
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(JoinLinkGoneError);
    const winner = attempts.findIndex((a) => a.status === "fulfilled");
    expect((await joinGroupByLink(joinDeps(), { token, email: `p${winner + 1}@example.com` })).joined).toBe(false);
    await expect(previewJoinLink(joinDeps(), token)).rejects.toBeInstanceOf(JoinLinkGoneError);

    const group = await dash(team.owner, "GET", `/api/groups/${g.groupId}`);
    expect(group.json.inviteLink).toMatchObject({ joinedCount: 2, maxMembers: 2 });
    expect(group.json.testerCount).toBe(3);
    expect(group.json.testers.filter((t: { source: string }) => t.source === "joined")).toHaveLength(2);

    // A link that has expired: gone, for the preview and the join.
    const open = await dash(team.owner, "POST", `/api/groups/${g.groupId}/invite-link`, { expiresAt });
    const later = new Date(Date.now() + 2 * 3600_000);
    const lateDeps = { ...joinDeps(), clock: { now: () => later } };
    await expect(previewJoinLink(lateDeps, tokenOf(open.json.url))).rejects.toBeInstanceOf(JoinLinkGoneError);
    await expect(joinGroupByLink(lateDeps, { token: tokenOf(open.json.url), email: "slow@example.com", now: later })).rejects.toBeInstanceOf(JoinLinkGoneError);
    expect((await joinGroupByLink(joinDeps(), { token: tokenOf(open.json.url), email: "quick@example.com" })).joined).toBe(true);

    // The group deleted: its link is gone with it.
    expect((await dash(team.owner, "DELETE", `/api/groups/${g.groupId}`)).status).toBe(204);
    await expect(joinGroupByLink(joinDeps(), { token: tokenOf(open.json.url), email: "after@example.com" })).rejects.toBeInstanceOf(JoinLinkGoneError);
  });
});

describe("a workspace's delete", () => {
  it("removes its groups, their testers and their invite links", async () => {
    const t = await newTeam();
    const g = await newGroup(t, "Goes with it");
    await dash(t.owner, "POST", `/api/groups/${g.groupId}/testers`, { emails: addresses("ws-delete", 30) });
    const link = await dash(t.owner, "POST", `/api/groups/${g.groupId}/invite-link`, {});
    expect(link.status).toBe(201);
    const deleted = await dash(t.owner, "DELETE", `/api/workspaces/${t.workspaceId}`, { confirmName: t.workspaceName });
    expect(deleted.status, deleted.text).toBe(200);
    for (const pk of [`GROUP#${g.groupId}`, `WORKSPACE#${t.workspaceId}`]) {
      const left = await db().send(new QueryCommand({ TableName: table(), KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, ConsistentRead: true }));
      expect(left.Items, pk).toEqual([]);
    }
    await expect(joinGroupByLink(joinDeps(), { token: tokenOf(link.json.url), email: "late@example.com" })).rejects.toBeInstanceOf(JoinLinkGoneError);
    const stored = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `JOINLINK#${createHash("sha256").update(tokenOf(link.json.url)).digest("hex")}` },
        ConsistentRead: true,
      }),
    );
    expect(stored.Items).toEqual([]);
  });
});
