import { BatchWriteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { personalWorkspaceId } from "@hangar/core";
import { describe, expect, it } from "vitest";
import { dash, signedIn, type Browser } from "./support/accounts";
import { db, presign, stack } from "./support/api";
import { newProject } from "./support/dashboard";

async function userIdOf(b: Browser): Promise<string> {
  return (await dash(b, "GET", "/api/account")).json.userId;
}

async function batchPut(items: Record<string, unknown>[]) {
  for (let i = 0; i < items.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [stack().tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}

/**
 * Projects as the code before counting wrote them (moved into the account's personal workspace,
 * as the workspace migration moves them): project and name items, no count anywhere.
 */
async function legacyProjects(userId: string, count: number) {
  const workspaceId = personalWorkspaceId(userId);
  const items = Array.from({ length: count }, (_, i) => {
    const projectId = `prj_legacy${String(i).padStart(4, "0")}${userId.slice(-6)}`;
    const name = `Legacy ${i}`;
    return [
      { pk: `WORKSPACE#${workspaceId}`, sk: `PROJECT#${projectId}`, type: "project", gsi1pk: `PROJECT#${projectId}`, gsi1sk: "PROJECT", projectId, workspaceId, userId, name, description: "", color: "blue", createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), status: "active", fileCount: 0 },
      { pk: `WORKSPACE#${workspaceId}`, sk: `PROJECTNAME#${name.toLowerCase()}`, type: "projectName", projectId },
    ];
  });
  await batchPut(items.flat());
  // Before counting, no counter existed: the workspace sign-up made starts counting from zero.
  await db().send(
    new UpdateCommand({ TableName: stack().tableName, Key: { pk: `WORKSPACE#${workspaceId}`, sk: "WORKSPACE" }, UpdateExpression: "REMOVE projectCount" }),
  );
}

/** Active keys as the code before counting wrote them: key items only, no count on the project. */
async function legacyKeys(userId: string, projectId: string, count: number, status = "active") {
  await batchPut(
    Array.from({ length: count }, (_, i) => {
      const clientId = `hgr_legacy${status}${String(i).padStart(3, "0")}${projectId.slice(-6)}`;
      const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      return { pk: `APIKEY#${clientId}`, sk: "APIKEY", type: "apiKey", gsi1pk: `PROJECT#${projectId}`, gsi1sk: `APIKEY#${createdAt}#${clientId}`, clientId, secretHash: "0".repeat(64), name: `Legacy ${i}`, projectId, userId, status, createdAt };
    }),
  );
}

const statuses = (replies: { status: number }[]) => replies.map((r) => r.status).sort();

describe("limits hold under concurrency (L1)", () => {
  it("30 parallel project creates at 95 existing projects (written before counting) make exactly 100", async () => {
    const { b } = await signedIn();
    const userId = await userIdOf(b);
    await legacyProjects(userId, 95);
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => dash(b, "POST", "/api/projects", { name: `Parallel ${i}`, color: "green" })));
    expect(statuses(replies)).toEqual([...Array(5).fill(201), ...Array(25).fill(409)]);
    for (const r of replies.filter((r) => r.status === 409)) expect(r.json.error.code).toBe("limit_reached");
    const listed = await dash(b, "GET", "/api/projects");
    expect(listed.json.items).toHaveLength(100);
    const { Item } = await db().send(
      new GetCommand({ TableName: stack().tableName, Key: { pk: `WORKSPACE#${personalWorkspaceId(userId)}`, sk: "WORKSPACE" }, ConsistentRead: true }),
    );
    expect(Item!.projectCount).toBe(100);

    // Deleting one frees exactly one place.
    const made = replies.find((r) => r.status === 201)!.json;
    expect([202, 204]).toContain((await dash(b, "DELETE", `/api/projects/${made.projectId}`, { confirmName: made.name })).status);
    const again = await Promise.all(Array.from({ length: 5 }, (_, i) => dash(b, "POST", "/api/projects", { name: `Again ${i}`, color: "red" })));
    expect(statuses(again)).toEqual([201, 409, 409, 409, 409]);
  });

  it("30 parallel creates on a new account all succeed, and the count matches", async () => {
    const { b } = await signedIn();
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => dash(b, "POST", "/api/projects", { name: `Fresh ${i}`, color: "blue" })));
    expect(statuses(replies)).toEqual(Array(30).fill(201));
    const workspace = { pk: `WORKSPACE#${personalWorkspaceId(await userIdOf(b))}`, sk: "WORKSPACE" };
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: workspace, ConsistentRead: true }));
    expect(Item!.projectCount).toBe(30);
  });

  it("30 parallel key creates at 15 active keys (written before counting, beside revoked ones) make exactly 20", async () => {
    const { b } = await signedIn();
    const userId = await userIdOf(b);
    const { projectId } = await newProject(b, "Keys");
    await legacyKeys(userId, projectId, 15);
    await legacyKeys(userId, projectId, 4, "revoked");
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => dash(b, "POST", "/api/keys", { name: `CI ${i}`, projectId })));
    expect(statuses(replies)).toEqual([...Array(5).fill(201), ...Array(25).fill(409)]);
    for (const r of replies.filter((r) => r.status === 409)) expect(r.json.error.code).toBe("limit_reached");
    const listed = (await dash(b, "GET", "/api/keys")).json.items.filter((k: { projectId: string; status: string }) => k.projectId === projectId);
    expect(listed.filter((k: { status: string }) => k.status === "active")).toHaveLength(20);

    // A revoke frees exactly one place; the new key works.
    const made = replies.find((r) => r.status === 201)!.json;
    expect((await dash(b, "DELETE", `/api/keys/${made.clientId}`)).status).toBe(204);
    const again = await Promise.all(Array.from({ length: 4 }, (_, i) => dash(b, "POST", "/api/keys", { name: `Again ${i}`, projectId })));
    expect(statuses(again)).toEqual([201, 409, 409, 409]);
    const fresh = again.find((r) => r.status === 201)!.json;
    const reply = await presign({ clientId: fresh.clientId, clientSecret: fresh.clientSecret, projectId }, { fileName: "a.ipa", fileSize: 10, fileType: "application/octet-stream" });
    expect(reply.status).toBe(200);
  });
});
