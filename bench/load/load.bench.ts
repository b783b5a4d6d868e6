/**
 * npm run bench:load — presign → PUT → complete on the local stack at rising arrival rates (2, 5,
 * 10, 20, 40 uploads/s; open loop: a new upload starts on schedule whether or not earlier ones
 * finished, as CI jobs do). Each step lasts BENCH_STEP_SECONDS (default 10 s) and at most 400
 * uploads, loopback only. Per step: achieved completes/s, p50/p99 of each part and of the whole
 * upload, and the error rate; then the first rate where latency broke (whole-upload p99 > 5× the
 * first step's) or errors did (> 1 %), and which part's median grew most there (in ms): the
 * one requests queue on, which saturated first.
 *
 * Target: the issue's "a stage takes 1,000 uploads a minute" is 16.7 uploads/s. PASS when the
 * 20/s step holds (errors ≤ 1 %, not broken). This is the local stack on this machine (one Node
 * process running every handler, DynamoDB Local, a local object store): it says where this code
 * saturates on one box, not what API Gateway, Lambda and DynamoDB do (docs/deploy.md's load model
 * covers those quotas).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { mintApiKey } from "@hangar/local";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, startStackProcess } from "../../test/support/local-stack-process";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const RATES = [2, 5, 10, 20, 40];
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 10);
const MAX_PER_STEP = 400;
/** Uploads in flight beyond this are counted as errors instead of piling up without bound. */
const MAX_IN_FLIGHT = 200;
/** 1,000 uploads a minute. */
const TARGET_RATE = 1000 / 60;
const LATENCY_BREAK = 5;
const ERROR_BREAK = 0.01;
const PARTS = ["presign", "put", "complete", "total"] as const;
type Part = (typeof PARTS)[number];

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

interface StepResult {
  rate: number;
  started: number;
  ok: number;
  errors: number;
  seconds: number;
  p50: Record<Part, number>;
  p99: Record<Part, number>;
  firstError?: string;
}

