/**
 * npm run bench:inspect — Hangar vs npm app-info-parser on the same files in the same run:
 * committed fixtures, then generated 1 / 30 / 300 MB IPAs and APKs (1 GB with BENCH_LARGE=1)
 * and a 70,000-entry ZIP64 IPA, under .tmp/bench/ (gitignored, reused between runs).
 *
 * Per file: bytes Hangar read (and the share of the file), its read calls, median time of a few
 * runs for each tool, peak RSS growth of each tool measured in a fresh child process, and
 * whether both tools agree on name / bundle id / version. Local disk hides S3's per-request
 * latency; BENCH_S3_LATENCY_MS / BENCH_S3_MBPS shape the S3 path like a real network (default off).
 */
import { execFile } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { readFile, stat } from "node:fs/promises";
import { BufferRangeReader, inspectPackage } from "../src";
import { entriesOf, findFixtures, fixturesRoot, mutatedCase } from "../fixtures/fuzz-mutations";
import { createInspectContext } from "../src/inspect-context";
import { FileRangeReader } from "../src/reader/file-range-reader";
import type { RandomAccessReader } from "../src/reader/random-access-reader";
import { LOCAL_HEADER_SLACK, openZip } from "../src/zip/open-zip";
import { TAIL_READ_BYTES } from "../src/zip/zip-structure";
import type { BenchFile } from "./bench-files";
import { committedFixtures, generatedFiles } from "./bench-files";
import type { Outcome, Target, Tool } from "./competitors";
import { startRangeServer } from "./range-server";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "../../..");
const large = process.env.BENCH_LARGE === "1";
const MAX_RUNS = 7;
/** Stop repeating a slow tool on one file after this much time (at least one run always). */
const TIME_PER_FILE_MS = 8000;
/** A tool still busy this long on one run is reported as hung (app-info-parser loops on some hostile APKs). */
const HANG_AFTER_MS = 15_000;

interface Measured {
  medianMs: number;
  runs: number;
  outcome: Outcome;
  peakBytes?: number;
}

/** Runs one tool on one file in a child process (see run-tool.ts); a hang becomes an error. */
async function measure(tool: Tool, target: Target): Promise<Measured> {
  const timeoutMs = HANG_AFTER_MS + TIME_PER_FILE_MS;
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", join(here, "run-tool.ts"), tool, JSON.stringify(target), String(MAX_RUNS), String(TIME_PER_FILE_MS)],
      { cwd: repoRoot, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 64 * 1024 * 1024 },
    );
    const last = stdout.trim().split("\n").pop() ?? "";
    const { timesMs, outcome, peakBytes } = JSON.parse(last) as { timesMs: number[]; outcome: Outcome; peakBytes: number };
    const sorted = [...timesMs].sort((a, b) => a - b);
    return { medianMs: sorted[Math.floor(sorted.length / 2)]!, runs: sorted.length, outcome, peakBytes };
  } catch (error) {
    const killed = (error as { killed?: boolean }).killed;
    return {
      medianMs: Number.NaN,
      runs: 0,
      outcome: { error: killed ? `no answer after ${timeoutMs / 1000} s (killed)` : (error as Error).message },
    };
  }
}

/** Reads Hangar made, split into what the bound allows: tail, central directory, entries read. */
class LoggingReader implements RandomAccessReader {
  readonly offsets: number[] = [];
  constructor(private readonly inner: RandomAccessReader) {}
  get size() {
    return this.inner.size;
  }
  get stats() {
    return this.inner.stats;
  }
  read(offset: number, length: number) {
    this.offsets.push(offset);
    return this.inner.read(offset, length);
  }
  close() {
    return this.inner.close();
  }
}

/**
 * Target: bytes read ≤ central directory + the entries read + the 64 KiB tail (plus the ZIP64
 * end records and the bounded per-entry over-read). Returns the allowance and whether it holds.
 */
async function checkReadBound(path: string, bytesRead: number): Promise<{ allowed: number; ok: boolean }> {
  const reader = await FileRangeReader.open(path);
  try {
    const zip = await openZip(reader, createInspectContext());
    const logging = new LoggingReader(await FileRangeReader.open(path));
    try {
      await inspectPackage(logging, { fileName: path }).catch(() => undefined);
    } finally {
      await logging.close();
    }
    const byOffset = new Map<number, { nameLength: number; extraLength: number; compressedSize: number }>();
    for (const entry of zip.entries.values()) {
      const e = entry as unknown as { localHeaderOffset: number; nameLength: number; extraLength: number; compressedSize: number };
      byOffset.set(e.localHeaderOffset, e);
    }
    let entries = 0;
    for (const offset of logging.offsets) {
      const e = byOffset.get(offset);
      if (e) entries += 30 + e.nameLength + e.extraLength + e.compressedSize + 16 + LOCAL_HEADER_SLACK;
    }
    const allowed = zip.endRecord.centralDirectorySize + entries + TAIL_READ_BYTES;
    return { allowed, ok: bytesRead <= allowed };
  } finally {
    await reader.close();
  }
}

