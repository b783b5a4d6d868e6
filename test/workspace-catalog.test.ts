import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { MAX_MEMBERS, MAX_WORKSPACES_PER_USER, newWorkspaceId, personalWorkspaceId, randomIds } from "@hangar/core";
import { DynamoUserRepository, DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { describe, expect, it } from "vitest";
import { db, stack } from "./support/api";

/*
 * The workspace catalog against DynamoDB Local (the run's stack): the rules that must hold under
 * concurrency — limits and the last owner — are the database's transactions' conditions, so they
 * are tested where those conditions run.
 */
const catalog = () => new DynamoWorkspaceCatalog(db(), stack().tableName);
const users = () => new DynamoUserRepository(db(), stack().tableName);

async function newUser(): Promise<string> {
  const userId = randomIds.userId();
  await users().create({ userId, email: `${userId.toLowerCase()}@hangar.test`, emailVerified: true, createdAt: new Date().toISOString() });
  return userId;
}

async function teamOf(ownerId: string, name = "Team") {
  return catalog().create({
    workspaceId: newWorkspaceId(),
    name,
    personal: false,
    createdAt: new Date().toISOString(),
    createdBy: ownerId,
  });
}

const joinedAt = () => new Date().toISOString();
const item = async (key: Record<string, string>) => (await db().send(new GetCommand({ TableName: stack().tableName, Key: key, ConsistentRead: true }))).Item;

describe("DynamoWorkspaceCatalog", () => {
  it("makes every new account the owner of its personal workspace, counted on the user", async () => {
    const userId = await newUser();
    const ws = await catalog().get(personalWorkspaceId(userId));
    expect(ws).toMatchObject({ workspaceId: personalWorkspaceId(userId), personal: true, memberCount: 1, ownerCount: 1, createdBy: userId });
    expect(ws!.name).toMatch(/'s workspace$/);
    expect(await catalog().membership(ws!.workspaceId, userId)).toMatchObject({ role: "owner" });
    expect((await item({ pk: `USER#${userId}`, sk: "USER" }))!.workspaceCount).toBe(1);
    expect((await catalog().listForUser(userId)).map((w) => w.workspace.workspaceId)).toEqual([ws!.workspaceId]);
  });

  it("adds, lists, re-roles and removes members, keeping every counter", async () => {
    const [owner, dev] = [await newUser(), await newUser()];
    const ws = await teamOf(owner);
    await catalog().addMember({ workspaceId: ws.workspaceId, userId: dev, role: "developer", joinedAt: joinedAt() });
    await expect(catalog().addMember({ workspaceId: ws.workspaceId, userId: dev, role: "viewer", joinedAt: joinedAt() })).rejects.toMatchObject({
      code: "already_member",
    });
    expect((await catalog().listMembers(ws.workspaceId)).map((m) => [m.userId, m.role]).sort()).toEqual(
      [
        [owner, "owner"],
        [dev, "developer"],
      ].sort(),
    );
    expect((await catalog().listForUser(dev)).map((w) => w.workspace.workspaceId).sort()).toEqual([personalWorkspaceId(dev), ws.workspaceId].sort());
    expect(await catalog().changeRole(ws.workspaceId, dev, "owner")).toMatchObject({ role: "owner" });
    expect(await catalog().get(ws.workspaceId)).toMatchObject({ memberCount: 2, ownerCount: 2 });
    await catalog().removeMember(ws.workspaceId, dev);
    expect(await catalog().membership(ws.workspaceId, dev)).toBeUndefined();
    expect(await catalog().get(ws.workspaceId)).toMatchObject({ memberCount: 1, ownerCount: 1 });
    expect((await item({ pk: `USER#${dev}`, sk: "USER" }))!.workspaceCount).toBe(1);
    await expect(catalog().removeMember(ws.workspaceId, owner)).rejects.toMatchObject({ code: "last_owner" });
    await expect(catalog().changeRole(ws.workspaceId, owner, "admin")).rejects.toMatchObject({ code: "last_owner" });
  });

  it("lets exactly one of two owners demoting each other at once succeed", async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = [await newUser(), await newUser()];
      const ws = await teamOf(a);
      await catalog().addMember({ workspaceId: ws.workspaceId, userId: b, role: "owner", joinedAt: joinedAt() });
      const results = await Promise.allSettled([catalog().changeRole(ws.workspaceId, a, "admin"), catalog().removeMember(ws.workspaceId, b)]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "last_owner" });
      const members = await catalog().listMembers(ws.workspaceId);
      expect(members.filter((m) => m.role === "owner")).toHaveLength(1);
      expect(await catalog().get(ws.workspaceId)).toMatchObject({ ownerCount: 1, memberCount: members.length });
    }
  });

  it("transfers ownership in one step: the target owns, the giver administers", async () => {
    const [owner, admin] = [await newUser(), await newUser()];
    const ws = await teamOf(owner);
    await catalog().addMember({ workspaceId: ws.workspaceId, userId: admin, role: "admin", joinedAt: joinedAt() });
    await catalog().transferOwnership(ws.workspaceId, owner, admin);
    expect(await catalog().membership(ws.workspaceId, admin)).toMatchObject({ role: "owner" });
    expect(await catalog().membership(ws.workspaceId, owner)).toMatchObject({ role: "admin" });
    expect(await catalog().get(ws.workspaceId)).toMatchObject({ ownerCount: 1, memberCount: 2 });
  });

  it("holds the member limit exactly when many join at once", async () => {
    const owner = await newUser();
    const ws = await teamOf(owner);
    // Starts just below the limit, as if MAX_MEMBERS - 3 had joined.
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `WORKSPACE#${ws.workspaceId}`, sk: "WORKSPACE" },
        UpdateExpression: "SET memberCount = :n",
        ExpressionAttributeValues: { ":n": MAX_MEMBERS - 3 },
      }),
    );
    const joiners = await Promise.all(Array.from({ length: 8 }, () => newUser()));
    const results = await Promise.allSettled(
      joiners.map((userId) => catalog().addMember({ workspaceId: ws.workspaceId, userId, role: "viewer", joinedAt: joinedAt() })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "limit_reached", details: { limit: "members" } });
    }
    expect(await catalog().get(ws.workspaceId)).toMatchObject({ memberCount: MAX_MEMBERS });
  });

  it("holds the per-account workspace limit", async () => {
    const owner = await newUser();
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `USER#${owner}`, sk: "USER" },
        UpdateExpression: "SET workspaceCount = :n",
        ExpressionAttributeValues: { ":n": MAX_WORKSPACES_PER_USER - 1 },
      }),
    );
    const results = await Promise.allSettled([teamOf(owner, "A"), teamOf(owner, "B"), teamOf(owner, "C")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await item({ pk: `USER#${owner}`, sk: "USER" }))!.workspaceCount).toBe(MAX_WORKSPACES_PER_USER);
  });

  it("refreshes lastActiveAt at most once an hour", async () => {
    const owner = await newUser();
    const id = personalWorkspaceId(owner);
    const first = await catalog().membership(id, owner);
    expect(first!.lastActiveAt).toBeUndefined();
    await catalog().touch(first!);
    const touched = await catalog().membership(id, owner);
    expect(touched!.lastActiveAt).toEqual(expect.any(String));
    const later = new DynamoWorkspaceCatalog(db(), stack().tableName, () => new Date(Date.parse(touched!.lastActiveAt!) + 30 * 60_000));
    await later.touch(touched!);
    expect((await catalog().membership(id, owner))!.lastActiveAt).toBe(touched!.lastActiveAt);
  });

  it("removes a workspace with its members, giving each member's place back", async () => {
    const [owner, dev] = [await newUser(), await newUser()];
    const ws = await teamOf(owner);
    await catalog().addMember({ workspaceId: ws.workspaceId, userId: dev, role: "developer", joinedAt: joinedAt() });
    await catalog().remove(ws.workspaceId);
    expect(await catalog().get(ws.workspaceId)).toBeUndefined();
    expect(await catalog().membership(ws.workspaceId, dev)).toBeUndefined();
    expect((await item({ pk: `USER#${dev}`, sk: "USER" }))!.workspaceCount).toBe(1);
    expect((await item({ pk: `USER#${owner}`, sk: "USER" }))!.workspaceCount).toBe(1);
  });
});
