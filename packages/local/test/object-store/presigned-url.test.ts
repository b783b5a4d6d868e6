import { createHash, randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { CREDENTIALS, REGION, objectExists, s3Client, startStoreFixture, type StoreFixture } from "./object-store-fixture";
import { abortedUpload, errorCode, errorMessage, rawRequest } from "./raw-http";

let f: StoreFixture;
const bucket = "uploads";
const OCTET = "application/octet-stream";

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: bucket }));
});
afterAll(() => f.dispose());

/** Exactly how the service presigns an upload: length and type are signed, 15 minutes. */
function presignUpload(key: string, size: number, options: { client?: S3Client; signingDate?: Date } = {}) {
  return getSignedUrl(
    options.client ?? f.client,
    new PutObjectCommand({ Bucket: bucket, Key: key, ContentLength: size, ContentType: OCTET }),
    {
      expiresIn: 900,
      signableHeaders: new Set(["content-length", "content-type"]),
      ...(options.signingDate ? { signingDate: options.signingDate } : {}),
    },
  );
}

const exists = (key: string) => objectExists(f.client, bucket, key);

async function putWithFetch(url: string, body: Buffer, contentType = OCTET) {
  const res = await fetch(url, { method: "PUT", body, headers: { "content-type": contentType } });
  return { status: res.status, body: await res.text(), etag: res.headers.get("etag") };
}

