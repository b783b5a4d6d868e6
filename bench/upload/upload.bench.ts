/**
 * `npm run bench:upload`: `hangar upload` against `curl -T` on the same local stack, same files,
 * same run. Files are real APKs (a fixture plus a stored asset), so complete succeeds and the CLI
 * run is a full presign → PUT → complete.
 *
 * Env: BENCH_SIZES_MB (default "256,1024"), BENCH_LARGE=0 to skip sizes above 256 MB,
 * BENCH_ROUNDS (default 3, tools alternating; the best round per tool is reported: the machine is
 * shared, and the best run is the one least disturbed), BENCH_KEEP=1 keeps .tmp/bench/.
 *
 * Targets: hangar's PUT throughput ≥ 0.8× curl's; hangar's peak RSS ≤ 100 MB.
 */
import { randomIds } from "@hangar/core";
import { mintLocalApiKey } from "@hangar/local";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeBigAssetApk } from "../../packages/inspect/fixtures/large-fixtures";
import { REPO_ROOT, startStackProcess } from "../../test/support/local-stack-process";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const MB = 1024 * 1024;
const BENCH_DIR = join(REPO_ROOT, ".tmp/bench");
const BASE_APK = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk");
const HANGAR_BIN = join(REPO_ROOT, "packages/cli/bin/hangar.js");
const TARGET_RATIO = 0.8;
const TARGET_RSS_MB = 100;

const sizesMb = (process.env.BENCH_SIZES_MB ?? "256,1024")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isFinite(n) && n > 0)
  .filter((n) => process.env.BENCH_LARGE !== "0" || n <= 256);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

interface Measured {
  /** Wall time of the child process, start to exit. */
  wallSeconds: number;
  /** Time of the PUT alone: curl's whole run; hangar's timings.putMs. */
  putSeconds: number;
}

const hasGnuTime = existsSync("/usr/bin/time");

/**
 * Runs a command and measures wall time and peak RSS: GNU time's "Maximum resident set size"
 * when installed, else the child's VmHWM polled from /proc (a high-water mark, so polling late
 * cannot miss the peak, only the last few ms).
 */
function measure(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ wallSeconds: number; peakRssMb: number; stdout: string; stderr: string; code: number | null }> {
  const timeFile = join(BENCH_DIR, `time-${process.pid}-${Date.now()}.txt`);
  const [cmd, argv] = hasGnuTime ? ["/usr/bin/time", ["-v", "-o", timeFile, command, ...args]] : [command, args];
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv as string[], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let hwmKb = 0;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const poll = hasGnuTime
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
            if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
          } catch {
            // exited between polls
          }
        }, 20);
    child.on("error", fail);
    child.on("close", (code) => {
      if (poll) clearInterval(poll);
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (hasGnuTime) {
        const text = existsSync(timeFile) ? readFileSync(timeFile, "utf8") : "";
        rmSync(timeFile, { force: true });
        const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(text);
        hwmKb = m ? Number(m[1]) : 0;
        const exit = /Exit status: (\d+)/.exec(text);
        if (exit) code = Number(exit[1]);
      }
      done({ wallSeconds, peakRssMb: hwmKb / 1024, stdout, stderr, code });
    });
  });
}

