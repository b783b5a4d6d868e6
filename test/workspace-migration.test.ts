import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { personalWorkspaceId } from "@hangar/core";
import { migrateToWorkspaces, WORKSPACES_MIGRATION } from "@hangar/core/migrations";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureTable } from "../packages/local/src/dynamodb/ensure-table";
import { dash, browser } from "./support/accounts";
import { call, db, stack, upload, type Key } from "./support/api";
import { ipaPath } from "./support/dashboard";
import { readFixture } from "./support/api";
import { REPO_ROOT } from "./support/local-stack-process";

/**
 * The workspace migration (packages/core/src/migrations/) on a table written by the code from
 * before workspaces: test/fixtures/tables/pre-workspaces.json, dumped from a running stack of that
 * commit by scripts/fixtures/dump-pre-workspaces-table.ts (one signed-up account with two projects,
 * keys, an upload with changed link settings; one key:create account). Loaded into a fresh table
 * of the run's DynamoDB Local, migrated twice.
 */
interface Fixture {
  account: { email: string; password: string };
  projects: { ios: string; android: string; legacy: string };
  keys: Record<"ios" | "android" | "legacy", { clientId: string; clientSecret: string; projectId: string }>;
  upload: { fileId: string; userKey: string };
  items: Record<string, unknown>[];
}
const fixture = JSON.parse(readFileSync(join(REPO_ROOT, "test/fixtures/tables/pre-workspaces.json"), "utf8")) as Fixture;
const tableName = `hangar-migration-${randomBytes(4).toString("hex")}`;
let client: DynamoDBDocumentClient;

async function scan(): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort((a, b) => `${a.pk} ${a.sk}`.localeCompare(`${b.pk} ${b.sk}`));
}

const userIdOf = (email: string) => fixture.items.find((i) => i.type === "user" && i.email === email)!.userId as string;

beforeAll(async () => {
  const s = stack();
  const raw = new DynamoDBClient({ endpoint: s.dynamoEndpoint, region: s.region, credentials: s.credentials });
  await ensureTable(raw, tableName);
  client = db();
  for (let i = 0; i < fixture.items.length; i += 25) {
    const chunk = fixture.items.slice(i, i + 25);
    await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: chunk.map((Item) => ({ PutRequest: { Item } })) } }));
  }
});

