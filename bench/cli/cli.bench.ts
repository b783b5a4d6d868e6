/**
 * `npm run bench:cli` — the published CLI as whole processes, the way a CI step pays for it:
 * median wall time and peak RSS of `hangar --version` and `hangar inspect`, beside `node -e 0`
 * (the floor: Node starting and exiting) and app-info-parser (a plain JS library doing the same
 * job) in the same run, on a small APK and on a generated 50 MB APK. Runs are interleaved, so
 * a noisy neighbour slows every row alike. Targets (issue 12): within 60 ms of `node -e 0`, and
 * at most 60 MB peak RSS for inspect of a 50 MB APK.
 *
 * Peak RSS comes from GNU time (`/usr/bin/time -f %M`, Debian package `time`) in a separate
 * pass (with CPU time, user + system: less sensitive than wall time to a busy machine), so wall
 * times are measured without the wrapper. BENCH_RUNS sets the runs per row (15).
 * Last, the GitHub Action's upload step (its script, read from action.yml) uploads the small APK
 * to a local stack 5 times: what the step costs once the file is built (BENCH_ACTION=0 skips).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { randomIds } from "@hangar/core";
import { mintLocalApiKey } from "@hangar/local";
import { noiseBlock, writeBigAssetApk } from "../../packages/inspect/fixtures/large-fixtures";
import { startStackProcess } from "../../test/support/local-stack-process";

const ROOT = resolve(import.meta.dirname, "../..");
const DIST_BIN = join(ROOT, "packages/cli/dist/hangar.js");
const DEV_BIN = join(ROOT, "packages/cli/bin/hangar.js");
const SMALL_APK = join(ROOT, "packages/inspect/fixtures/apk/aapt2-adaptive-icon.apk");
const WORK = join(ROOT, ".tmp/bench/cli");
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const MB = 1024 * 1024;
const GNU_TIME = "/usr/bin/time";

interface Row {
  label: string;
  argv: string[];
  /** A row whose command fails is reported, not timed. */
  expectOutput?: RegExp;
}

/** app-info-parser as a CLI would use it: require, parse one file, print three fields. */
function appInfoParserScript(): string {
  const path = join(WORK, "app-info-parser.cjs");
  writeFileSync(
    path,
    `const AppInfoParser = require(${JSON.stringify(join(ROOT, "node_modules/app-info-parser"))});
new AppInfoParser(process.argv[2]).parse().then(
  (r) => console.log(r.application && r.application.label, r.package, r.versionName),
  (e) => { console.error(String(e)); process.exit(1); },
);
`,
  );
  return path;
}

function once(argv: string[], env?: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; stdout: string }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "ignore"], ...(env ? { env } : {}) });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ ms: performance.now() - started, code, stdout }));
  });
}

