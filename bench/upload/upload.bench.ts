/**
 * `npm run bench:upload`: `hangar upload` (the built CLI, packages/cli/dist) against `curl -T` of
 * the same file to a presigned URL, on the same local stack, in the same run (issue 23, item 6).
 *
 * 1. Loopback: a 2 GiB APK. The CLI as a user runs it (past the multipart threshold: 32 parts of
 *    64 MiB, 4 at once, each CRC32-checked) against curl's single PUT. Target: ≥ 0.9× curl's throughput.
 * 2. Capped link: a second stack whose object store is reached through throttle-proxy.ts, which
 *    caps every connection at 8 MB/s each way (as one TCP flow over a long path is capped; this
 *    kernel cannot shape one flow). curl's one connection against `hangar upload --parallel 4`,
 *    and `--parallel 1` beside them (the CLI's own single stream). Target: ≥ 3× curl.
 * 3. Peak RSS of every CLI run (GNU time), beside `hangar --help`'s. Target: ≤ 150 MB (issue 23:
 *    memory bounded at any size).
 * 4. Optional (BENCH_BROWSER_GB, e.g. 6; it takes minutes): a sparse IPA of that many GiB uploaded
 *    from the dashboard in Chromium, on the loopback stack (dashboard-upload.ts): time, and peak
 *    RSS of the browser's processes and of the stack. PASS when the build completes.
 *
 * On loopback the CPU is the transfer time (CLI and store share the machine's two cores, no network
 * between them), so the table shows each run's CPU too: the client's, and the stack process's.
 *
 * Throughput is bytes over transfer time. curl: its time_total (the PUT; its URL was presigned
 * before). hangar: timings.totalMs − completeMs, the wall time of everything before complete
 * (multipart: the start call, the part URLs with their checksums, the parts), so the CLI's ratio
 * is if anything understated. The service's answer is checked: every upload went through complete.
 *
 * Env: BENCH_SIZES_MB (loopback sizes, default "2048"), BENCH_CAPPED_MB (default 256; "0" skips
 * the capped link), BENCH_BROWSER_GB (default 0: no browser line), BENCH_HANGAR_BIN (another build
 * of the CLI's hangar.js, e.g. an earlier commit's, to compare), BENCH_CAP_MBPS (per-connection cap in MB/s, default 8), BENCH_ROUNDS (loopback
 * rounds, default 3, tools alternating; best round per tool: the machine is shared and the best
 * run is the least disturbed), BENCH_CAPPED_ROUNDS (default 1: the cap, not the machine, sets
 * those times), BENCH_KEEP=1 keeps .tmp/bench/. Disk: one generated file per size at a time, and
 * the stack's copy of each upload is deleted once measured.
 */
import { DeleteObjectCommand, ListObjectVersionsCommand, S3Client } from "@aws-sdk/client-s3";
import { randomIds } from "@hangar/core";
import { mintLocalApiKey } from "@hangar/local";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { writeBigAssetApk, writeBigAssetIpa } from "../../packages/inspect/fixtures/large-fixtures";
import { REPO_ROOT, startStackProcess, type StackProcess } from "../../test/support/local-stack-process";
import { dashboardUpload } from "./dashboard-upload";
import { startThrottleProxy, type ThrottleProxy } from "./throttle-proxy";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const MB = 1024 * 1024;
const BENCH_DIR = join(REPO_ROOT, ".tmp/bench");
const BASE_APK = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk");
/** What `npx hangar-cli` runs (the tsx launcher in packages/cli/bin would add tsx's own ~40 MB). */
const HANGAR_BIN = process.env.BENCH_HANGAR_BIN ?? join(REPO_ROOT, "packages/cli/dist/hangar.js");
const LOOPBACK_RATIO = 0.9;
const CAPPED_RATIO = 3;
const TARGET_RSS_MB = 150;

const numberList = (text: string) =>
  text
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n > 0);
const sizesMb = numberList(process.env.BENCH_SIZES_MB ?? "2048");
const cappedMb = Number(process.env.BENCH_CAPPED_MB ?? 256);
const capBytesPerSecond = Number(process.env.BENCH_CAP_MBPS ?? 8) * 1e6;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const cappedRounds = Math.max(1, Number(process.env.BENCH_CAPPED_ROUNDS ?? 1));
const browserGb = Number(process.env.BENCH_BROWSER_GB ?? 0);