const fmtBytes = (n: number | undefined): string => {
  if (n === undefined) return "n/a";
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 ** 3).toFixed(2)} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
};
const fmtMs = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 1)} ms`);

function agree(a: Outcome, b: Outcome): string {
  if (a.error) return "hangar error";
  if (b.error) return `aip: ${b.error.slice(0, 40)}`;
  const fields = (["appName", "bundleId", "version"] as const).filter((f) => a[f] !== b[f]);
  return fields.length === 0 ? "yes" : `differs: ${fields.join(",")}`;
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(headers), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

const fmtTime = (m: Measured): string =>
  m.runs === 0 ? "hung" : m.outcome.error ? "error" : `${fmtMs(m.medianMs)}${m.runs > 1 ? "" : "*"}`;

function ratio(ours: Measured, theirs: Measured): number | undefined {
  return ours.runs === 0 || theirs.runs === 0 || theirs.outcome.error ? undefined : theirs.medianMs / ours.medianMs;
}
const fmtRatio = (r: number | undefined): string => (r === undefined ? "n/a" : `${r.toFixed(r < 10 ? 1 : 0)}×`);

async function main(): Promise<void> {
  const fixtures = await committedFixtures(join(here, "../fixtures"));
  process.stderr.write(`Generating large packages in .tmp/bench/ (reused next time)...\n`);
  const { files: generated, notes } = await generatedFiles(join(repoRoot, ".tmp/bench"), fixtures, large);
  const files: (BenchFile & { viaS3?: boolean })[] = [...fixtures, ...generated.map((f) => ({ ...f, viaS3: true }))];
  const shape = { latencyMs: Number(process.env.BENCH_S3_LATENCY_MS ?? 0), mbps: Number(process.env.BENCH_S3_MBPS ?? 0) };
  const server = await startRangeServer(shape);

  const headers = [
    "file", "size", "read", "share", "reads", "≤ bound",
    "hangar disk", "aip disk", "×", "hangar S3", "aip S3", "×",
    "hangar peak", "aip peak", "same result",
  ];
  const rows: string[][] = [];
  const checks: string[] = [];
  const series: Record<string, { label: string; peak?: number; s3Peak?: number }[]> = { ipa: [], apk: [] };

  try {
    for (const file of files) {
      process.stderr.write(`  ${file.label}\n`);
      const { size } = await stat(file.path);
      const ours = await measure("hangar", { path: file.path });
      const theirs = await measure("app-info-parser", { path: file.path });
      let oursS3: Measured | undefined;
      let theirsS3: Measured | undefined;
      if (file.viaS3) {
        const key = file.path.split("/").pop()!;
        server.files.set(key, { path: file.path, size });
        const target: Target = { path: file.path, endpoint: server.endpoint, key, size };
        oursS3 = await measure("hangar-s3", target);
        theirsS3 = await measure("app-info-parser-s3", target);
      }
      const stats = ours.outcome.stats ?? { bytesRead: 0, reads: 0 };
      const bound = await checkReadBound(file.path, stats.bytesRead);
      const diskRatio = ratio(ours, theirs);
      const s3Ratio = oursS3 && theirsS3 ? ratio(oursS3, theirsS3) : undefined;
      rows.push([
        file.label,
        fmtBytes(size),
        fmtBytes(stats.bytesRead),
        `${((stats.bytesRead / size) * 100).toFixed(stats.bytesRead / size < 0.01 ? 3 : 1)}%`,
        String(stats.reads),
        bound.ok ? "yes" : `NO (${fmtBytes(bound.allowed)})`,
        fmtTime(ours),
        fmtTime(theirs),
        fmtRatio(diskRatio),
        oursS3 ? fmtTime(oursS3) : "-",
        theirsS3 ? fmtTime(theirsS3) : "-",
        oursS3 ? fmtRatio(s3Ratio) : "-",
        fmtBytes(ours.peakBytes),
        fmtBytes(theirs.peakBytes),
        agree(ours.outcome, theirs.outcome),
      ]);
      if (size >= 30 * 1024 * 1024 || file.label.includes("ZIP64")) {
        const pass = s3Ratio !== undefined && s3Ratio >= 10;
        checks.push(
          `${pass ? "PASS" : "FAIL"} ≥10× faster from S3 on ${file.label}: ${fmtRatio(s3Ratio)} (local disk: ${fmtRatio(diskRatio)})`,
        );
      }
      if (!bound.ok) checks.push(`FAIL bytes read within bound on ${file.label}`);
      if (file.series) series[file.series]!.push({ label: file.label, peak: ours.peakBytes, s3Peak: oursS3?.peakBytes });
    }
  } finally {
    await server.close();
  }

  for (const [name, points] of Object.entries(series)) {
    if (points.length < 2) continue;
    const peaks = points.flatMap((p) => [p.peak ?? 0, p.s3Peak ?? 0]);
    const spread = Math.max(...peaks) - Math.min(...peaks);
    // "Flat": no growth with package size beyond the noise of one process's RSS.
    checks.push(
      `${spread <= 32 * 1024 * 1024 ? "PASS" : "FAIL"} flat Hangar peak memory across ${name.toUpperCase()} sizes (disk / S3): ${points
        .map((p) => `${p.label.replace("generated ", "")} ${fmtBytes(p.peak)} / ${fmtBytes(p.s3Peak)}`)
        .join(", ")}`,
    );
  }
  const boundFailures = rows.filter((r) => r[5] !== "yes").length;
  if (boundFailures === 0) checks.push(`PASS bytes read ≤ central directory + entries read + 64 KiB tail on all ${rows.length} files`);

  console.log(`\nHangar inspect benchmark (node ${process.version}, ${large ? "with" : "without"} BENCH_LARGE 1 GB files)\n`);
  console.log(table(headers, rows));
  console.log(`