describe("migration onto workspaces", () => {
  it("moves every account's data into its personal workspace, and a second run changes nothing", async () => {
    const first = await migrateToWorkspaces(client, tableName);
    expect(first).toEqual({ skipped: false, workspacesCreated: 2, projectsMoved: 3, keysUpdated: 3, pendingDeletesUpdated: 0 });
    const after = await scan();

    const owner = userIdOf(fixture.account.email);
    const legacy = userIdOf("local@hangar.localhost");
    for (const [userId, projects] of [
      [owner, [fixture.projects.ios, fixture.projects.android]],
      [legacy, [fixture.projects.legacy]],
    ] as const) {
      const ws = personalWorkspaceId(userId);
      const user = after.find((i) => i.pk === `USER#${userId}` && i.sk === "USER")!;
      expect(user.workspaceCount).toBe(1);
      // The project limit's counter moved to the workspace.
      expect(user.projectCount).toBeUndefined();
      expect(after.find((i) => i.pk === `WORKSPACE#${ws}` && i.sk === "WORKSPACE")).toMatchObject({
        type: "workspace",
        workspaceId: ws,
        personal: true,
        createdBy: userId,
        createdAt: user.createdAt,
        memberCount: 1,
        ownerCount: 1,
        projectCount: projects.length,
      });
      expect(after.find((i) => i.pk === `WORKSPACE#${ws}` && i.sk === `MEMBER#${userId}`)).toMatchObject({
        type: "member",
        role: "owner",
        gsi1pk: `USER#${userId}`,
        gsi1sk: `WORKSPACE#${ws}`,
      });
      for (const projectId of projects) {
        const before = fixture.items.find((i) => i.type === "project" && i.projectId === projectId)!;
        const { pk: _pk, ...kept } = before;
        // Every attribute kept (gsi1 included), in the workspace's partition, with its workspace.
        expect(after.find((i) => i.sk === `PROJECT#${projectId}`)).toEqual({ ...kept, pk: `WORKSPACE#${ws}`, workspaceId: ws });
      }
      // Nothing of projects is left in the user's partition.
      expect(after.filter((i) => i.pk === `USER#${userId}` && String(i.sk).startsWith("PROJECT"))).toEqual([]);
    }
    expect(after.filter((i) => i.type === "projectName").map((i) => `${i.pk} ${i.sk}`)).toEqual(
      [
        `WORKSPACE#${personalWorkspaceId(owner)} PROJECTNAME#field app`,
        `WORKSPACE#${personalWorkspaceId(owner)} PROJECTNAME#field app android`,
        `WORKSPACE#${personalWorkspaceId(legacy)} PROJECTNAME#legacy ci`,
      ].sort(),
    );
    for (const key of Object.values(fixture.keys)) {
      const before = fixture.items.find((i) => i.pk === `APIKEY#${key.clientId}`)!;
      // userId stays: who created the key.
      expect(after.find((i) => i.pk === `APIKEY#${key.clientId}`)).toEqual({ ...before, workspaceId: personalWorkspaceId(before.userId as string) });
    }
    // Files, links, sessions, usage: untouched.
    for (const before of fixture.items.filter((i) => ["file", "share", "session", "usage", "email", "seal"].includes(i.type as string))) {
      expect(after.find((i) => i.pk === before.pk && i.sk === before.sk)).toEqual(before);
    }
    expect(after.find((i) => i.pk === WORKSPACES_MIGRATION.pk)).toMatchObject({ type: "migration", doneAt: expect.any(String) });

    // Again: the marker stops it after one read.
    expect(await migrateToWorkspaces(client, tableName)).toMatchObject({ skipped: true });
    // And even a full pass without the marker finds nothing left to do.
    expect(await migrateToWorkspaces(client, tableName, { force: true })).toEqual({
      skipped: false,
      workspacesCreated: 0,
      projectsMoved: 0,
      keysUpdated: 0,
      pendingDeletesUpdated: 0,
    });
    const again = await scan();
    expect(again.filter((i) => i.type !== "migration")).toEqual(after.filter((i) => i.type !== "migration"));
  });

  it("ran on this stack's start, before it served (its marker is in the stack's table)", async () => {
    const marker = await db().send(new GetCommand({ TableName: stack().tableName, Key: WORKSPACES_MIGRATION, ConsistentRead: true }));
    expect(marker.Item).toMatchObject({ type: "migration" });
  });

  it("keeps what people had working: the old key uploads, the old link serves, the owner sees their projects and keys", async () => {
    // Into the running stack's own table, so its handlers serve it. Its other tests' accounts must
    // not meet these: the fixture's addresses get a suffix of this run (and its rate counters stay out).
    const suffix = randomBytes(4).toString("hex");
    const rename = (text: string) =>
      text.replaceAll(fixture.account.email, `${suffix}-${fixture.account.email}`).replaceAll("local@hangar.localhost", `${suffix}-local@hangar.localhost`);
    const items = fixture.items.filter((i) => i.type !== "rate").map((i) => JSON.parse(rename(JSON.stringify(i))) as Record<string, unknown>);
    for (let i = 0; i < items.length; i += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [stack().tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    // The stack migrated its (empty) table at start; these items came later, so run the pass again.
    // The shared stack's table also holds other test files' items (some written in the old shape
    // on purpose), so the pass's counts are at least the fixture's; its own items are checked one by one.
    const report = await migrateToWorkspaces(db(), stack().tableName, { force: true });
    expect(report.workspacesCreated).toBeGreaterThanOrEqual(2);
    expect(report.projectsMoved).toBeGreaterThanOrEqual(3);
    expect(report.keysUpdated).toBeGreaterThanOrEqual(3);
    for (const { clientId } of Object.values(fixture.keys)) {
      const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `APIKEY#${clientId}`, sk: "APIKEY" }, ConsistentRead: true }));
      expect(Item?.workspaceId).toBe(personalWorkspaceId(Item!.userId as string));
      const project = await db().send(
        new GetCommand({ TableName: stack().tableName, Key: { pk: `WORKSPACE#${Item!.workspaceId}`, sk: `PROJECT#${Item!.projectId}` }, ConsistentRead: true }),
      );
      expect(project.Item, `project of ${clientId} in its workspace`).toMatchObject({ type: "project", workspaceId: Item!.workspaceId });
    }

    const key: Key = fixture.keys.ios;
    const bytes = readFixture(ipaPath());
    const { completed } = await upload(key, "After.ipa", bytes);
    expect(completed.status, completed.text).toBe(200);

    const page = await call(`/share/${fixture.upload.userKey}`, { headers: { Accept: "text/html" } });
    expect(page.status, page.text).toBe(200);
    expect((await call(`/download/${fixture.upload.userKey}`)).status).toBe(302);

    const owner = browser();
    const signIn = await dash(owner, "POST", "/api/session", { email: `${suffix}-${fixture.account.email}`, password: fixture.account.password });
    expect(signIn.status, signIn.text).toBe(200);
    const workspaces = await dash(owner, "GET", "/api/workspaces");
    const personal = personalWorkspaceId(userIdOf(fixture.account.email));
    expect(workspaces.json.items).toMatchObject([{ workspaceId: personal, personal: true, role: "owner" }]);
    const projects = await dash(owner, "GET", "/api/projects");
    expect(projects.status, projects.text).toBe(200);
    expect(projects.json.items.map((p: { projectId: string }) => p.projectId).sort()).toEqual([fixture.projects.ios, fixture.projects.android].sort());
    expect(projects.json.items.find((p: { projectId: string }) => p.projectId === fixture.projects.ios)).toMatchObject({ workspaceId: personal, fileCount: 2 });
    const keys = await dash(owner, "GET", "/api/keys");
    expect(keys.json.items.map((k: { clientId: string }) => k.clientId).sort()).toEqual([fixture.keys.ios.clientId, fixture.keys.android.clientId].sort());
  });
});