const hasGnuTime = existsSync("/usr/bin/time");

interface Run {
  wallSeconds: number;
  peakRssMb: number;
  /** User + system CPU seconds of the child (GNU time; 0 without it). */
  cpuSeconds: number;
  stdout: string;
  stderr: string;
  code: number | null;
}

/**
 * Runs a command and measures wall time and peak RSS: GNU time's "Maximum resident set size"
 * when installed, else the child's VmHWM polled from /proc (a high-water mark, so polling late
 * cannot miss the peak, only the last few ms).
 */
function measure(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const timeFile = join(BENCH_DIR, `time-${process.pid}-${Date.now()}.txt`);
  const [cmd, argv] = hasGnuTime ? ["/usr/bin/time", ["-v", "-o", timeFile, command, ...args]] : [command, args];
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv as string[], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let hwmKb = 0;
    let cpuSeconds = 0;
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
        cpuSeconds = ["User", "System"].reduce((sum, kind) => sum + Number(new RegExp(`${kind} time \\(seconds\\): ([\\d.]+)`).exec(text)?.[1] ?? 0), 0);
        const exit = /Exit status: (\d+)/.exec(text);
        if (exit) code = Number(exit[1]);
      }
      done({ wallSeconds, peakRssMb: hwmKb / 1024, cpuSeconds, stdout, stderr, code });
    });
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 10 ms). */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => ok(port));
    });
  });
}