read / share / reads: what Hangar fetched. aip = npm app-info-parser. Times are medians of up to ${MAX_RUNS} runs
(* = one run) after a cold run, each tool in its own child process; "hung" = no answer within ${HANG_AFTER_MS / 1000} s, killed.
disk: both tools on the local file (app-info-parser's yauzl also reads only the entries it needs there).
S3: the service's path against a local S3-shaped range server: Hangar through the AWS SDK and S3RangeReader,
app-info-parser after a GetObject download to a temp file (it cannot read in place). Localhost has no network
latency and ~GB/s bandwidth, so real S3 widens the gap for large files and narrows it for tiny ones
(model it with BENCH_S3_LATENCY_MS=25 BENCH_S3_MBPS=100; this run: ${shape.latencyMs} ms, ${shape.mbps || "unlimited"} MB/s).
Peaks: RSS growth during one run in a fresh process (disk path). same result: appName, bundleId, version agree.`);
  for (const note of notes) console.log(note);
  checks.push(await hostileCaseTimes());
  console.log(`\nTargets:\n${checks.map((c) => `  ${c}`).join("\n")}`);
}

/** What a hostile case may cost the service: the fuzz test's budget before it moved here. */
const HOSTILE_CASE_MS = 3000;

/**
 * The fuzz test's seeded mutations of every committed fixture (BENCH_FUZZ_CASES per fixture),
 * each inspected in this process with the service's limits: the slowest one against 3 s.
 */
async function hostileCaseTimes(): Promise<string> {
  const perFixture = Number(process.env.BENCH_FUZZ_CASES ?? 100);
  let slowest = { ms: 0, label: "" };
  let cases = 0;
  for (const path of await findFixtures()) {
    const name = relative(fixturesRoot, path);
    const source = await readFile(path);
    const entries = await entriesOf(source);
    for (let i = 0; i < perFixture; i++) {
      const { seed, bytes, what } = await mutatedCase({ name, source, entries }, i);
      const started = performance.now();
      await inspectPackage(new BufferRangeReader(bytes), { fileName: name }).catch(() => undefined);
      const ms = performance.now() - started;
      cases++;
      if (ms > slowest.ms) slowest = { ms, label: `${name} seed ${seed} (${what})` };
    }
  }
  return `${slowest.ms <= HOSTILE_CASE_MS ? "PASS" : "FAIL"} slowest of ${cases} mutated fixtures within ${HOSTILE_CASE_MS} ms: ${slowest.ms.toFixed(0)} ms (${slowest.label})`;
}

await main();
