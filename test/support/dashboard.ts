import { ListObjectVersionsCommand } from "@aws-sdk/client-s3";
import { ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { expect } from "vitest";
import { db, stack, storeClient, upload, readFixture, type Key } from "./api";
import { dash, signedIn, type Browser } from "./accounts";
import { fixtures } from "./fixtures";

/** Past the dashboard's first sign-in step (the name people see), as people who use the dashboard are. */
export async function setDisplayName(b: Browser, displayName: string): Promise<void> {
  const reply = await dash(b, "PUT", "/api/account/profile", { displayName });
  expect(reply.status, reply.text).toBe(200);
}

/** A verified, signed-in account past the profile step: a dashboard test's owner. */
export async function dashboardUser(displayName: string): Promise<{ b: Browser; email: string }> {
  const person = await signedIn();
  await setDisplayName(person.b, displayName);
  return person;
}

/** A project made through the dashboard API (in the account's personal workspace unless `workspaceId` names another). */
export async function newProject(
  b: Browser,
  name = `Project ${Math.random().toString(36).slice(2, 8)}`,
  color = "blue",
  { workspaceId, description = "made by a test" }: { workspaceId?: string; description?: string } = {},
) {
  const reply = await dash(b, "POST", "/api/projects", { name, description, color, ...(workspaceId ? { workspaceId } : {}) });
  expect(reply.status, reply.text).toBe(201);
  return reply.json as { projectId: string; name: string };
}

/** A key made through the dashboard API: what a person copies into CI. */
export async function newDashboardKey(b: Browser, projectId: string, name = "CI"): Promise<Key> {
  const reply = await dash(b, "POST", "/api/keys", { name, projectId });
  expect(reply.status, reply.text).toBe(201);
  return { clientId: reply.json.clientId, clientSecret: reply.json.clientSecret, projectId };
}

export const ipaPath = () => fixtures("ipa").find((f) => f.endsWith("xml-plist.ipa"))!;

/** presign → PUT → complete with a package file (a fixture's path); returns the complete answer. */
export async function uploadFile(key: Key, path: string, name: string, extra: Record<string, unknown> = {}) {
  const bytes = readFixture(path);
  const { completed } = await upload(key, name, bytes, extra);
  expect(completed.status, completed.text).toBe(200);
  return { ...(completed.json as { fileId: string; userKey: string; shareUrl: string; downloadUrl: string }), size: bytes.length };
}

/** presign → PUT → complete with a real IPA fixture; returns the complete answer. */
export const uploadIpa = (key: Key, name = "App.ipa", extra: Record<string, unknown> = {}) => uploadFile(key, ipaPath(), name, extra);

/** Every item of the table whose attributes mention `needle` (an id): what a delete must leave none of. */
export async function itemsMentioning(...needles: string[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: stack().tableName, ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const item of page.Items ?? []) {
      const text = JSON.stringify(item);
      if (needles.some((n) => text.includes(n))) found.push(item);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

/**
 * Leaves out the traces deleted builds' links leave under their keys (so visitors get a 410 that
 * says why): only an item of exactly the key, the type, the reason and a TTL counts as one, so a
 * trace that kept anything of the build still shows up.
 */
export function withoutLinkTraces(items: Record<string, unknown>[]): Record<string, unknown>[] {
  return items.filter(
    (item) =>
      !(
        item.type === "share-ended" &&
        String(item.pk).startsWith("SHARE#") &&
        ["removed", "replaced"].includes(item.ended as string) &&
        typeof item.ttl === "number" &&
        Object.keys(item).sort().join() === "ended,pk,sk,ttl,type"
      ),
  );
}

/**
 * Without the workspace's audit entries: the log keeps who created and deleted a project, a build
 * or a key for 400 days (issue 19, docs/data-model.md), so those entries name what is gone on purpose.
 * Only audit items are dropped (their own partition and type, expiring by TTL).
 */
export function outsideTheAuditLog(items: Record<string, unknown>[]): Record<string, unknown>[] {
  return items.filter((item) => !(item.type === "audit" && String(item.pk).startsWith("AUDIT#") && typeof item.ttl === "number"));
}

/** Every object version and delete marker under a prefix of the uploads bucket. */
export async function versionsUnder(prefix: string): Promise<string[]> {
  const out = await storeClient().send(new ListObjectVersionsCommand({ Bucket: stack().bucketName, Prefix: prefix }));
  return [...(out.Versions ?? []), ...(out.DeleteMarkers ?? [])].map((v) => `${v.Key}@${v.VersionId}`);
}

/** Polls until `check` holds (background deletes), failing after 60 s. */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within 60 s: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Lets a link's expiry pass: the dashboard refuses a past expiry, so a test that needs an expired
 * link moves the stored one into the past, as time would.
 */
export async function expireLink(userKey: string, at = "2021-06-01T00:00:00.000Z"): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: { pk: `SHARE#${userKey}`, sk: "SHARE" },
      UpdateExpression: "SET linkExpiresAt = :at",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeValues: { ":at": at },
    }),
  );
}

/** The user agent iOS's installer fetches an install manifest with (only such requests are counted). */
export const IOS_INSTALLER = { "User-Agent": "com.apple.appstored/1.0 iOS/17.1.2 model/iPhone15,2 hwmodel/D73AP build/21B101 (6; dt:270) AMS/1" };