interface BenchStack {
  stack: StackProcess;
  proxy: ThrottleProxy | undefined;
  /** Environment of the CLI runs: the service and a key, a cache directory of the bench's own. */
  env: NodeJS.ProcessEnv;
  presignUrl(fileName: string, fileSize: number): Promise<string>;
  /** Deletes every stored object version: each measured upload leaves the disk as it found it. */
  emptyBucket(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A local stack as `npm start` runs it; with `capBytesPerSecond`, its object store is reached
 * through a throttling proxy: the store gets a port chosen here, the proxy forwards to it, and
 * HANGAR_S3_PROXY_URL makes the handlers sign URLs for the proxy's address (SigV4 signs the host).
 */
async function startBenchStack(name: string, capBytesPerSecond?: number): Promise<BenchStack> {
  const dataDir = join(BENCH_DIR, `stack-${name}-${process.pid}`);
  const env: Record<string, string> = {
    HANGAR_DYNAMODB_IN_MEMORY: "1",
    // A 2 GiB upload asks for part URLs in tens of requests; rounds back to back must not hit the per-key limit.
    HANGAR_RATE_LIMIT: "1000000",
  };
  let proxy: ThrottleProxy | undefined;
  if (capBytesPerSecond) {
    const storePort = await freePort();
    proxy = await startThrottleProxy({ target: { host: "127.0.0.1", port: storePort }, bytesPerSecond: capBytesPerSecond });
    Object.assign(env, { HANGAR_S3_PORT: String(storePort), HANGAR_S3_PROXY_URL: proxy.url });
  }
  console.log(`Starting a local stack${proxy ? ` behind ${proxy.url} (each connection capped at ${capBytesPerSecond! / 1e6} MB/s)` : ""} in ${dataDir} …`);
  let stack: StackProcess;
  try {
    stack = await startStackProcess(dataDir, env);
  } catch (error) {
    await proxy?.close();
    throw error;
  }
  const key = await mintLocalApiKey(stack.info, { email: "bench@hangar.localhost", projectName: `bench-${randomIds.userKey()}` });
  const s3 = new S3Client({
    endpoint: stack.info.s3Endpoint,
    forcePathStyle: true,
    region: stack.info.region,
    credentials: stack.info.credentials,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const cacheDir = join(dataDir, "cli-cache");
  return {
    stack,
    proxy,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HANGAR_URL: stack.info.baseUrl,
      HANGAR_CLIENT_ID: key.clientId,
      HANGAR_CLIENT_SECRET: key.clientSecret,
      HANGAR_CACHE_DIR: cacheDir,
    },
    presignUrl: async (fileName, fileSize) => {
      const res = await fetch(`${stack.info.baseUrl}/api/upload/api-key/presign`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}` },
        body: JSON.stringify({ fileName, fileSize, fileType: "application/vnd.android.package-archive" }),
      });
      if (res.status !== 200) throw new Error(`presign ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { uploadUrl: string }).uploadUrl;
    },
    emptyBucket: async () => {
      const Bucket = stack.info.bucketName;
      const listed = await s3.send(new ListObjectVersionsCommand({ Bucket }));
      for (const v of [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])]) {
        await s3.send(new DeleteObjectCommand({ Bucket, Key: v.Key!, VersionId: v.VersionId! }));
      }
    },
    stop: async () => {
      s3.destroy();
      await stack.stop();
      await proxy?.close();
      if (!process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A generated APK: a random MiB repeated (real bytes on disk, nothing a transport could compress), read once into the page cache. */
async function benchFile(sizeMb: number): Promise<{ file: string; bytes: number }> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const file = join(BENCH_DIR, `bench-${sizeMb}mb.apk`);
  await writeBigAssetApk(file, BASE_APK, sizeMb * MB, { block: randomBytes(MB) });
  // Both tools then read from the page cache: the comparison is about the upload path.
  for await (const chunk of createReadStream(file, { highWaterMark: MB })) void chunk;
  return { file, bytes: statSync(file).size };
}

interface Transfer {
  /** Seconds the bytes took to go (see the header). */
  seconds: number;
  peakRssMb: number;
  /** CPU seconds of the client process, and of the stack's process (store and handlers) meanwhile. */
  clientCpu: number;
  stackCpu: number;
}

/** Runs a client and the CPU the stack spent meanwhile: on a busy 2-core machine, CPU is what a transfer competes for. */
async function withStackCpu(bench: BenchStack, command: string, args: string[]): Promise<Run & { stackCpu: number }> {
  const before = cpuSecondsOf(bench.stack.pid);
  const run = await measure(command, args, bench.env);
  return { ...run, stackCpu: cpuSecondsOf(bench.stack.pid) - before };
}

async function curlPut(bench: BenchStack, file: string, bytes: number): Promise<Transfer> {
  const url = await bench.presignUrl("bench.apk", bytes);
  const run = await withStackCpu(bench, "curl", [
    "-sS",
    "-X",
    "PUT",
    "-H",
    "Content-Type: application/octet-stream",
    "-T",
    file,
    "-o",
    "/dev/null",
    "-w",
    "%{http_code} %{time_total}",
    url,
  ]);
  const [status, total] = run.stdout.trim().split(" ");
  if (run.code !== 0 || status !== "200") throw new Error(`curl failed (${run.code}, HTTP ${status}): ${run.stderr}`);
  await bench.emptyBucket();
  return { seconds: Number(total), peakRssMb: run.peakRssMb, clientCpu: run.cpuSeconds, stackCpu: run.stackCpu };
}

async function hangarUpload(bench: BenchStack, file: string, args: string[] = []): Promise<Transfer> {
  const run = await withStackCpu(bench, process.execPath, [HANGAR_BIN, "upload", file, "--json", "--quiet", ...args]);
  if (run.code !== 0) throw new Error(`hangar upload exited ${run.code}: ${run.stderr}${run.stdout}`);
  const result = JSON.parse(run.stdout) as { timings: { completeMs: number; totalMs: number }; metadata: { bundleId: string } };
  // The upload must have gone all the way: the service read the package we built.
  if (result.metadata.bundleId !== "com.hangar.literal") throw new Error(`unexpected metadata: ${run.stdout}`);
  await bench.emptyBucket();
  return {
    seconds: (result.timings.totalMs - result.timings.completeMs) / 1000,
    peakRssMb: run.peakRssMb,
    clientCpu: run.cpuSeconds,
    stackCpu: run.stackCpu,
  };
}

/**
 * Runs each tool `times` times, alternating; per tool the fastest round, with the largest peak RSS
 * of all rounds. Each round starts one tool later (curl, hangar, … then hangar, …, curl): runs
 * drift (one stack process that kept 2 GiB uploads on disk spent 5.0, 8.1 then 10.1 s of CPU on
 * the same curl PUT, a third of the way apart), and a fixed order gave the first tool every
 * round's freshest slot.
 */
async function alternate(times: number, tools: Record<string, () => Promise<Transfer>>): Promise<Record<string, Transfer>> {
  const best: Record<string, Transfer> = {};
  const entries = Object.entries(tools);
  for (let round = 0; round < times; round++) {
    const shift = round % entries.length;
    for (const [name, run] of [...entries.slice(shift), ...entries.slice(0, shift)]) {
      const t = await run();
      const previous = best[name];
      const fastest = previous && previous.seconds <= t.seconds ? previous : t;
      best[name] = { ...fastest, peakRssMb: Math.max(previous?.peakRssMb ?? 0, t.peakRssMb) };
    }
  }
  return best;
}

/** The dashboard upload of a sparse `browserGb` GiB IPA (header, item 4): its PASS/FAIL line. */
async function browserLine(bench: BenchStack, files: string[]): Promise<string> {
  const file = join(BENCH_DIR, `bench-browser-${browserGb}gib.ipa`);
  files.push(file);
  // Sparse: barely any disk for the file (the store's copy is real bytes, deleted once measured).
  await writeBigAssetIpa(file, browserGb * 1024 * MB, { sparse: true });
  const bytes = statSync(file).size;
  const label = `browser, ${(bytes / 1024 / MB).toFixed(2)} GiB from the dashboard (Chromium)`;
  console.log(`Uploading ${label} …`);
  try {
    const { info, pid } = bench.stack;
    const run = await dashboardUpload({ baseUrl: info.baseUrl, mailUrl: info.mailUrl, pid }, file, /uploaded\./);
    await bench.emptyBucket();
    return (
      `PASS ${label}: completed in ${run.seconds.toFixed(1)} s (${(bytes / MB / run.seconds).toFixed(1)} MiB/s, complete included); ` +
      `peak RSS: Chromium ${run.browserPeakRssMb.toFixed(0)} MB (all processes; largest ${run.rendererPeakRssMb.toFixed(0)} MB), stack ${run.stackPeakRssMb.toFixed(0)} MB`
    );
  } catch (error) {
    return `FAIL ${label}: ${(error as Error).message}`;
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(file, { force: true });
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");

async function main(): Promise<void> {
  mkdirSync(BENCH_DIR, { recursive: true });
  console.log(`Load average at start: ${load()} on ${availableParallelism()} cores (on a shared machine compare ratios, not absolute rates)`);
  const rows: string[][] = [];
  const verdicts: string[] = [];
  const hangarRss: number[] = [];
  let idleRssMb = 0;
  const files: string[] = [];
  const row = (link: string, bytes: number, tool: string, t: Transfer, baseline: Transfer) => {
    rows.push([
      link,
      `${(bytes / MB).toFixed(0)} MiB`,
      tool,
      t.seconds.toFixed(2),
      (bytes / MB / t.seconds).toFixed(1),
      (baseline.seconds / t.seconds).toFixed(2),
      t.clientCpu.toFixed(2),
      t.stackCpu.toFixed(2),
      t.peakRssMb.toFixed(1),
    ]);
  };

  try {
    const loopback = await startBenchStack("loopback");
    try {
      // What the CLI costs before it uploads anything (node and the bundle's start).
      idleRssMb = (await measure(process.execPath, [HANGAR_BIN, "--help"], loopback.env)).peakRssMb;
      for (const sizeMb of sizesMb) {
        const { file, bytes } = await benchFile(sizeMb);
        files.push(file);
        const best = await alternate(rounds, {
          curl: () => curlPut(loopback, file, bytes),
          hangar: () => hangarUpload(loopback, file),
          // For reference: the CLI's transport without parts (what multipart costs beside it is its checksums and per-part work).
          onePut: () => hangarUpload(loopback, file, ["--multipart-threshold", "5GiB"]),
        });
        const [curl, hangar, onePut] = [best.curl!, best.hangar!, best.onePut!];
        row("loopback", bytes, "curl -T (one PUT)", curl, curl);
        row("loopback", bytes, "hangar upload", hangar, curl);
        row("loopback", bytes, "hangar upload, one PUT", onePut, curl);
        hangarRss.push(hangar.peakRssMb, onePut.peakRssMb);
        const ratio = curl.seconds / hangar.seconds;
        verdicts.push(
          `${ratio >= LOOPBACK_RATIO ? "PASS" : "FAIL"} loopback, ${(bytes / MB).toFixed(0)} MiB: hangar upload at ${ratio.toFixed(2)}× curl -T's throughput (target ≥ ${LOOPBACK_RATIO}×)`,
        );
        if (!process.env.BENCH_KEEP) rmSync(file, { force: true });
      }
      if (browserGb > 0) verdicts.push(await browserLine(loopback, files));
    } finally {
      await loopback.stop();
    }

    if (cappedMb > 0) {
      const capped = await startBenchStack("capped", capBytesPerSecond);
      try {
        const { file, bytes } = await benchFile(cappedMb);
        files.push(file);
        const link = `${capBytesPerSecond / 1e6} MB/s per conn.`;
        const best = await alternate(cappedRounds, {
          curl: () => curlPut(capped, file, bytes),
          parallel4: () => hangarUpload(capped, file, ["--parallel", "4"]),
          parallel1: () => hangarUpload(capped, file, ["--parallel", "1"]),
        });
        const [curl, parallel4, parallel1] = [best.curl!, best.parallel4!, best.parallel1!];
        // None would mean the URLs bypassed the proxy, and the "capped" figures measured loopback.
        if (capped.proxy!.connections() === 0) throw new Error("no connection went through the throttling proxy");
        row(link, bytes, "curl -T (one PUT)", curl, curl);
        row(link, bytes, "hangar upload --parallel 4", parallel4, curl);
        row(link, bytes, "hangar upload --parallel 1", parallel1, curl);
        hangarRss.push(parallel4.peakRssMb, parallel1.peakRssMb);
        const ratio = curl.seconds / parallel4.seconds;
        verdicts.push(
          `${ratio >= CAPPED_RATIO ? "PASS" : "FAIL"} capped link (${link}), ${(bytes / MB).toFixed(0)} MiB: hangar upload --parallel 4 at ${ratio.toFixed(2)}× curl -T's throughput (target ≥ ${CAPPED_RATIO}×; --parallel 1: ${(curl.seconds / parallel1.seconds).toFixed(2)}×)`,
        );
        if (!process.env.BENCH_KEEP) rmSync(file, { force: true });
      } finally {
        await capped.stop();
      }
    }
  } finally {
    if (!process.env.BENCH_KEEP) for (const f of files) rmSync(f, { force: true });
  }

  const peakRss = Math.max(...hangarRss);
  verdicts.push(
    `${peakRss <= TARGET_RSS_MB ? "PASS" : "FAIL"} peak RSS of hangar upload: ${peakRss.toFixed(1)} MB, worst of every run (target ≤ ${TARGET_RSS_MB} MB; \`hangar --help\` alone: ${idleRssMb.toFixed(1)} MB)`,
  );

  const header = ["link", "size", "tool", "transfer s", "MiB/s", "× curl", "client CPU s", "stack CPU s", "peak RSS MB"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const r of rows) console.log(line(r));
  console.log(
    `\ntransfer s: curl's time_total (the PUT); hangar's timings.totalMs − completeMs (everything before complete). ` +
      `× curl: throughput over curl's on the same link. Best of ${rounds} loopback round(s), ${cappedRounds} capped; ` +
      `CPU of that round: the client's (GNU time) and the stack process's (object store and handlers, complete included) meanwhile; ` +
      `peak RSS (${hasGnuTime ? "GNU time -v" : "/proc VmHWM polling"}) the worst round's. "one PUT": --multipart-threshold 5GiB, no target.`,
  );
  console.log(`Load average at end: ${load()}\n\nTargets:\n${verdicts.map((v) => `  ${v}`).join("\n")}`);
}

await main();
