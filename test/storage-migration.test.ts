import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, GetCommand, ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { migrateStorageCounts, migrateToWorkspaces, STORAGE_MIGRATION } from "@hangar/core/migrations";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureTable } from "../packages/local/src/dynamodb/ensure-table";
import { dash } from "./support/accounts";
import { db, stack } from "./support/api";
import { newDashboardKey, newProject, uploadIpa } from "./support/dashboard";
import { REPO_ROOT } from "./support/local-stack-process";
import { member } from "./support/workspaces";

/**
 * The deploy's storage migration (packages/core/src/migrations/storage.migration.ts,
 * docs/release-safety.md "Storage"): a project stored before the storage counter existed answers
 * its bytes right after the migration, before any read counted it, and a table from before
 * workspaces comes out of both migrations with every project counted.
 */

const projectItem = async (workspaceId: string, projectId: string) =>
  (await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `WORKSPACE#${workspaceId}`, sk: `PROJECT#${projectId}` }, ConsistentRead: true }))).Item!;

describe("the storage migration", () => {
  it("counts a project stored before the counter, so its first answer is its bytes, never null", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Old storage");
    const key = await newDashboardKey(owner.b, projectId);
    const a = await uploadIpa(key, "A.ipa");
    const b = await uploadIpa(key, "B.ipa");
    // As the project item was before the counter existed.
    await db().send(
      new UpdateCommand({ TableName: stack().tableName, Key: { pk: `WORKSPACE#${owner.personal}`, sk: `PROJECT#${projectId}` }, UpdateExpression: "REMOVE storageBytes, storageCounted" }),
    );
    expect((await projectItem(owner.personal, projectId)).storageBytes).toBeUndefined();

    // The deploy's run (forced: this stack ran it at start, before the project existed).
    const report = await migrateStorageCounts(db(), stack().tableName, { force: true });
    expect(report.skipped).toBe(false);
    expect(report.projectsCounted).toBeGreaterThanOrEqual(1);
    // Counted in the table before anyone read the project.
    expect(await projectItem(owner.personal, projectId)).toMatchObject({ storageBytes: a.size + b.size, storageCounted: true });

    const listed = (await dash(owner.b, "GET", `/api/projects?workspaceId=${owner.personal}`)).json.items.find((p: { projectId: string }) => p.projectId === projectId);
    expect(listed.storageBytes).toBe(a.size + b.size);
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.storageBytes).toBe(a.size + b.size);

    // Counted once: a later upload adds to the count, a second pass leaves it alone.
    const c = await uploadIpa(key, "C.ipa");
    await migrateStorageCounts(db(), stack().tableName, { force: true });
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.storageBytes).toBe(a.size + b.size + c.size);
  });

  it("ran on this stack's start, and a run after it stops at its marker", async () => {
    const marker = await db().send(new GetCommand({ TableName: stack().tableName, Key: STORAGE_MIGRATION, ConsistentRead: true }));
    expect(marker.Item).toMatchObject({ type: "migration", doneAt: expect.any(String) });
    expect(await migrateStorageCounts(db(), stack().tableName)).toEqual({ skipped: true, projectsCounted: 0, projectsLeft: 0 });
  });

  it("counts every project of a table written before workspaces, after the workspaces migration", async () => {
    const fixture = JSON.parse(readFileSync(join(REPO_ROOT, "test/fixtures/tables/pre-workspaces.json"), "utf8")) as { items: Record<string, unknown>[] };
    const tableName = `hangar-storage-${randomBytes(4).toString("hex")}`;
    const s = stack();
    await ensureTable(new DynamoDBClient({ endpoint: s.dynamoEndpoint, region: s.region, credentials: s.credentials }), tableName);
    for (let i = 0; i < fixture.items.length; i += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [tableName]: fixture.items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    await migrateToWorkspaces(db(), tableName);
    const report = await migrateStorageCounts(db(), tableName);
    const projects = fixture.items.filter((i) => i.type === "project");
    expect(report).toEqual({ skipped: false, projectsCounted: projects.length, projectsLeft: 0 });

    const items = (await db().send(new ScanCommand({ TableName: tableName, ConsistentRead: true }))).Items!;
    for (const project of projects) {
      const completed = fixture.items.filter((i) => i.type === "file" && i.projectId === project.projectId && i.status === "completed");
      const bytes = completed.reduce((sum, f) => sum + (f.fileSize as number), 0);
      expect(items.find((i) => i.type === "project" && i.projectId === project.projectId), String(project.projectId)).toMatchObject({ storageBytes: bytes, storageCounted: true });
    }
    // The fixture has a build: at least one project is counted above zero.
    expect(items.filter((i) => i.type === "project").some((i) => (i.storageBytes as number) > 0)).toBe(true);
  });
});
