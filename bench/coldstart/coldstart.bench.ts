/**
 * `npm run bench:coldstart [-- --runs 9] [-- --top 8] [-- --only presign,complete]`
 *
 * Bundles every function of the stacks exactly as SST does at deploy (SST's own esbuild, its
 * default options plus ours from stacks/bundling.ts), beside a baseline bundle that imports
 * the S3 and DynamoDB clients whole, then reports each bundle's size and the median time to
 * import it in fresh `node` processes. Handlers must do no I/O at import: they are imported
 * with dummy settings and no AWS credentials.
 *
 * Targets (printed with PASS/FAIL, not enforced unless --strict): presign ≤ 400 KB, complete
 * ≤ 600 KB, every function's import ≤ 150 ms (issue 18). Each import is also given as a ratio to
 * the baseline's, sampled alternately with the function's own (one baseline import after each),
 * so that a machine whose load changes during the run still gives comparable ratios.
 * Each bundle is written at its handler's path below the output directory, with the files the
 * stack copies beside it (the cli function packs its CLI from there at import), as in Lambda.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { readFile } from "node:fs/promises";
import type * as Esbuild from "esbuild";
import { CLI_PACKAGE_FILES, functions } from "@hangar/functions";
import { lambdaNodejs } from "../../stacks/bundling";
import { REAPER_HANDLER } from "../../stacks/handlers";

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const OUT = path.join(ROOT, ".sst", "bench", "coldstart");

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const value = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const RUNS = flag("runs", 9);
const TOP = flag("top", 0);
const STRICT = args.includes("--strict");
// `--only presign,complete`: those functions (and the baseline) only, to measure a change quickly.
const ONLY = args.includes("--only") ? new Set(args[args.indexOf("--only") + 1]?.split(",")) : undefined;

const KB = 1000;
const TARGETS: Record<string, number> = { presign: 400 * KB, complete: 600 * KB };
const IMPORT_TARGET_MS = 150;

// The esbuild SST bundles with (its own pinned copy), so sizes match the deployed zips.
const sstRequire = createRequire(createRequire(import.meta.url).resolve("sst/package.json"));
const esbuild = sstRequire("esbuild") as typeof Esbuild;

/** SST 2.x's ESM options (sst/runtime/handlers/node.js), then ours on top, as SST merges them. */
function sstOptions(entry: string, outfile: string): Esbuild.BuildOptions {
  const { esbuild: overrides, ...nodejs } = lambdaNodejs;
  return {
    entryPoints: [entry],
    outfile,
    platform: "node",
    bundle: true,
    keepNames: true,
    metafile: true,
    logLevel: "silent",
    format: nodejs.format,
    mainFields: ["module", "main"],
    banner: {
      js: [
        `import { createRequire as topLevelCreateRequire } from 'module';`,
        `const require = topLevelCreateRequire(import.meta.url);`,
        `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
        `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
        "",
      ].join("\n"),
    },
    sourcemap: nodejs.sourcemap,
    minify: nodejs.minify,
    external: ["sharp", "pg-native"],
    // SST's own ESM target, replaced by ours below.
    target: overrides.target ?? "esnext",
    plugins: [...overrides.plugins] as unknown as Esbuild.Plugin[],
  };
}

/** `dir/file.handler.handler` → `dir/file.handler.ts` (SST's resolution). */
function entryOf(handler: string): string {
  const parsed = path.parse(handler);
  return path.join(ROOT, parsed.dir, `${parsed.name}.ts`);
}

/** Where SST writes a handler's bundle: its own directory, relative to the repository's root. */
const outDirOf = (handler: string): string => path.join(OUT, path.parse(handler).dir);

/**
 * The naive bundle: every export of the clients is reachable (`Object.keys` of the
 * namespaces), so nothing can be tree-shaken: what "import the whole client" costs.
 */
const BASELINE_SOURCE = `
import * as s3 from "@aws-sdk/client-s3";
import * as dynamodb from "@aws-sdk/client-dynamodb";
import * as lib from "@aws-sdk/lib-dynamodb";
import * as presigner from "@aws-sdk/s3-request-presigner";
const all = [s3, dynamodb, lib, presigner];
export const handler = async () => ({ statusCode: 200, body: String(all.reduce((n, m) => n + Object.keys(m).length, 0)) });
`;

interface Bundle {
  name: string;
  file: string;
  bytes: number;
  gzipBytes: number;
  metafile: Esbuild.Metafile;
}

async function bundle(name: string, entry: string, dir: string): Promise<Bundle> {
  const file = path.join(dir, `${name}.mjs`);
  const result = await esbuild.build(sstOptions(entry, file));
  const bytes = (await stat(file)).size;
  const gzipBytes = gzipSync(await readFile(file)).length;
  return { name, file, bytes, gzipBytes, metafile: result.metafile! };
}

const DUMMY_ENV = {
  HANGAR_TABLE_NAME: "bench-table",
  HANGAR_BUCKET_NAME: "bench-bucket",
  AWS_REGION: "us-east-1",
  POWERTOOLS_LOG_LEVEL: "SILENT",
};

