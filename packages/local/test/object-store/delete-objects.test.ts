import { CreateBucketCommand, DeleteObjectsCommand, ListObjectVersionsCommand, PutBucketVersioningCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { S3Requester } from "@hangar/core/s3-rest";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS, REGION, s3ErrorOf, startStoreFixture, type StoreFixture } from "./object-store-fixture";

/**
 * DeleteObjects (POST ?delete), as S3 answers it: what the service's purger sends (a quiet list of
 * versions with Content-MD5) and what the SDK sends (its own checksum header), per-key results in a
 * 200 answer, and a body without an integrity check refused whole.
 */
let f: StoreFixture;
const bucket = "batch-deletes";

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: bucket }));
  await f.client.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: "Enabled" } }));
});
afterAll(() => f.dispose());

const put = async (key: string, body = "x") => (await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))).VersionId!;
async function versions(prefix: string) {
  const out = await f.client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix }));
  return [...(out.Versions ?? []), ...(out.DeleteMarkers ?? [])].map((v) => `${v.Key}@${v.VersionId}`).sort();
}

describe("DeleteObjects", () => {
  it("deletes the listed versions for good through the SDK, and reports each", async () => {
    const a1 = await put("sdk/a");
    const a2 = await put("sdk/a");
    const b1 = await put("sdk/b & c <d>");
    const keep = await put("sdk/keep");
    const out = await f.client.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: [{ Key: "sdk/a", VersionId: a1 }, { Key: "sdk/a", VersionId: a2 }, { Key: "sdk/b & c <d>", VersionId: b1 }] },
      }),
    );
    expect(out.Errors ?? []).toEqual([]);
    expect(out.Deleted?.map((d) => `${d.Key}@${d.VersionId}`).sort()).toEqual([`sdk/a@${a1}`, `sdk/a@${a2}`, `sdk/b & c <d>@${b1}`].sort());
    expect(await versions("sdk/")).toEqual([`sdk/keep@${keep}`]);
  });

  it("a key without a version gets a delete marker, as DeleteObject would give it", async () => {
    const v = await put("marker/a");
    const out = await f.client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: [{ Key: "marker/a" }] } }));
    expect(out.Deleted).toEqual([{ Key: "marker/a", DeleteMarker: true, DeleteMarkerVersionId: expect.any(String) }]);
    expect(await versions("marker/")).toEqual([`marker/a@${out.Deleted![0]!.DeleteMarkerVersionId}`, `marker/a@${v}`].sort());
  });

  it("answers a key that cannot be deleted in its Error list, and deletes the others", async () => {
    const ok = await put("errors/ok");
    const out = await f.client.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Quiet: true, Objects: [{ Key: "errors/ok", VersionId: ok }, { Key: `errors/${"k".repeat(1100)}`, VersionId: "v" }] } }),
    );
    // Quiet: the deleted key is not listed, only the failure.
    expect(out.Deleted ?? []).toEqual([]);
    expect(out.Errors?.map((e) => e.Code)).toEqual(["KeyTooLongError"]);
    expect(await versions("errors/ok")).toEqual([]);
  });

  it("refuses a body without Content-MD5 or a checksum, and a Content-MD5 that does not match it", async () => {
    const v = await put("unchecked/a");
    const s3 = new S3Requester({ bucket, region: REGION, endpoint: f.store.url, credentials: CREDENTIALS });
    const body = `<Delete><Object><Key>unchecked/a</Key><VersionId>${v}</VersionId></Object></Delete>`;
    const send = (headers: Record<string, string>) => s3.send({ method: "POST", key: "", query: { delete: "" }, body, headers }).catch((e: unknown) => e);
    expect(await send({})).toMatchObject({ name: "InvalidRequest", status: 400 });
    expect(await send({ "content-md5": createHash("md5").update("other").digest("base64") })).toMatchObject({ name: "BadDigest", status: 400 });
    expect(await versions("unchecked/")).toEqual([`unchecked/a@${v}`]);
    // The same document with its digest goes through.
    expect(await send({ "content-md5": createHash("md5").update(body).digest("base64") })).toMatchObject({ status: 200 });
    expect(await versions("unchecked/")).toEqual([]);
  });

  it("refuses more than 1000 keys in one request", async () => {
    const objects = Array.from({ length: 1001 }, (_, i) => ({ Key: `many/${i}` }));
    const error = await s3ErrorOf(f.client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects } })));
    expect(error.name).toBe("MalformedXML");
  });
});