async function main(): Promise<void> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const dataDir = join(BENCH_DIR, `stack-${process.pid}`);
  console.log(`Starting a local stack in ${dataDir} …`);
  const stack = await startStackProcess(dataDir);
  const files: string[] = [];
  try {
    const key = await mintLocalApiKey(stack.info, { email: "bench@hangar.localhost", projectName: `bench-${randomIds.userKey()}` });
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HANGAR_URL: stack.info.baseUrl,
      HANGAR_CLIENT_ID: key.clientId,
      HANGAR_CLIENT_SECRET: key.clientSecret,
    };

    const presignUrl = async (fileName: string, fileSize: number): Promise<string> => {
      const res = await fetch(`${stack.info.baseUrl}/api/upload/api-key/presign`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}` },
        body: JSON.stringify({ fileName, fileSize, fileType: "application/vnd.android.package-archive" }),
      });
      if (res.status !== 200) throw new Error(`presign ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { uploadUrl: string }).uploadUrl;
    };

    // What the bin costs before it uploads anything (node + tsx + every command's imports).
    const idle = await measure(process.execPath, [HANGAR_BIN, "--help"], env);

    const rows: string[][] = [];
    const verdicts: string[] = [];
    for (const sizeMb of sizesMb) {
      const file = join(BENCH_DIR, `bench-${sizeMb}mb.apk`);
      files.push(file);
      // A random block repeated: real bytes on disk (no holes), nothing a transport could compress.
      await writeBigAssetApk(file, BASE_APK, sizeMb * MB, { block: randomBytes(MB) });
      const bytes = statSync(file).size;
      // Both tools then read from the page cache: the comparison is about the upload path.
      for await (const chunk of createReadStream(file, { highWaterMark: MB })) void chunk;

      const best: Record<"curl" | "hangar", Measured | undefined> = { curl: undefined, hangar: undefined };
      // Memory is reported as the worst round, not the fastest one's.
      const peakRss = { curl: 0, hangar: 0 };
      for (let round = 0; round < rounds; round++) {
        const url = await presignUrl(`bench-${sizeMb}mb.apk`, bytes);
        const curl = await measure(
          "curl",
          ["-sS", "-X", "PUT", "-H", "Content-Type: application/octet-stream", "-T", file, "-o", "/dev/null", "-w", "%{http_code} %{time_total}", url],
          env,
        );
        const [status, total] = curl.stdout.trim().split(" ");
        if (curl.code !== 0 || status !== "200") throw new Error(`curl failed (${curl.code}, HTTP ${status}): ${curl.stderr}`);
        const curlRun: Measured = { wallSeconds: curl.wallSeconds, putSeconds: Number(total) };
        if (!best.curl || curlRun.putSeconds < best.curl.putSeconds) best.curl = curlRun;
        peakRss.curl = Math.max(peakRss.curl, curl.peakRssMb);

        const hangar = await measure(process.execPath, [HANGAR_BIN, "upload", file, "--json", "--quiet"], env);
        if (hangar.code !== 0) throw new Error(`hangar upload exited ${hangar.code}: ${hangar.stderr}${hangar.stdout}`);
        const result = JSON.parse(hangar.stdout) as { timings: { putMs: number }; metadata: { bundleId: string } };
        // The upload must have gone all the way: the service read the package we built.
        if (result.metadata.bundleId !== "com.hangar.literal") throw new Error(`unexpected metadata: ${hangar.stdout}`);
        const hangarRun: Measured = { wallSeconds: hangar.wallSeconds, putSeconds: result.timings.putMs / 1000 };
        if (!best.hangar || hangarRun.putSeconds < best.hangar.putSeconds) best.hangar = hangarRun;
        peakRss.hangar = Math.max(peakRss.hangar, hangar.peakRssMb);
      }

      const mbps = (m: Measured) => bytes / MB / m.putSeconds;
      const curlRate = mbps(best.curl!);
      const hangarRate = mbps(best.hangar!);
      const ratio = hangarRate / curlRate;
      const size = `${(bytes / MB).toFixed(0)} MiB`;
      rows.push(
        [size, "curl -T (PUT only)", best.curl!.wallSeconds.toFixed(2), best.curl!.putSeconds.toFixed(2), curlRate.toFixed(0), "1.00", peakRss.curl.toFixed(1)],
        [size, "hangar upload", best.hangar!.wallSeconds.toFixed(2), best.hangar!.putSeconds.toFixed(2), hangarRate.toFixed(0), ratio.toFixed(2), peakRss.hangar.toFixed(1)],
      );
      verdicts.push(
        `${size}: throughput ${ratio.toFixed(2)}× curl (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? "OK" : "MISSED"}; ` +
          `peak RSS ${peakRss.hangar.toFixed(1)} MB (target ≤ ${TARGET_RSS_MB}) ${peakRss.hangar <= TARGET_RSS_MB ? "OK" : "MISSED"}`,
      );
      if (!process.env.BENCH_KEEP) rmSync(file, { force: true });
    }

    const header = ["size", "tool", "wall s", "PUT s", "PUT MiB/s", "ratio", "peak RSS MB"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
    console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
    for (const row of rows) console.log(line(row));
    console.log(
      `\nwall s: the whole process (hangar: node + tsx start, presign, PUT, complete; curl: the PUT). ` +
        `PUT s: hangar's timings.putMs, curl's time_total. Ratio = PUT throughput vs curl. ` +
        `Peak RSS via ${hasGnuTime ? "GNU time -v" : "/proc VmHWM polling"}, worst round. Times: best of ${rounds} round(s).`,
    );
    console.log(`Baseline: \`hangar --help\` alone peaks at ${idle.peakRssMb.toFixed(1)} MB RSS (runtime, tsx, command imports).`);
    for (const v of verdicts) console.log(v);
  } finally {
    await stack.stop();
    if (!process.env.BENCH_KEEP) {
      rmSync(dataDir, { recursive: true, force: true });
      for (const f of files) rmSync(f, { force: true });
    }
  }
}

await main();
