import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  APK_MEDIA_TYPE,
  GENERIC_MEDIA_TYPE,
  HangarAbortError,
  HangarApiError,
  HangarAuthError,
  HangarClient,
  HangarFileError,
  HangarNetworkError,
  HangarRateLimitError,
  HangarRejectedError,
  HangarRequestError,
  HangarTimeoutError,
  putFile,
  type RetryClock,
  type RetryNotice,
  type UploadProgress,
} from "../../src";
import { FAKE_CLIENT_ID, FAKE_SECRET, startFakeHangar, type FakeHangar } from "./support/fake-hangar";

let dir: string;
let apk: string;
let ipa: string;
let apkBytes: Buffer;
let fake: FakeHangar;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Real time, no waiting: records what the client would have slept. */
function instantClock(random = 0.5): RetryClock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => Date.now(), random: () => random, sleep: async (ms) => void sleeps.push(ms) };
}

function client(options: { clock?: RetryClock; secret?: string; maxRetries?: number; timeoutMs?: number; stallTimeoutMs?: number } = {}) {
  return new HangarClient({
    url: fake.url,
    clientId: FAKE_CLIENT_ID,
    clientSecret: options.secret ?? FAKE_SECRET,
    clock: options.clock ?? instantClock(),
    retry: {
      maxRetries: options.maxRetries ?? 3,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.stallTimeoutMs !== undefined ? { stallTimeoutMs: options.stallTimeoutMs } : {}),
    },
  });
}

const count = (method: string, prefix: string) => fake.requests.filter((r) => r.method === method && r.path.startsWith(prefix)).length;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hangar-client-"));
  // Several read chunks (1 MiB each) and an odd tail, so chunking bugs show up.
  apkBytes = randomBytes(3 * 1024 * 1024 + 12345);
  apk = join(dir, "app-release.apk");
  writeFileSync(apk, apkBytes);
  ipa = join(dir, "App.ipa");
  writeFileSync(ipa, randomBytes(4096));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  fake = await startFakeHangar();
});
afterEach(async () => {
  await fake.close();
});