const dataDir = mkdtempSync(join(tmpdir(), "hangar-bench-load-"));
const stack = await startStackProcess(dataDir, { HANGAR_RATE_LIMIT: "1000000", HANGAR_DYNAMODB_IN_MEMORY: "1" });
try {
  const { info } = stack;
  const client = new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials });
  const db = DynamoDBDocumentClient.from(client);
  const key = await mintApiKey(db, info.tableName, { email: "load@hangar.test", projectName: "load" });
  const headers = { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" };
  const apk = new Uint8Array(readFileSync(join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-string-refs.apk")));

  async function timed<T>(times: Partial<Record<Part, number>>, part: Part, step: () => Promise<T>): Promise<T> {
    const t = performance.now();
    const value = await step();
    times[part] = performance.now() - t;
    return value;
  }

  /** One CI upload; each part's time, or the first failure. */
  async function oneUpload(n: number): Promise<Partial<Record<Part, number>>> {
    const times: Partial<Record<Part, number>> = {};
    const declared = { fileName: `load-${n}.apk`, fileSize: apk.length, fileType: "application/vnd.android.package-archive" };
    const signal = () => AbortSignal.timeout(30_000);
    const start = performance.now();
    const presigned = await timed(times, "presign", async () => {
      const res = await fetch(`${info.baseUrl}/api/upload/api-key/presign`, { method: "POST", headers, body: JSON.stringify(declared), signal: signal() });
      if (res.status !== 200) throw new Error(`presign ${res.status}`);
      return (await res.json()) as { key: string; uploadUrl: string };
    });
    await timed(times, "put", async () => {
      const res = await fetch(presigned.uploadUrl, { method: "PUT", headers: { "Content-Type": "application/octet-stream" }, body: apk, signal: signal() });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`PUT ${res.status}`);
    });
    await timed(times, "complete", async () => {
      const res = await fetch(`${info.baseUrl}/api/upload/api-key/complete`, {
        method: "POST",
        headers,
        body: JSON.stringify({ ...declared, key: presigned.key }),
        signal: signal(),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`complete ${res.status}`);
    });
    times.total = performance.now() - start;
    return times;
  }

  async function step(rate: number): Promise<StepResult> {
    const count = Math.min(MAX_PER_STEP, Math.round(rate * STEP_SECONDS));
    const samples: Record<Part, number[]> = { presign: [], put: [], complete: [], total: [] };
    let ok = 0;
    let errors = 0;
    let inFlight = 0;
    let firstError: string | undefined;
    const running: Promise<void>[] = [];
    const begin = performance.now();
    for (let i = 0; i < count; i++) {
      // Open loop: wait for this upload's scheduled start, not for the previous upload.
      const due = begin + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (inFlight >= MAX_IN_FLIGHT) {
        errors++;
        firstError ??= `more than ${MAX_IN_FLIGHT} uploads in flight`;
        continue;
      }
      inFlight++;
      running.push(
        oneUpload(rate * 100_000 + i)
          .then((times) => {
            ok++;
            for (const part of PARTS) samples[part].push(times[part]!);
          })
          .catch((error: unknown) => {
            errors++;
            firstError ??= (error as Error).message;
          })
          .finally(() => inFlight--),
      );
    }
    await Promise.all(running);
    const seconds = (performance.now() - begin) / 1000;
    const p50 = {} as Record<Part, number>;
    const p99 = {} as Record<Part, number>;
    for (const part of PARTS) {
      const sorted = samples[part].sort((a, b) => a - b);
      p50[part] = quantile(sorted, 0.5);
      p99[part] = quantile(sorted, 0.99);
    }
    return { rate, started: count, ok, errors, seconds, p50, p99, ...(firstError ? { firstError } : {}) };
  }

  // Warm up: handler imports, JIT, connections.
  for (let i = 0; i < 10; i++) await oneUpload(i);

  console.log(`local stack (${cpus().length} CPUs, DynamoDB Local in memory); steps of ${STEP_SECONDS} s, at most ${MAX_PER_STEP} uploads\n`);
  const results: StepResult[] = [];
  for (const rate of RATES) {
    const result = await step(rate);
    results.push(result);
    const errorRate = result.errors / result.started;
    console.log(`${rate}/s: ${result.ok}/${result.started} ok in ${result.seconds.toFixed(1)} s${result.firstError ? ` (first error: ${result.firstError})` : ""}`);
    // Far past breaking: stop rather than load the shared machine for nothing.
    if (errorRate > 0.2) break;
  }

  const fmt = (n: number) => (Number.isNaN(n) ? "-" : n.toFixed(0));
  const head = ["uploads/s", "done/s", "errors", ...PARTS.flatMap((p) => [`${p} p50`, `${p} p99`])];
  const rows = results.map((r) => [
    String(r.rate),
    (r.ok / r.seconds).toFixed(1),
    `${((100 * r.errors) / r.started).toFixed(1)} %`,
    ...PARTS.flatMap((p) => [fmt(r.p50[p]), fmt(r.p99[p])]),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  console.log(`\n${line(head)}   (ms)`);
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));

  const first = results[0]!;
  const broken = (r: StepResult) => r.errors / r.started > ERROR_BREAK || r.p99.total > LATENCY_BREAK * first.p99.total;
  const breaking = results.find(broken);
  if (breaking) {
    const why = breaking.errors / breaking.started > ERROR_BREAK ? `errors ${((100 * breaking.errors) / breaking.started).toFixed(1)} % > 1 %` : `p99 ${fmt(breaking.p99.total)} ms > ${LATENCY_BREAK}× the first step's ${fmt(first.p99.total)} ms`;
    // Saturation shows as queueing: the part whose median grew most in milliseconds is the one
    // requests wait on (a ratio would flatter a part that starts at a few ms, like the PUT).
    const growth = (["presign", "put", "complete"] as const)
      .map((part) => ({ part, added: breaking.p50[part] - first.p50[part], factor: breaking.p99[part] / first.p99[part] }))
      .filter((g) => Number.isFinite(g.added))
      .sort((a, b) => b.added - a.added);
    console.log(`\nbreaks at ${breaking.rate} uploads/s: ${why}`);
    const describe = (g: (typeof growth)[number]) => `${g.part} p50 +${fmt(g.added)} ms (p99 ×${g.factor.toFixed(1)})`;
    if (growth[0]) console.log(`saturated first: ${describe(growth[0])}; then ${growth.slice(1).map(describe).join(", ")}`);
  } else {
    console.log(`\nno break up to ${results.at(-1)!.rate} uploads/s (p99 ≤ ${LATENCY_BREAK}× the first step's, errors ≤ 1 %)`);
  }
  const atTarget = results.find((r) => r.rate >= TARGET_RATE);
  const pass = atTarget !== undefined && !broken(atTarget);
  console.log(
    `target: 1,000 uploads/min (${TARGET_RATE.toFixed(1)}/s) held at the ${atTarget?.rate ?? "-"}/s step: ${pass ? "PASS" : "FAIL"}` +
      " (on the local stack: one Node process, DynamoDB Local, a local object store on this machine, not AWS; docs/deploy.md models API Gateway, Lambda and DynamoDB)",
  );
  client.destroy();
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
