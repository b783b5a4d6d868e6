import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { personalWorkspaceId } from "@hangar/core";
import { DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStackProcess, type StackProcess } from "./support/local-stack-process";

/**
 * A workspace delete that does not fit the request: this file's stack has no inline budget
 * (HANGAR_DELETE_INLINE_MS=0, as project-delete-background.test.ts), so every workspace delete
 * answers `deleting` and continues in the background, and what the workspace looks like meanwhile
 * is asserted unconditionally: gone for every member at once, then gone from the table.
 */
const dataDir = mkdtempSync(join(tmpdir(), "hangar-workspace-delete-"));
let stack: StackProcess;
let db: DynamoDBDocumentClient;
let client: DynamoDBClient;

beforeAll(async () => {
  stack = await startStackProcess(dataDir, { HANGAR_DYNAMODB_IN_MEMORY: "1", HANGAR_DELETE_INLINE_MS: "0" });
  const { info } = stack;
  client = new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials });
  db = DynamoDBDocumentClient.from(client);
}, 200_000);
afterAll(async () => {
  client?.destroy();
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function request(method: string, path: string, cookie?: string, body?: unknown) {
  const res = await fetch(`${stack.info.baseUrl}${path}`, {
    method,
    headers: { Origin: stack.info.baseUrl, "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, setCookie: res.headers.getSetCookie() };
}

const PASSWORD = "correct horse battery staple";
let accounts = 0;

/** A verified account signed in on this stack (verified in the table: the mail is not what is tested). */
async function signedIn(): Promise<{ cookie: string; userId: string }> {
  const email = `ws-deleting-${Date.now()}-${accounts++}@hangar.test`;
  expect((await request("POST", "/api/account/sign-up", undefined, { email, password: PASSWORD })).status).toBe(202);
  const { Item: link } = await db.send(new GetCommand({ TableName: stack.info.tableName, Key: { pk: `EMAIL#${email}`, sk: "EMAIL" } }));
  await db.send(new UpdateCommand({ TableName: stack.info.tableName, Key: { pk: `USER#${link!.userId}`, sk: "USER" }, UpdateExpression: "SET emailVerified = :t", ExpressionAttributeValues: { ":t": true } }));
  const signIn = await request("POST", "/api/session", undefined, { email, password: PASSWORD });
  expect(signIn.status).toBe(200);
  return { cookie: signIn.setCookie[0]!.split(";")[0]!, userId: link!.userId as string };
}

/** A team workspace with one project and one key in it. */
async function teamWithProject(cookie: string, name: string) {
  const workspace = await request("POST", "/api/workspaces", cookie, { name });
  expect(workspace.status).toBe(201);
  const workspaceId = workspace.json.workspaceId as string;
  const project = await request("POST", "/api/projects", cookie, { name: `${name} app`, color: "blue", workspaceId });
  expect(project.status).toBe(201);
  const key = await request("POST", "/api/keys", cookie, { name: "CI", projectId: project.json.projectId });
  expect(key.status).toBe(201);
  return { workspaceId, projectId: project.json.projectId as string, clientId: key.json.clientId as string };
}

/** Every item of the table whose attributes mention one of `needles`. */
async function itemsMentioning(...needles: string[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: stack.info.tableName, ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const item of page.Items ?? []) if (needles.some((n) => JSON.stringify(item).includes(n))) found.push(item);
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

async function untilNothingMentions(...needles: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await itemsMentioning(...needles)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(await itemsMentioning(...needles)).toEqual([]);
}

describe("a workspace delete that continues in the background", () => {
  it("answers 200 deleting, is gone for every member at once, then leaves nothing", async () => {
    const owner = await signedIn();
    const colleague = await signedIn();
    const { workspaceId, projectId, clientId } = await teamWithProject(owner.cookie, "Background team");
    await new DynamoWorkspaceCatalog(db, stack.info.tableName).addMember({ workspaceId, userId: colleague.userId, role: "admin", joinedAt: new Date().toISOString() });
    expect((await request("GET", `/api/workspaces/${workspaceId}`, colleague.cookie)).status).toBe(200);

    const started = await request("DELETE", `/api/workspaces/${workspaceId}`, owner.cookie, { confirmName: "Background team" });
    expect(started.status).toBe(200);
    expect(started.json).toEqual({ status: "deleting" });
    // From the answer on, nobody reaches it (404 as an unknown id) and it is no longer listed.
    for (const who of [owner, colleague]) {
      expect((await request("GET", `/api/workspaces/${workspaceId}`, who.cookie)).json.error.code).toBe("workspace_not_found");
      expect((await request("GET", `/api/projects?workspaceId=${workspaceId}`, who.cookie)).status).toBe(404);
      expect((await request("GET", "/api/workspaces", who.cookie)).json.items.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([
        personalWorkspaceId(who.userId),
      ]);
    }
    expect((await request("POST", "/api/projects", owner.cookie, { name: "Late", color: "red", workspaceId })).status).toBe(404);

    await untilNothingMentions(workspaceId, projectId, clientId);
  });

  it("an account deletion whose purge goes to the background still removes the workspaces it alone owned", async () => {
    const owner = await signedIn();
    const team = await teamWithProject(owner.cookie, "Orphan team");
    const personal = await request("POST", "/api/projects", owner.cookie, { name: "Personal app", color: "blue" });
    expect(personal.status).toBe(201);

    const gone = await request("DELETE", "/api/account", owner.cookie, { password: PASSWORD });
    expect(gone.status).toBe(202);
    expect(gone.json).toEqual({ status: "deleting" });

    // Both workspaces (members included: no member item is left behind), their projects and keys,
    // and the user item. (The account's own mailed tokens and rate windows expire by TTL: not this file's subject.)
    await untilNothingMentions(team.workspaceId, personalWorkspaceId(owner.userId), team.projectId, personal.json.projectId, team.clientId);
    const user = await db.send(new GetCommand({ TableName: stack.info.tableName, Key: { pk: `USER#${owner.userId}`, sk: "USER" }, ConsistentRead: true }));
    expect(user.Item).toBeUndefined();
  });
});
