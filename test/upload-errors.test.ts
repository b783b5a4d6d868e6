import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { call, complete, db, newKey, presign, put, stack, storeClient, type Key, type Reply } from "./support/api";

const PRESIGN = "/api/upload/api-key/presign";
const apk = { fileName: "app.apk", fileSize: 100, fileType: "application/vnd.android.package-archive" };

function expectError(reply: Reply, status: number, code: string) {
  expect({ status: reply.status, code: reply.json?.error?.code }).toEqual({ status, code });
  expect(reply.json.error.message).toEqual(expect.any(String));
  expect(reply.json.error.requestId).toBe(reply.headers.get("x-request-id"));
  expect(reply.text).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
}

let key: Key;
beforeAll(async () => {
  key = await newKey();
});

describe("authentication", () => {
  it("answers 401 missing_credentials without headers or with a malformed Authorization", async () => {
    expectError(await call(PRESIGN, { body: apk }), 401, "missing_credentials");
    const malformed = await call(PRESIGN, { body: apk, headers: { "X-Client-ID": key.clientId, Authorization: key.clientSecret } });
    expectError(malformed, 401, "missing_credentials");
  });

  it("answers the same 401 invalid_credentials for a wrong secret and an unknown client id", async () => {
    const wrong = await call(PRESIGN, {
      body: apk,
      headers: { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}x` },
    });
    const unknown = await call(PRESIGN, {
      body: apk,
      headers: { "X-Client-ID": "hgr_doesnotexist000000", Authorization: `Bearer ${key.clientSecret}` },
    });
    expectError(wrong, 401, "invalid_credentials");
    expectError(unknown, 401, "invalid_credentials");
    expect(wrong.json.error.message).toBe(unknown.json.error.message);
  });
});

describe("request validation", () => {
  it("answers 400 invalid_json for malformed JSON", async () => {
    expectError(await call(PRESIGN, { key, rawBody: "{nope", headers: { "Content-Type": "application/json" } }), 400, "invalid_json");
  });

  it("answers 400 invalid_request naming every bad field", async () => {
    const reply = await presign(key, { fileName: "a/b.apk", fileSize: -1 });
    expectError(reply, 400, "invalid_request");
    expect(reply.json.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["fileName", "fileSize", "fileType"]);
  });

  it("answers 415 for a body that is not JSON", async () => {
    expectError(await call(PRESIGN, { key, rawBody: "fileName=a", headers: { "Content-Type": "text/plain" } }), 415, "unsupported_media_type");
  });

  it("answers 413 for a body over 64 KiB", async () => {
    expectError(await presign(key, { ...apk, padding: "x".repeat(70 * 1024) }), 413, "body_too_large");
  });

  it("answers 404 for unknown routes and 405 for a wrong method", async () => {
    expectError(await call("/api/nope", { key }), 404, "route_not_found");
    const wrongMethod = await call(PRESIGN, { key, method: "GET" });
    expectError(wrongMethod, 405, "method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  it("answers 413 file_too_large past 4 GiB and 415 unsupported_file_type", async () => {
    expectError(await presign(key, { ...apk, fileSize: 4 * 1024 ** 3 + 1 }), 413, "file_too_large");
    expectError(await presign(key, { ...apk, fileType: "application/zip" }), 415, "unsupported_file_type");
    expectError(await presign(key, { ...apk, fileName: "a.ipa" }), 415, "unsupported_file_type");
  });

  it("puts X-Request-Id and rate-limit headers on authenticated answers, errors included", async () => {
    const reply = await presign(key, { ...apk, fileType: "application/zip" });
    expect(reply.headers.get("x-request-id")).toBeTruthy();
    expect(Number(reply.headers.get("x-ratelimit-limit"))).toBe(100);
    expect(Number(reply.headers.get("x-ratelimit-remaining"))).toBeLessThan(100);
    expect(Number(reply.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
  });
});

describe("complete refusals", () => {
  async function presigned(size = 100) {
    const reply = await presign(key, { ...apk, fileSize: size });
    expect(reply.status).toBe(200);
    return reply.json as { fileId: string; key: string; uploadUrl: string };
  }
  const body = (k: string, size = 100) => ({ ...apk, fileSize: size, key: k });

  it("answers 404 upload_not_found for another project's upload, and changes nothing", async () => {
    const mine = await presigned();
    const stranger = await newKey();
    expectError(await complete(stranger, body(mine.key)), 404, "upload_not_found");
    expectError(await complete(key, body(mine.key.replace(mine.fileId, "fil_00000000000000000000"))), 404, "upload_not_found");
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `FILE#${mine.fileId}`, sk: "FILE" } }));
    expect(Item?.status).toBe("pending");
  });

  it("answers 409 upload_mismatch naming what differs", async () => {
    const p = await presigned();
    const reply = await complete(key, { ...body(p.key), fileName: "other.apk", fileType: "application/octet-stream" });
    expectError(reply, 409, "upload_mismatch");
    expect(reply.json.error.fields).toEqual([
      { field: "fileName", message: expect.any(String) },
      { field: "fileType", message: expect.any(String) },
    ]);
  });

  it("answers 409 object_missing before the PUT", async () => {
    const p = await presigned();
    expectError(await complete(key, body(p.key)), 409, "object_missing");
  });

  it("answers 409 size_mismatch when the stored object is not the declared size", async () => {
    const p = await presigned();
    // Only the bucket owner can write another size: the presigned URL itself refuses it.
    await storeClient().send(
      new PutObjectCommand({ Bucket: stack().bucketName, Key: p.key, Body: new Uint8Array(99), ContentType: "application/octet-stream" }),
    );
    const reply = await complete(key, body(p.key));
    expectError(reply, 409, "size_mismatch");
    expect(reply.json.error).toMatchObject({ storedSize: 99, declaredSize: 100 });
  });

  it("answers 422 invalid_package, marks the record rejected and keeps the object", async () => {
    const p = await presigned();
    const junk = new Uint8Array(100).fill(7);
    expect((await put(p.uploadUrl, junk)).status).toBe(200);
    const first = await complete(key, body(p.key));
    expectError(first, 422, "invalid_package");
    expect(first.json.error.reason).toBe("not_a_zip");
    const again = await complete(key, body(p.key));
    expect(again.json).toEqual({ error: { ...first.json.error, requestId: again.json.error.requestId } });
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `FILE#${p.fileId}`, sk: "FILE" } }));
    expect(Item).toMatchObject({ status: "rejected", rejection: { reason: "not_a_zip" } });
    const object = await storeClient().send(new GetObjectCommand({ Bucket: stack().bucketName, Key: p.key }));
    expect(object.ContentLength).toBe(100);
  });
});

describe("share and download links", () => {
  it("answer 404 for an unknown share key", async () => {
    expectError(await call("/share/AAAAAAAAAAAA"), 404, "file_not_found");
    expectError(await call("/download/AAAAAAAAAAAA"), 404, "file_not_found");
    expectError(await call("/share/..%2F..%2Fetc"), 404, "file_not_found");
  });
});
