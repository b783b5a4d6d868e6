import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { noiseBlock, writeBigAssetApk } from "../../../inspect/fixtures/large-fixtures";
import { cacheDirectory, parseSize } from "../../src/commands/upload";
import { FAKE_CLIENT_ID, FAKE_SECRET, startFakeHangar, type FakeHangar } from "./support/fake-hangar";
import { REPO_ROOT, runCli, signalWhenStderrShows } from "./support/run-cli";

/**
 * `hangar upload` in parts (the real bin against the scriptable fake, whose part URLs check the
 * length and the CRC32C they sign, as S3's do): parallel, retried, refreshed, resumed.
 */

const PART = 512 * 1024;
let dir: string;
let apk: string;
let size: number;
let sha256: string;
let parts: number;
let cache: string;
let fake: FakeHangar;

const env = () => ({ HANGAR_URL: fake.url, HANGAR_CLIENT_ID: FAKE_CLIENT_ID, HANGAR_CLIENT_SECRET: FAKE_SECRET, HANGAR_CACHE_DIR: cache });
/** Multipart from 1 MiB: the 3 MB fixture goes in 512 KiB parts. */
const upload = (...extra: string[]) => runCli(["upload", apk, "--multipart-threshold", "1MiB", ...extra], { env: env() });
const stateFiles = () => {
  try {
    return readdirSync(join(cache, "uploads")).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
};
const stored = (status = 200) => fake.partPuts.filter((p) => p.status === status).map((p) => p.partNumber);
const count = (method: string, path: string) => fake.requests.filter((r) => r.method === method && r.path === path).length;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hangar-cli-parts-"));
  apk = join(dir, "game.apk");
  await writeBigAssetApk(apk, join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk"), 3 * 1024 * 1024, { block: noiseBlock() });
  size = statSync(apk).size;
  sha256 = createHash("sha256").update(readFileSync(apk)).digest("hex");
  parts = Math.ceil(size / PART);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  fake = await startFakeHangar();
  fake.partSize = PART;
  cache = mkdtempSync(join(dir, "cache-"));
});
afterEach(async () => {
  await fake.close();
});