describe("HangarClient.upload", () => {
  it("presigns, streams the exact bytes to storage, completes, and reports timings and progress", async () => {
    const progress: UploadProgress[] = [];
    const result = await client().upload(apk, { onProgress: (p) => progress.push(p) });

    expect(result.shareUrl).toBe(`${fake.url}/share/ukfile1`);
    expect(result.downloadUrl).toBe(`${fake.url}/download/ukfile1`);
    expect(result.metadata).toMatchObject({ appName: "Fake App", bundleId: "com.example.fake", version: "1.2.3", buildNumber: "45" });
    expect(Object.keys(result.timings).sort()).toEqual(["completeMs", "presignMs", "putMs", "totalMs"]);
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.putMs);

    expect(fake.lastStored()).toEqual({ size: apkBytes.length, sha256: sha256(apkBytes) });
    const presign = fake.requests.find((r) => r.path.endsWith("/presign"))!;
    expect(presign.body).toEqual({ fileName: "app-release.apk", fileSize: apkBytes.length, fileType: APK_MEDIA_TYPE });
    expect(presign.headers["content-type"]).toBe("application/json");
    const complete = fake.requests.find((r) => r.path.endsWith("/complete"))!;
    expect(complete.body).toEqual({ key: "uploads/p1/file1/app-release.apk", fileName: "app-release.apk", fileSize: apkBytes.length, fileType: APK_MEDIA_TYPE });
    const put = fake.requests.find((r) => r.method === "PUT")!;
    expect(put.headers.authorization).toBeUndefined();
    expect(put.headers["x-client-id"]).toBeUndefined();

    const sent = progress.map((p) => p.sentBytes);
    expect(sent[0]).toBe(0);
    expect(sent.at(-1)).toBe(apkBytes.length);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(progress.every((p) => p.totalBytes === apkBytes.length && p.attempt === 1)).toBe(true);
  });

  it("declares application/octet-stream for an .ipa and honours a fileName override", async () => {
    await client().upload(ipa, { fileName: "Renamed.ipa" });
    expect(fake.requests.find((r) => r.path.endsWith("/presign"))!.body).toMatchObject({ fileName: "Renamed.ipa", fileType: GENERIC_MEDIA_TYPE });
  });

  it("restarts a PUT whose connection dropped from byte 0, with a fresh stream", async () => {
    fake.script.put.push({ drop: true, afterBytes: 1024 * 1024 });
    const progress: UploadProgress[] = [];
    const retries: RetryNotice[] = [];
    const result = await client().upload(apk, { onProgress: (p) => progress.push(p), onRetry: (n) => retries.push(n) });

    expect(result.fileId).toBe("file1");
    expect(count("PUT", "/storage/")).toBe(2);
    expect(count("POST", "/api/upload/api-key/presign")).toBe(1);
    expect(fake.lastStored()).toEqual({ size: apkBytes.length, sha256: sha256(apkBytes) });
    expect(retries).toHaveLength(1);
    expect(retries[0]!.step).toBe("put");
    expect(retries[0]!.error).toBeInstanceOf(HangarNetworkError);
    const second = progress.filter((p) => p.attempt === 2);
    expect(second[0]!.sentBytes).toBe(0);
    expect(second.at(-1)!.sentBytes).toBe(apkBytes.length);
  });

  it("asks for a new address when storage refuses the PUT with 403, and completes with the new key", async () => {
    fake.script.put.push({ status: 403, body: "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>" });
    const clock = instantClock();
    const result = await client({ clock }).upload(apk);

    expect(count("POST", "/api/upload/api-key/presign")).toBe(2);
    expect(count("PUT", "/storage/")).toBe(2);
    expect(result.fileId).toBe("file2");
    expect(fake.requests.find((r) => r.path.endsWith("/complete"))!.body).toMatchObject({ key: "uploads/p1/file2/app-release.apk" });
    // Nothing to wait for: the new address is usable at once.
    expect(clock.sleeps).toEqual([]);
  });

  it("does not even try an address that has expired (expireAt in the past)", async () => {
    fake.addressLifetimeMs = -1000;
    let presigns = 0;
    const upload = client().upload(apk, {
      onStep: (step) => {
        if (step === "presign" && ++presigns === 2) fake.addressLifetimeMs = 15 * 60_000;
      },
    });
    await upload;
    expect(count("POST", "/api/upload/api-key/presign")).toBe(2);
    expect(count("PUT", "/storage/")).toBe(1);
  });

  it("retries presign and complete on 5xx and network errors, honouring a 503's Retry-After as a floor", async () => {
    fake.script.presign.push({ status: 500 }, { drop: true });
    fake.script.complete.push({ status: 503, headers: { "Retry-After": "7" } });
    const clock = instantClock(0.5);
    const result = await client({ clock }).upload(ipa);

    expect(result.userKey).toBe("ukfile1");
    expect(count("POST", "/api/upload/api-key/presign")).toBe(3);
    expect(count("POST", "/api/upload/api-key/complete")).toBe(2);
    // full jitter with random 0.5: half of 500·2^0, half of 500·2^1; then the 503's 7 s floor
    expect(clock.sleeps).toEqual([250, 500, 7000]);
  });

  it("waits for Retry-After on 429 and then succeeds", async () => {
    fake.script.presign.push({
      status: 429,
      body: { error: { code: "rate_limited", message: "slow down", requestId: "r1" } },
      headers: { "Retry-After": "2", "X-RateLimit-Reset": String(Math.floor(Date.now() / 1000) + 50) },
    });
    const clock = instantClock(0);
    const retries: RetryNotice[] = [];
    await client({ clock }).upload(ipa, { onRetry: (n) => retries.push(n) });
    expect(clock.sleeps).toEqual([2000]);
    expect(retries[0]!.error).toBeInstanceOf(HangarRateLimitError);
  });

  it("falls back to X-RateLimit-Reset when a 429 has no Retry-After", async () => {
    const resetAt = Math.floor(Date.now() / 1000) + 30;
    fake.script.complete.push({ status: 429, headers: { "X-RateLimit-Reset": String(resetAt) } });
    const clock = instantClock(0);
    await client({ clock }).upload(ipa);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThan(28_000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(30_000);
  });

  it("gives up on 429 after the retry count with HangarRateLimitError", async () => {
    for (let i = 0; i < 5; i++) fake.script.presign.push({ status: 429, headers: { "Retry-After": "1" } });
    const error = await client({ maxRetries: 2 }).upload(ipa).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarRateLimitError);
    expect((error as HangarRateLimitError).status).toBe(429);
    expect(count("POST", "/api/upload/api-key/presign")).toBe(3);
  });

  it("does not park on a 429 that asks for longer than the time budget allows", async () => {
    fake.script.presign.push({ status: 429, headers: { "Retry-After": "600" } });
    const clock = instantClock();
    const error = await client({ clock, timeoutMs: 60_000 }).upload(ipa).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarRateLimitError);
    expect(clock.sleeps).toEqual([]);
  });

  it("stops at once on 401 with HangarAuthError and never sends the secret anywhere but the service", async () => {
    const error = await client({ secret: "sk_wrong_secret_value" }).upload(ipa).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarAuthError);
    expect(error).toMatchObject({ status: 401, code: "invalid_credentials", step: "presign" });
    expect((error as Error).message).not.toContain("sk_wrong_secret_value");
    expect(fake.requests).toHaveLength(1);
  });

  it("reports 422 as HangarRejectedError with the extractor's reason, without retrying complete", async () => {
    fake.script.complete.push({ status: 422, body: { error: { code: "invalid_package", message: "not a zip", requestId: "r9", reason: "not_zip" } } });
    const error = await client().upload(apk).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarRejectedError);
    expect(error).toMatchObject({ status: 422, code: "invalid_package", reason: "not_zip", requestId: "r9", step: "complete" });
    expect(count("POST", "/api/upload/api-key/complete")).toBe(1);
  });

  it("treats 409 size_mismatch as a rejection but 409 object_missing as a server-side failure", async () => {
    fake.script.complete.push({ status: 409, body: { error: { code: "size_mismatch", message: "sizes differ", requestId: "r" } } });
    expect(await client().upload(ipa).catch((e: unknown) => e)).toBeInstanceOf(HangarRejectedError);

    fake.script.complete.push({ status: 409, body: { error: { code: "object_missing", message: "PUT the file first", requestId: "r" } } });
    const missing = await client().upload(ipa).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(HangarApiError);
    expect(missing).not.toBeInstanceOf(HangarRejectedError);
  });

  it("reports 413 from presign as HangarRequestError with the server's message", async () => {
    fake.script.presign.push({ status: 413, body: { error: { code: "file_too_large", message: "fileSize exceeds 10", requestId: "r" } } });
    const error = await client().upload(apk).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarRequestError);
    expect((error as Error).message).toContain("fileSize exceeds 10");
  });

  it("refuses to follow a redirect with the credentials", async () => {
    fake.script.presign.push({ status: 302, body: {}, headers: { Location: "https://elsewhere.example/api" } });
    const error = await client().upload(ipa).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarRequestError);
    expect((error as Error).message).toContain("https://elsewhere.example/api");
  });

  it("gives up with HangarNetworkError when nothing listens, after the bounded retries", async () => {
    const port = await new Promise<number>((ok) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => ok(p));
      });
    });
    const clock = instantClock();
    const dead = new HangarClient({ url: `http://127.0.0.1:${port}`, clientId: "a", clientSecret: "b", clock, retry: { maxRetries: 2 } });
    const error = await dead.upload(ipa).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarNetworkError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(clock.sleeps).toHaveLength(2);
  });

  it("aborts an in-flight PUT when the signal fires", async () => {
    fake.script.put.push({ hang: true });
    const controller = new AbortController();
    const error = await client()
      .upload(apk, {
        signal: controller.signal,
        onStep: (step) => {
          if (step === "put") setTimeout(() => controller.abort(), 50);
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarAbortError);
    expect(count("POST", "/api/upload/api-key/complete")).toBe(0);
  });

  it("turns a stalled PUT into a retry, and the spent time budget into HangarTimeoutError", async () => {
    fake.script.put.push({ hang: true });
    const retries: RetryNotice[] = [];
    const result = await client({ stallTimeoutMs: 300 }).upload(ipa, { onRetry: (n) => retries.push(n) });
    expect(result.fileId).toBe("file1");
    expect(retries[0]!.error.message).toMatch(/no data moved/);

    fake.script.presign.push({ hang: true });
    const error = await client({ timeoutMs: 300 }).upload(ipa).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangarTimeoutError);
  });

  it("uses an injected fetch for presign and complete (never for the PUT)", async () => {
    const seen: string[] = [];
    const viaFetch = new HangarClient({
      url: `${fake.url}/`,
      clientId: FAKE_CLIENT_ID,
      clientSecret: FAKE_SECRET,
      clock: instantClock(),
      fetch: (input, init) => {
        seen.push(`${init?.method} ${String(input)}`);
        return globalThis.fetch(input, init);
      },
    });
    const result = await viaFetch.upload(ipa);
    expect(result.fileId).toBe("file1");
    expect(seen).toEqual([`POST ${fake.url}/api/upload/api-key/presign`, `POST ${fake.url}/api/upload/api-key/complete`]);
    expect(count("PUT", "/storage/")).toBe(1);
  });

  it("rejects files it must not send before any request", async () => {
    writeFileSync(join(dir, "notes.txt"), "x");
    writeFileSync(join(dir, "empty.apk"), "");
    await expect(client().upload(join(dir, "notes.txt"))).rejects.toBeInstanceOf(HangarFileError);
    await expect(client().upload(join(dir, "missing.apk"))).rejects.toThrow(/no such file/);
    await expect(client().upload(join(dir, "empty.apk"))).rejects.toThrow(/empty/);
    await expect(client().upload(dir, { fileName: "dir.apk" })).rejects.toThrow(/not a regular file/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("putFile", () => {
  it("fails with HangarFileError when the file holds more bytes than announced", async () => {
    const presigned = await fetch(`${fake.url}/api/upload/api-key/presign`, {
      method: "POST",
      headers: { "X-Client-ID": FAKE_CLIENT_ID, Authorization: `Bearer ${FAKE_SECRET}` },
      body: JSON.stringify({ fileName: "a.apk", fileSize: 1000, fileType: APK_MEDIA_TYPE }),
    }).then((r) => r.json() as Promise<{ uploadUrl: string }>);
    const error = await putFile({ url: presigned.uploadUrl, path: apk, size: 1000, signal: new AbortController().signal, stallTimeoutMs: 5000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HangarFileError);
    expect((error as Error).message).toMatch(/changed while it was being uploaded/);
    expect(fake.lastStored()).toBeUndefined();
  });
});