describe("presigned PUT as the service issues it", () => {
  it("accepts the upload and stores the exact bytes", async () => {
    const body = randomBytes(64 * 1024 + 3);
    const url = await presignUpload("uploads/app one.apk", body.length);
    const res = await putWithFetch(url, body);
    expect(res.status).toBe(200);
    expect(res.etag).toBe(`"${createHash("md5").update(body).digest("hex")}"`);

    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "uploads/app one.apk" }));
    expect(get.ContentType).toBe(OCTET);
    expect(Buffer.from(await get.Body!.transformToByteArray()).equals(body)).toBe(true);
  });

  it("refuses a tampered signature", async () => {
    const url = new URL(await presignUpload("tamper/signature", 4));
    const signature = url.searchParams.get("X-Amz-Signature")!;
    url.searchParams.set("X-Amz-Signature", signature.slice(0, -1) + (signature.endsWith("0") ? "1" : "0"));
    const res = await putWithFetch(url.toString(), Buffer.from("abcd"));
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
    expect(await exists("tamper/signature")).toBe(false);
  });

  it("refuses the URL used for another key", async () => {
    const url = await presignUpload("tamper/key-a", 4);
    const res = await putWithFetch(url.replace("/tamper/key-a?", "/tamper/key-b?"), Buffer.from("abcd"));
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
    expect(await exists("tamper/key-b")).toBe(false);
  });

  it("refuses a lengthened X-Amz-Expires", async () => {
    const url = new URL(await presignUpload("tamper/expires", 4));
    url.searchParams.set("X-Amz-Expires", "3600");
    const res = await putWithFetch(url.toString(), Buffer.from("abcd"));
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
  });

  it("refuses X-Amz-Expires beyond a week with S3's 400", async () => {
    const url = new URL(await presignUpload("tamper/week", 4));
    url.searchParams.set("X-Amz-Expires", "604801");
    const res = await putWithFetch(url.toString(), Buffer.from("abcd"));
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("AuthorizationQueryParametersError");
  });

  it("refuses an added query parameter", async () => {
    const url = await presignUpload("tamper/query", 4);
    const res = await putWithFetch(`${url}&x-amz-acl=public-read`, Buffer.from("abcd"));
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
  });

  it("refuses an expired URL", async () => {
    const url = await presignUpload("expired/app.apk", 4, { signingDate: new Date(Date.now() - 16 * 60 * 1000) });
    const res = await putWithFetch(url, Buffer.from("abcd"));
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("AccessDenied");
    expect(errorMessage(res.body)).toBe("Request has expired");
    expect(await exists("expired/app.apk")).toBe(false);
  });

  it("accepts a URL signed 14 minutes ago", async () => {
    const url = await presignUpload("recent/app.apk", 4, { signingDate: new Date(Date.now() - 14 * 60 * 1000) });
    expect((await putWithFetch(url, Buffer.from("abcd"))).status).toBe(200);
  });

  it.each([
    ["one byte longer", 1],
    ["one byte shorter", -1],
  ])("refuses a body %s than signed", async (_label, delta) => {
    const signedSize = 1000;
    const key = `length/${delta}`;
    const url = await presignUpload(key, signedSize);
    const body = randomBytes(signedSize + delta);
    const res = await rawRequest(url, { method: "PUT", headers: { "content-type": OCTET, "content-length": body.length }, body });
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
    expect(await exists(key)).toBe(false);
  });

  it("writes nothing when the connection drops before the signed length arrived", async () => {
    const key = "aborted/app.apk";
    const signedSize = 256 * 1024;
    const url = await presignUpload(key, signedSize);
    await abortedUpload(url, { "content-type": OCTET, "content-length": signedSize }, randomBytes(signedSize - 1));
    expect(await exists(key)).toBe(false);
    // The partial temp file is removed once the server notices the abort.
    let leftovers = await readdir(join(f.dataDir, ".tmp"));
    for (let i = 0; i < 40 && leftovers.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      leftovers = await readdir(join(f.dataDir, ".tmp"));
    }
    expect(leftovers).toEqual([]);
    expect(await exists(key)).toBe(false);
  });

  it("refuses another content type than signed", async () => {
    const url = await presignUpload("type/app.apk", 4);
    const res = await putWithFetch(url, Buffer.from("abcd"), "application/vnd.android.package-archive");
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
    expect(await exists("type/app.apk")).toBe(false);
  });

  it("refuses x-amz-* headers the URL does not sign", async () => {
    const url = await presignUpload("unsigned-header/app.apk", 4);
    const res = await fetch(url, { method: "PUT", body: "abcd", headers: { "content-type": OCTET, "x-amz-meta-evil": "1" } });
    expect(res.status).toBe(403);
    expect(errorCode(await res.text())).toBe("AccessDenied");
  });

  it("refuses a URL signed with the wrong secret", async () => {
    const wrong = s3Client(f.store.url, { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: "not-the-secret" });
    const url = await presignUpload("wrong-secret/app.apk", 4, { client: wrong });
    const res = await putWithFetch(url, Buffer.from("abcd"));
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
    wrong.destroy();
  });

  it("refuses an unknown access key", async () => {
    const stranger = s3Client(f.store.url, { accessKeyId: "UNKNOWNKEY0000000000", secretAccessKey: CREDENTIALS.secretAccessKey });
    const url = await presignUpload("unknown-key/app.apk", 4, { client: stranger });
    const res = await putWithFetch(url, Buffer.from("abcd"));
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("InvalidAccessKeyId");
    stranger.destroy();
  });

  it("refuses a URL signed for another region", async () => {
    const elsewhere = new S3Client({
      region: "us-west-2",
      endpoint: f.store.url,
      forcePathStyle: true,
      credentials: CREDENTIALS,
      requestChecksumCalculation: "WHEN_REQUIRED",
    });
    const url = await presignUpload("region/app.apk", 4, { client: elsewhere });
    const res = await putWithFetch(url, Buffer.from("abcd"));
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("AuthorizationQueryParametersError");
    elsewhere.destroy();
  });

  it("refuses, as S3 does, a URL from a client left on default checksum settings (it pins an empty-body CRC32)", async () => {
    const defaults = new S3Client({ region: REGION, endpoint: f.store.url, forcePathStyle: true, credentials: CREDENTIALS });
    const url = await presignUpload("default-checksum/app.apk", 4, { client: defaults });
    expect(url).toContain("x-amz-checksum-crc32");
    const res = await putWithFetch(url, Buffer.from("abcd"));
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("BadDigest");
    expect(await exists("default-checksum/app.apk")).toBe(false);
    defaults.destroy();
  });
});