/**
 * One fresh process per sample: module cache and JIT as cold as a new Lambda sandbox's. Wall time
 * is what the target is about; the CPU time of the import (user + system) is printed beside it,
 * since on a machine shared with other work it moves far less than wall time does.
 */
async function importMs(file: string): Promise<{ wall: number; cpu: number }> {
  const script =
    `const c = process.cpuUsage(); const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(file).href)}); ` +
    `const wall = performance.now() - t; const u = process.cpuUsage(c); ` +
    `if (typeof m.handler !== "function") throw new Error("no handler export"); ` +
    `console.log(wall, (u.user + u.system) / 1000);`;
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...DUMMY_ENV };
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { env, cwd: path.dirname(file) });
  const [wall, cpu] = stdout.trim().split("\n").at(-1)!.split(" ").map(Number);
  return { wall: wall!, cpu: cpu! };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Largest inputs of a bundle, grouped by package, to see what a size is made of. */
function topPackages(metafile: Esbuild.Metafile, n: number): string[] {
  const output = Object.values(metafile.outputs)[0];
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const key = m ? m[1]! : input.replace(/\/[^/]+$/, "/");
    byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([pkg, bytes]) => `    ${(bytes / KB).toFixed(1).padStart(8)} KB  ${pkg}`);
}

await rm(OUT, { recursive: true, force: true });
await mkdir(OUT, { recursive: true });
const baselineEntry = path.join(OUT, "baseline-entry.mjs");
await writeFile(baselineEntry, BASELINE_SOURCE);
// The cli function's copyFiles (stacks/api-stack.ts), at the same relative paths.
for (const from of CLI_PACKAGE_FILES) await cp(path.join(ROOT, from), path.join(OUT, from), { recursive: true });

const BASELINE = "baseline (whole S3 + DynamoDB clients)";
// The baseline first: every function's import is also given as a ratio to it.
const entries = ([
  [BASELINE, baselineEntry, OUT],
  ...Object.entries(functions).map(([name, fn]): [string, string, string] => [name, entryOf(fn.handler), outDirOf(fn.handler)]),
  ["reaper", entryOf(REAPER_HANDLER), outDirOf(REAPER_HANDLER)],
] satisfies [string, string, string][]).filter(([name]) => !ONLY || name === BASELINE || ONLY.has(name));

console.log(`Bundling ${entries.length} entries with SST's esbuild ${esbuild.version}; ${RUNS} fresh node ${process.version} imports each.\n`);
const rows: string[] = [];
const checks: string[] = [];
let failed = false;
let baselineFile = "";
for (const [name, entry, dir] of entries) {
  const b = await bundle(name.split(" ")[0]!, entry, dir);
  const isBaseline = name === BASELINE;
  if (isBaseline) baselineFile = b.file;
  const samples: { wall: number; cpu: number }[] = [];
  const baselineSamples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    samples.push(await importMs(b.file));
    if (!isBaseline) baselineSamples.push((await importMs(baselineFile)).wall);
  }
  const ms = median(samples.map((x) => x.wall));
  const cpuMs = median(samples.map((x) => x.cpu));
  const baselineMs = isBaseline ? ms : median(baselineSamples);
  const sizeTarget = TARGETS[name];
  const sizeOk = sizeTarget === undefined || b.bytes <= sizeTarget;
  const timeOk = isBaseline || ms <= IMPORT_TARGET_MS;
  if (!sizeOk || !timeOk) failed = true;
  const ratio = isBaseline ? "" : `${(ms / baselineMs).toFixed(2)}× baseline`;
  rows.push(
    [
      name.padEnd(40),
      `${(b.bytes / KB).toFixed(1).padStart(8)} KB`,
      `${(b.gzipBytes / KB).toFixed(1).padStart(7)} KB gz`,
      `${ms.toFixed(1).padStart(7)} ms`,
      `${cpuMs.toFixed(1).padStart(7)} ms CPU`,
      ratio.padStart(15),
    ].join("  "),
  );
  if (TOP) rows.push(...topPackages(b.metafile, TOP));
  if (sizeTarget) checks.push(`${sizeOk ? "PASS" : "FAIL"} ${name} bundle ≤ ${sizeTarget / KB} KB: ${(b.bytes / KB).toFixed(1)} KB`);
  if (!isBaseline) checks.push(`${timeOk ? "PASS" : "FAIL"} ${name} import ≤ ${IMPORT_TARGET_MS} ms: ${ms.toFixed(1)} ms (${ratio})`);
}
console.log(["function".padEnd(40), "   minified", "     gzip", "   import (median: wall, CPU)", "  vs baseline (alternate samples)"].join("  "));
for (const row of rows) console.log(row);
console.log(`\nTargets (on a quiet machine: these are wall-clock times):`);
for (const check of checks) console.log(`  ${check}`);
console.log(`\nBundles in ${OUT}`);
if (STRICT && failed) process.exitCode = 1;
