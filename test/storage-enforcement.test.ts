import { HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { beforeAll, describe, expect, it } from "vitest";
import { newKey, presign, put, stack, storeClient, type Key } from "./support/api";

/** The local store must refuse what S3 refuses, or the local stack would hide client bugs. */
let key: Key;
beforeAll(async () => {
  key = await newKey();
});

async function fresh(size = 64) {
  const reply = await presign(key, { fileName: "app.ipa", fileSize: size, fileType: "application/octet-stream" });
  expect(reply.status).toBe(200);
  return reply.json as { key: string; uploadUrl: string };
}

async function stored(objectKey: string): Promise<boolean> {
  try {
    await storeClient().send(new HeadObjectCommand({ Bucket: stack().bucketName, Key: objectKey }));
    return true;
  } catch {
    return false;
  }
}

async function expect403(response: Response, code: string) {
  expect(response.status).toBe(403);
  expect(await response.text()).toContain(`<Code>${code}</Code>`);
}

describe("presigned PUT", () => {
  it("signs Content-Length and Content-Type, for 15 minutes", async () => {
    const url = new URL((await fresh()).uploadUrl);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host");
  });

  it("accepts exactly the signed upload", async () => {
    const p = await fresh();
    expect((await put(p.uploadUrl, new Uint8Array(64))).status).toBe(200);
    expect(await stored(p.key)).toBe(true);
  });

  it("refuses a tampered signature, key or expiry", async () => {
    const p = await fresh();
    const url = new URL(p.uploadUrl);
    const sig = url.searchParams.get("X-Amz-Signature")!;
    const tampered = [
      (() => {
        const u = new URL(url);
        u.searchParams.set("X-Amz-Signature", `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`);
        return u;
      })(),
      (() => {
        const u = new URL(url);
        u.pathname = u.pathname.replace("app.ipa", "evil.ipa");
        return u;
      })(),
      (() => {
        const u = new URL(url);
        u.searchParams.set("X-Amz-Expires", "604800");
        return u;
      })(),
    ];
    for (const u of tampered) await expect403(await put(u.toString(), new Uint8Array(64)), "SignatureDoesNotMatch");
    expect(await stored(p.key)).toBe(false);
  });

  it("refuses a body longer or shorter than signed", async () => {
    const p = await fresh();
    await expect403(await put(p.uploadUrl, new Uint8Array(65)), "SignatureDoesNotMatch");
    await expect403(await put(p.uploadUrl, new Uint8Array(63)), "SignatureDoesNotMatch");
    expect(await stored(p.key)).toBe(false);
  });

  it("refuses another content type", async () => {
    const p = await fresh();
    await expect403(await put(p.uploadUrl, new Uint8Array(64), { "Content-Type": "application/zip" }), "SignatureDoesNotMatch");
    expect(await stored(p.key)).toBe(false);
  });

  it("refuses an expired address", async () => {
    const p = await fresh();
    const url = await getSignedUrl(
      storeClient(),
      new PutObjectCommand({ Bucket: stack().bucketName, Key: p.key, ContentLength: 64, ContentType: "application/octet-stream" }),
      { expiresIn: 900, signingDate: new Date(Date.now() - 16 * 60 * 1000), signableHeaders: new Set(["content-length", "content-type"]) },
    );
    const response = await put(url, new Uint8Array(64));
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/Request has expired/);
    expect(await stored(p.key)).toBe(false);
  });
});