/** Peak RSS (kB) and CPU time (user + system, ms) of one run, from GNU time. */
function usage(argv: string[], env?: NodeJS.ProcessEnv): { peakKb: number; cpuMs: number } | undefined {
  if (!existsSync(GNU_TIME)) return undefined;
  const r = spawnSync(GNU_TIME, ["-f", "%M %U %S", ...argv], { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"], ...(env ? { env } : {}) });
  const m = /^(\d+) ([\d.]+) ([\d.]+)$/.exec(r.stderr.trim().split("\n").at(-1) ?? "");
  return m ? { peakKb: Number(m[1]), cpuMs: (Number(m[2]) + Number(m[3])) * 1000 } : undefined;
}

const peakRssKb = (argv: string[], env?: NodeJS.ProcessEnv) => usage(argv, env)?.peakKb;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  if (!existsSync(DIST_BIN)) throw new Error("packages/cli/dist/hangar.js is missing: npm run build:cli");
  const bigApk = join(WORK, "app-50mb.apk");
  if (!existsSync(bigApk)) await writeBigAssetApk(bigApk, SMALL_APK, 50 * MB, { block: noiseBlock() });
  const aip = appInfoParserScript();
  const node = process.execPath;

  const rows: Row[] = [
    { label: "node -e 0", argv: [node, "-e", "0"] },
    { label: "hangar --version", argv: [node, DIST_BIN, "--version"], expectOutput: /^\d+\.\d+\.\d+/ },
    { label: "hangar inspect small.apk", argv: [node, DIST_BIN, "inspect", SMALL_APK], expectOutput: /com\./ },
    { label: "app-info-parser small.apk", argv: [node, aip, SMALL_APK], expectOutput: /com\./ },
    { label: "hangar inspect 50 MB.apk", argv: [node, DIST_BIN, "inspect", bigApk], expectOutput: /com\./ },
    { label: "app-info-parser 50 MB.apk", argv: [node, aip, bigApk], expectOutput: /com\./ },
    { label: "before: tsx bin --version", argv: [node, DEV_BIN, "--version"], expectOutput: /^\d+\.\d+\.\d+/ },
  ];

  const times = new Map<string, number[]>(rows.map((r) => [r.label, []]));
  const failures = new Map<string, string>();
  // One warm-up round (page cache, the OS's exec path), then interleaved timed rounds.
  for (let round = -1; round < RUNS; round++) {
    for (const row of rows) {
      if (failures.has(row.label)) continue;
      const r = await once(row.argv);
      if (r.code !== 0 || (row.expectOutput && !row.expectOutput.test(r.stdout))) {
        failures.set(row.label, `exit ${r.code}: ${r.stdout.slice(0, 120)}`);
        continue;
      }
      if (round >= 0) times.get(row.label)!.push(r.ms);
    }
  }
  const measured = new Map(rows.map((r) => [r.label, [0, 1, 2, 3, 4].map(() => usage(r.argv))]));
  const peaks = new Map(rows.map((r) => [r.label, median(measured.get(r.label)!.map((u) => u?.peakKb ?? NaN))]));
  const cpu = new Map(rows.map((r) => [r.label, median(measured.get(r.label)!.map((u) => u?.cpuMs ?? NaN))]));

  const floor = median(times.get("node -e 0")!);
  console.log(`bench:cli — Node ${process.versions.node}, ${RUNS} runs per row (median), peak RSS by ${existsSync(GNU_TIME) ? "GNU time" : "(GNU time missing: apt-get install time)"}`);
  console.log(`${"command".padEnd(28)}${"median".padStart(10)}${"vs node -e 0".padStart(14)}${"peak RSS".padStart(11)}${"CPU".padStart(9)}`);
  for (const row of rows) {
    const failed = failures.get(row.label);
    if (failed) {
      console.log(`${row.label.padEnd(28)}  failed: ${failed}`);
      continue;
    }
    const ms = median(times.get(row.label)!);
    const peak = peaks.get(row.label)!;
    const delta = row.label === "node -e 0" ? "" : `+${(ms - floor).toFixed(0)} ms`;
    console.log(
      `${row.label.padEnd(28)}${`${ms.toFixed(0)} ms`.padStart(10)}${delta.padStart(14)}${(Number.isNaN(peak) ? "n/a" : `${(peak / 1024).toFixed(1)} MB`).padStart(11)}` +
        `${(Number.isNaN(cpu.get(row.label)!) ? "n/a" : `${cpu.get(row.label)!.toFixed(0)} ms`).padStart(9)}`,
    );
  }
  const version = median(times.get("hangar --version")!) - floor;
  const inspect = median(times.get("hangar inspect small.apk")!) - floor;
  const bigPeak = peaks.get("hangar inspect 50 MB.apk")! / 1024;
  console.log("");
  console.log(`target: start-up within 60 ms of node -e 0 — --version +${version.toFixed(0)} ms, inspect +${inspect.toFixed(0)} ms: ${version <= 60 && inspect <= 60 ? "met" : "NOT met"}`);
  console.log(`target: inspect of a 50 MB APK at most 60 MB peak RSS — ${bigPeak.toFixed(1)} MB: ${bigPeak <= 60 ? "met" : "NOT met"}`);
}

/** The Upload step's `run: |` script of action.yml, as the runner would execute it. */
function actionScript(): string {
  const yaml = readFileSync(join(ROOT, "action.yml"), "utf8");
  const match = /\n( +)run: \|\n((?:\1 {2}.*\n|\n)*)/g;
  for (const m of yaml.matchAll(match)) {
    const text = m[2]!.split("\n").map((l) => l.slice(m[1]!.length + 2)).join("\n");
    if (text.includes("hangar-cli.tgz")) return text;
  }
  throw new Error("action.yml has no step running the CLI (hangar-cli.tgz)");
}

async function benchActionStep(): Promise<void> {
  const dataDir = join(WORK, "stack");
  rmSync(dataDir, { recursive: true, force: true });
  const stack = await startStackProcess(dataDir, { HANGAR_DYNAMODB_IN_MEMORY: "1" });
  try {
    const script = actionScript();
    const times: number[] = [];
    const peaks: number[] = [];
    for (let i = 0; i < 5; i++) {
      const key = await mintLocalApiKey(stack.info, { email: "bench@hangar.localhost", projectName: `bench-cli-${randomIds.userKey()}` });
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_OUTPUT: join(WORK, "github-output"),
        HANGAR_URL: stack.info.baseUrl,
        HANGAR_CLIENT_ID: key.clientId,
        HANGAR_CLIENT_SECRET: key.clientSecret,
        INPUT_FILE: SMALL_APK,
        INPUT_NAME: "",
        INPUT_MAX_RETRIES: "5",
        INPUT_TIMEOUT: "600",
      };
      const r = await once(["bash", "-eo", "pipefail", "-c", script], env);
      if (r.code !== 0) throw new Error(`the action's upload step failed (exit ${r.code})`);
      times.push(r.ms);
      const again = await mintLocalApiKey(stack.info, { email: "bench@hangar.localhost", projectName: `bench-cli-${randomIds.userKey()}` });
      const peak = peakRssKb(["bash", "-eo", "pipefail", "-c", script], { ...env, HANGAR_CLIENT_ID: again.clientId, HANGAR_CLIENT_SECRET: again.clientSecret });
      if (peak !== undefined) peaks.push(peak);
    }
    const peak = peaks.length ? `${(median(peaks) / 1024).toFixed(1)} MB` : "n/a";
    console.log(`action.yml upload step, ${SMALL_APK.split("/").pop()} to a local stack: median ${median(times).toFixed(0)} ms, peak RSS ${peak} (5 runs; the CLI fetched from the stack, npm cache warm after the first)`);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
if (process.env.BENCH_ACTION !== "0") {
  console.log("");
  await benchActionStep();
}
