import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStackProcess, type StackProcess } from "./support/local-stack-process";

/**
 * A delete that does not fit the request shows the project as deleting until the background has
 * purged it. The shared stack purges inside the request for up to HANGAR_DELETE_INLINE_MS (5 s),
 * so whether a delete answers 202 there depends on the machine's speed; this file starts its own
 * stack with no inline budget, where every project delete answers 202 and continues in the
 * background, so the deleting state is asserted unconditionally.
 */
const dataDir = mkdtempSync(join(tmpdir(), "hangar-delete-background-"));
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

/** A verified account signed in on this stack (verified in the table: the mail is not what is tested). */
async function signedInCookie(): Promise<string> {
  const email = `deleting-${Date.now()}@hangar.test`;
  const password = "correct horse battery staple";
  expect((await request("POST", "/api/account/sign-up", undefined, { email, password })).status).toBe(202);
  const { Item: link } = await db.send(new GetCommand({ TableName: stack.info.tableName, Key: { pk: `EMAIL#${email}`, sk: "EMAIL" } }));
  await db.send(new UpdateCommand({ TableName: stack.info.tableName, Key: { pk: `USER#${link!.userId}`, sk: "USER" }, UpdateExpression: "SET emailVerified = :t", ExpressionAttributeValues: { ":t": true } }));
  const signIn = await request("POST", "/api/session", undefined, { email, password });
  expect(signIn.status).toBe(200);
  return signIn.setCookie[0]!.split(";")[0]!;
}

describe("a project delete that continues in the background", () => {
  it("answers 202 deleting, shows the project as deleting, then removes everything", async () => {
    const cookie = await signedInCookie();
    const created = await request("POST", "/api/projects", cookie, { name: "Huge", color: "blue" });
    expect(created.status).toBe(201);
    const { projectId } = created.json as { projectId: string };
    const files = Array.from({ length: 2500 }, (_, i) => {
      const fileId = `fil_bg${String(i).padStart(12, "0")}`;
      return {
        pk: `FILE#${fileId}`, sk: "FILE", type: "file", gsi1pk: `PROJECT#${projectId}`, gsi1sk: `FILE#2026-01-01T00:00:${String(i % 60).padStart(2, "0")}.${String(i).padStart(3, "0").slice(-3)}Z#${fileId}`,
        fileId, projectId, key: `uploads/${projectId}/${fileId}/App.ipa`, clientId: "hgr_bulk", fileName: "App.ipa",
        fileType: "application/octet-stream", fileSize: 1, status: "completed", createdAt: "2026-01-01T00:00:00.000Z",
      };
    });
    for (let i = 0; i < files.length; i += 25) {
      await db.send(new BatchWriteCommand({ RequestItems: { [stack.info.tableName]: files.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }

    const started = await request("DELETE", `/api/projects/${projectId}`, cookie, { confirmName: "Huge" });
    expect(started.status).toBe(202);
    expect(started.json).toEqual({ status: "deleting" });
    // The project item goes last, after every file page: until then it is listed as deleting.
    const during = await request("GET", `/api/projects/${projectId}`, cookie);
    expect(during.status).toBe(200);
    expect(during.json.status).toBe("deleting");
    expect((await request("GET", "/api/projects", cookie)).json.items).toEqual([expect.objectContaining({ projectId, status: "deleting" })]);
    // Nothing can be changed meanwhile.
    expect((await request("PATCH", `/api/projects/${projectId}`, cookie, { name: "Renamed" })).json.error.code).toBe("project_deleting");

    const deadline = Date.now() + 60_000;
    while ((await request("GET", `/api/projects/${projectId}`, cookie)).status !== 404 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await request("GET", `/api/projects/${projectId}`, cookie)).status).toBe(404);
    const left = await db.send(
      new QueryCommand({ TableName: stack.info.tableName, IndexName: "gsi1", KeyConditionExpression: "gsi1pk = :pk", ExpressionAttributeValues: { ":pk": `PROJECT#${projectId}` } }),
    );
    expect(left.Items).toEqual([]);
  });
});
