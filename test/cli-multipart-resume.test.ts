/**
 * The CLI killed mid-upload resumes and finishes with the same bytes (issue 23 item 3): the real
 * `hangar upload` on a ~100 MiB APK (a real app around a large stored asset) against the local
 * stack, whose part URLs live 15 s (test/setup/global-setup.ts). SIGKILL once its state file
 * records stored parts (no handler runs, as after a crash or a killed CI runner); the rerun sends
 * only the rest, and the download link serves exactly the file.
 */
import { createHash } from "node:crypto";
import { createReadStream, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noiseBlock, writeBigAssetApk } from "../packages/inspect/fixtures/large-fixtures";
import { runCli } from "../packages/cli/test/upload/support/run-cli";
import { newKey, stack, type Key } from "./support/api";
import { fixtures } from "./support/fixtures";

const MiB = 1024 ** 2;
/** The service's part size for a file this small. */
const PART = 8 * MiB;

let dir: string;
let cache: string;
let apk: string;
let key: Key;

const sha256 = (stream: AsyncIterable<Uint8Array>) =>
  (async () => {
    const hash = createHash("sha256");
    for await (const chunk of stream) hash.update(chunk);
    return hash.digest("hex");
  })();

/** The parts the state file says are stored (none before it exists). */
function storedParts(): number {
  try {
    const [file] = readdirSync(join(cache, "uploads")).filter((f) => f.endsWith(".json"));
    if (!file) return 0;
    return Object.keys((JSON.parse(readFileSync(join(cache, "uploads", file), "utf8")) as { done: object }).done).length;
  } catch {
    return 0;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hangar-cli-resume-"));
  cache = join(dir, "cache");
  apk = join(dir, "big-game.apk");
  const base = fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!;
  await writeBigAssetApk(apk, base, 100 * MiB, { block: noiseBlock() });
  key = await newKey();
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("hangar upload killed mid-upload", () => {
  it("resumes from the parts already stored and the store holds the file's bytes", async () => {
    const env = {
      HANGAR_URL: stack().baseUrl,
      HANGAR_CLIENT_ID: key.clientId,
      HANGAR_CLIENT_SECRET: key.clientSecret,
      HANGAR_CACHE_DIR: cache,
      // Multipart from 1 MiB, as it would be from 64 MiB: the test stays fast at ~100 MiB.
      HANGAR_MULTIPART_THRESHOLD: "1MiB",
    };
    const size = statSync(apk).size;
    const partCount = Math.ceil(size / PART);

    let killedAt = 0;
    const first = await runCli(["upload", apk, "--parallel", "2"], {
      env,
      timeoutMs: 60_000,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          const stored = storedParts();
          if (stored >= 2) {
            killedAt = stored;
            clearInterval(poll);
            child.kill("SIGKILL");
          }
        }, 5);
        child.on("close", () => clearInterval(poll));
      },
    });
    expect(first.signal).toBe("SIGKILL");
    expect(killedAt).toBeGreaterThanOrEqual(2);
    const before = storedParts();
    expect(before).toBeLessThan(partCount);

    const second = await runCli(["upload", apk, "--json"], { env, timeoutMs: 60_000 });
    expect(second.stderr).toContain(`hangar: resuming: ${before} of ${partCount} parts`);
    expect(second.code, second.stderr).toBe(0);
    const result = JSON.parse(second.stdout) as { downloadUrl: string; metadata: { bundleId: string } };
    expect(result.metadata.bundleId).toBeTruthy();
    expect(readdirSync(join(cache, "uploads")).filter((f) => f.endsWith(".json"))).toEqual([]);

    const download = await fetch(result.downloadUrl);
    expect(download.status).toBe(200);
    expect(await sha256(Readable.fromWeb(download.body! as never))).toBe(await sha256(createReadStream(apk)));
  }, 90_000);
});