describe("unsigned requests", () => {
  it("refuses a request without any signature", async () => {
    const res = await fetch(`${f.store.url}/${bucket}/anonymous.apk`, { method: "PUT", body: "abcd" });
    expect(res.status).toBe(403);
    expect(errorCode(await res.text())).toBe("AccessDenied");
    const get = await fetch(`${f.store.url}/${bucket}/uploads/app%20one.apk`);
    expect(get.status).toBe(403);
    expect(errorCode(await get.text())).toBe("AccessDenied");
    expect(get.headers.get("x-amz-request-id")).toMatch(/^[0-9A-F]{16}$/);
  });
});

describe("presigned GET", () => {
  beforeAll(async () => {
    await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: "download/app.apk", Body: "apk bytes", ContentType: OCTET }));
  });

  it("returns the overridden Content-Disposition and Content-Type", async () => {
    const url = await getSignedUrl(
      f.client,
      new GetObjectCommand({
        Bucket: bucket,
        Key: "download/app.apk",
        ResponseContentDisposition: 'attachment; filename="My App 1.2.apk"',
        ResponseContentType: "application/vnd.android.package-archive",
      }),
      { expiresIn: 300 },
    );
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="My App 1.2.apk"');
    expect(res.headers.get("content-type")).toBe("application/vnd.android.package-archive");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.text()).toBe("apk bytes");
  });

  it("serves a range through a presigned URL", async () => {
    const url = await getSignedUrl(f.client, new GetObjectCommand({ Bucket: bucket, Key: "download/app.apk" }), { expiresIn: 300 });
    const res = await fetch(url, { headers: { range: "bytes=4-" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("bytes 4-8/9");
    expect(await res.text()).toBe("bytes");
  });

  it("refuses an override added after signing", async () => {
    const url = await getSignedUrl(f.client, new GetObjectCommand({ Bucket: bucket, Key: "download/app.apk" }), { expiresIn: 300 });
    const res = await fetch(`${url}&response-content-type=text%2Fhtml`);
    expect(res.status).toBe(403);
    expect(errorCode(await res.text())).toBe("SignatureDoesNotMatch");
  });
});

describe("CORS", () => {
  it("answers a browser preflight for a PUT from any origin with the requested headers", async () => {
    const res = await fetch(`${f.store.url}/${bucket}/some/key.apk?X-Amz-Signature=x`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "content-type",
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(res.headers.get("access-control-allow-headers")).toBe("content-type");
  });

  it("lets the dashboard's browser upload through: its preflight with the checksum header, and the PUT's ETag readable cross-origin", async () => {
    const origin = "http://127.0.0.1:3000";
    const preflight = await fetch(`${f.store.url}/${bucket}/uploads/p/f/App.apk?partNumber=1&uploadId=u`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "PUT", "access-control-request-headers": "content-type,x-amz-checksum-crc32c" },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type,x-amz-checksum-crc32c");
    const key = "uploads/p/f/cors.apk";
    const body = randomBytes(64);
    const url = await getSignedUrl(f.client, new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: OCTET }), { expiresIn: 60 });
    const put = await fetch(url, { method: "PUT", body, headers: { "content-type": OCTET, origin } });
    expect(put.status).toBe(200);
    expect(put.headers.get("access-control-allow-origin")).toBe("*");
    expect(put.headers.get("access-control-expose-headers")).toContain("ETag");
    expect(put.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("refuses a preflight for a method it does not allow", async () => {
    const res = await fetch(`${f.store.url}/${bucket}/k`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "DELETE" },
    });
    expect(res.status).toBe(403);
  });
});