describe("hangar upload in parts", () => {
  it("sends every part once, 4 at a time, with its exact length and checksum; the store holds the file", async () => {
    fake.partAnswerDelayMs = 200;
    const run = await upload("--json");
    expect(run.stderr).not.toContain("hangar upload:");
    expect(run.code).toBe(0);
    expect(fake.lastStored()).toEqual({ size, sha256 });
    expect(stored().sort((a, b) => a - b)).toEqual(Array.from({ length: parts }, (_, i) => i + 1));
    expect(fake.partPuts.map((p) => p.length)).toEqual(fake.partPuts.map((p) => (p.partNumber < parts ? PART : size - (parts - 1) * PART)));
    expect(fake.maxPartsInFlight).toBe(4);
    expect(count("POST", "/api/upload/api-key/presign")).toBe(0);
    // The single PUT's answer shape: --json and GitHub outputs do not change.
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ fileId: "file1", userKey: "ukfile1", metadata: { appName: "Fake App" } });
    expect(Object.keys(result.timings as object).sort()).toEqual(["completeMs", "presignMs", "putMs", "totalMs"]);
    expect(stateFiles()).toEqual([]);
  });

  it("--parallel 2 sends two at a time; below the threshold the single PUT is used", async () => {
    fake.partAnswerDelayMs = 200;
    expect((await upload("--parallel", "2", "-q")).code).toBe(0);
    expect(fake.maxPartsInFlight).toBe(2);
    const single = await runCli(["upload", apk, "-q"], { env: env() });
    expect(single.code).toBe(0);
    expect(count("POST", "/api/upload/api-key/presign")).toBe(1);
  });

  it("shows progress with rate and ETA on stderr", async () => {
    const run = await upload();
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/uploading game\.apk: 100% \(3\.\d MB of 3\.\d MB, [\d.]+ [kMG]?B\/s\)/);
  });

  it("retries a part storage failed (500) and one whose connection dropped", async () => {
    fake.script.part.push({ status: 500 }, { drop: true, afterBytes: 100_000 });
    const run = await upload();
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/hangar: put .*; retry 1\/5/);
    expect(fake.lastStored()).toEqual({ size, sha256 });
    expect(fake.partPuts.length).toBe(parts + 2);
  });

  it("gets fresh URLs when storage answers 403 for expired ones", async () => {
    fake.expiredPartBatches = 1;
    const run = await upload();
    expect(run.code).toBe(0);
    expect(fake.partPuts.some((p) => p.status === 403)).toBe(true);
    expect(count("POST", "/api/upload/api-key/multipart/parts")).toBeGreaterThanOrEqual(2);
    expect(fake.lastStored()).toEqual({ size, sha256 });
  });

  it("asks for fresh URLs before the ones it holds expire (URLs living ~1 s: no PUT is refused)", async () => {
    fake.partUrlLifetimeMs = 1200;
    fake.partAnswerDelayMs = 300;
    const run = await upload("--parallel", "2");
    expect(run.code).toBe(0);
    expect(fake.partPuts.filter((p) => p.status !== 200)).toEqual([]);
    expect(count("POST", "/api/upload/api-key/multipart/parts")).toBeGreaterThanOrEqual(2);
    expect(fake.lastStored()).toEqual({ size, sha256 });
  });

  it("resumes from the state file after a failed run: only the missing parts are sent", async () => {
    // Part PUTs fail for good after 3 have been stored (400 is final: the run exits 5).
    fake.refusePartsAfter = 3;
    const first = await upload("--parallel", "1");
    fake.refusePartsAfter = undefined;
    expect(first.code).toBe(5);
    expect(first.stderr).toContain("run the same command again to resume the upload");
    expect(stateFiles()).toHaveLength(1);
    const state = JSON.parse(readFileSync(join(cache, "uploads", stateFiles()[0]!), "utf8")) as { done: Record<string, string>; uploadId: string };
    expect(Object.keys(state.done)).toEqual(["1", "2", "3"]);

    fake.partPuts.length = 0;
    const second = await upload();
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`hangar: resuming: 3 of ${parts} parts (1.6 MB) already stored`);
    expect(stored().sort((a, b) => a - b)).toEqual(Array.from({ length: parts - 3 }, (_, i) => i + 4));
    expect(count("POST", "/api/upload/api-key/multipart")).toBe(1);
    expect(fake.lastStored()).toEqual({ size, sha256 });
    expect(stateFiles()).toEqual([]);
  });

  it("Ctrl-C stops the parts in flight, exits 130 and keeps the state for the rerun", async () => {
    fake.partAnswerDelayMs = 300;
    const run = await runCli(["upload", apk, "--multipart-threshold", "1MiB", "--parallel", "1"], {
      env: env(),
      onStderr: signalWhenStderrShows("uploading game.apk: 16%", "SIGINT"),
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted while sending the file to storage; the upload was not completed (run the same command again to resume the upload)");
    expect(stateFiles()).toHaveLength(1);
    fake.partAnswerDelayMs = 0;
    const rerun = await upload("-q");
    expect(rerun.code).toBe(0);
    expect(fake.lastStored()).toEqual({ size, sha256 });
  });

  it("uploads all the same when the cache directory cannot be written (no resume then)", async () => {
    cache = join(apk, "not-a-directory");
    const run = await upload("-q");
    expect(run.code).toBe(0);
    expect(fake.lastStored()).toEqual({ size, sha256 });
  });

  it("starts over when the service no longer knows the upload (404 upload_not_found)", async () => {
    fake.refusePartsAfter = 2;
    expect((await upload("--parallel", "1", "-q")).code).toBe(5);
    fake.refusePartsAfter = undefined;
    fake.uploads.clear();
    const run = await upload();
    expect(run.code).toBe(0);
    expect(count("POST", "/api/upload/api-key/multipart")).toBe(2);
    expect(fake.lastStored()).toEqual({ size, sha256 });
  });

  it("sends again the parts complete says are missing (part_missing), once", async () => {
    fake.refusePartsAfter = 3;
    expect((await upload("--parallel", "1", "-q")).code).toBe(5);
    fake.refusePartsAfter = undefined;
    // Storage lost part 2 although the state file has its ETag.
    [...fake.uploads.values()][0]!.multipart!.parts.delete(2);
    fake.partPuts.length = 0;
    const run = await upload();
    expect(run.code).toBe(0);
    expect(stored().sort((a, b) => a - b)).toEqual([2, ...Array.from({ length: parts - 3 }, (_, i) => i + 4)]);
    expect(fake.lastStored()).toEqual({ size, sha256 });
  });
});

describe("options", () => {
  it("parses sizes and finds the cache directory per platform", () => {
    expect([parseSize("64MiB"), parseSize("1.5G"), parseSize("1000"), parseSize("10 kib"), parseSize("lots")]).toEqual([
      64 * 1024 ** 2,
      1.5 * 1024 ** 3,
      1000,
      10240,
      undefined,
    ]);
    expect(cacheDirectory({ HANGAR_CACHE_DIR: "/c" }, "linux", "/home/u")).toBe("/c");
    expect(cacheDirectory({ XDG_CACHE_HOME: "/x" }, "linux", "/home/u")).toBe("/x/hangar");
    expect(cacheDirectory({}, "linux", "/home/u")).toBe("/home/u/.cache/hangar");
    expect(cacheDirectory({}, "darwin", "/Users/u")).toBe("/Users/u/Library/Caches/hangar");
  });

  it("refuses a bad --parallel or threshold with exit 2", async () => {
    expect((await upload("--parallel", "0")).code).toBe(2);
    expect((await runCli(["upload", apk, "--multipart-threshold", "big"], { env: env() })).code).toBe(2);
  });
});
