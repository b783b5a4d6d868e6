import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { startStoreFixture, type StoreFixture } from "./object-store-fixture";

let f: StoreFixture;
const bucket = "listed";

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: bucket }));
  await f.client.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: "Enabled" } }));
});
afterAll(() => f.dispose());

const put = (key: string, body: string) => f.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));

describe("ListObjectVersions", () => {
  it("lists every version and delete marker under a prefix, newest first per key, and nothing outside it", async () => {
    const v1 = await put("a/one", "first");
    const v2 = await put("a/one", "second");
    const marker = await f.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: "a/one" }));
    const other = await put("a/two", "x");
    await put("b/elsewhere", "y");

    const out = await f.client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: "a/" }));
    expect(out.IsTruncated).toBe(false);
    expect(out.Versions?.map((v) => [v.Key, v.VersionId, v.IsLatest, v.Size])).toEqual([
      ["a/one", v2.VersionId, false, 6],
      ["a/one", v1.VersionId, false, 5],
      ["a/two", other.VersionId, true, 1],
    ]);
    expect(out.DeleteMarkers?.map((m) => [m.Key, m.VersionId, m.IsLatest])).toEqual([["a/one", marker.VersionId, true]]);
  });

  it("pages with max-keys and the next key and version markers, and deleting by version id empties the prefix for good", async () => {
    for (let i = 0; i < 3; i++) await put("p/k", `v${i}`);
    await put("p/l", "l");
    const seen: string[] = [];
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    for (;;) {
      const page = await f.client.send(
        new ListObjectVersionsCommand({
          Bucket: bucket,
          Prefix: "p/",
          MaxKeys: 2,
          ...(keyMarker ? { KeyMarker: keyMarker, VersionIdMarker: versionMarker } : {}),
        }),
      );
      seen.push(...(page.Versions ?? []).map((v) => `${v.Key}@${v.VersionId}`));
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      versionMarker = page.NextVersionIdMarker;
    }
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);

    for (const entry of seen) {
      const [Key, VersionId] = entry.split("@") as [string, string];
      await f.client.send(new DeleteObjectCommand({ Bucket: bucket, Key, VersionId }));
    }
    const after = await f.client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: "p/" }));
    expect(after.Versions ?? []).toEqual([]);
    expect(after.DeleteMarkers ?? []).toEqual([]);
  });
});
