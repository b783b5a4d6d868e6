/**
 * npm run bench:api — presign and complete on the local stack under 1, 8 and 32 concurrent
 * clients (p50/p99 latency, requests/s), beside the p50 of a bare DynamoDB Local GetItem
 * measured in the same run. Presign's hot path is two sequential storage round trips
 * ((key lookup ‖ counter update) → pending record), so its target is p50 ≤ 2.5× that GetItem,
 * and within 1.3× of the same storage work done directly (its floor).
 * Then sign-in (POST /api/session) beside one scrypt hash computed in this process: the hash is
 * sign-in's cost, and the table shows how much of it.
 * Then the dashboard: the first page (and a cursor page) of a project holding 10,000 files, and
 * presign with per-key usage counting against a second stack with HANGAR_USAGE_COUNTING=off, in
 * alternating rounds (target: counting adds at most 10 % to presign's p50).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ScryptPasswordHasher } from "@hangar/core/accounts";
import { mintApiKey } from "@hangar/local";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, startStackProcess } from "../../test/support/local-stack-process";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const PER_LEVEL = Number(process.env.BENCH_REQUESTS ?? 400);
const LEVELS = [1, 8, 32];

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measure(concurrency: number, total: number, op: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await op(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), rps: total / seconds };
}

const dataDir = mkdtempSync(join(tmpdir(), "hangar-bench-api-"));
// DynamoDB Local in memory: on disk every write is a SQLite commit, far slower than a DynamoDB
// write and than the GetItem baseline; BENCH_DYNAMODB_DISK=1 measures that mode instead.
const onDisk = process.env.BENCH_DYNAMODB_DISK === "1";
const stack = await startStackProcess(dataDir, {
  HANGAR_RATE_LIMIT: "1000000",
  // Sign-in requests name their client, so the per-address sign-in limit does not cut the run short.
  HANGAR_CLIENT_IP_HEADER: "x-bench-client-ip",
  ...(onDisk ? {} : { HANGAR_DYNAMODB_IN_MEMORY: "1" }),
});
console.log(`DynamoDB Local ${onDisk ? "on disk (SQLite)" : "in memory"}; ${PER_LEVEL} requests per level\n`);
let usageVerdict = "";
let floorVerdict = "";
try {
  const { info } = stack;
  const client = new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials });
  const db = DynamoDBDocumentClient.from(client);
  const key = await mintApiKey(db, info.tableName, { email: "bench@hangar.test", projectName: "bench" });
  const headers = { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${info.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const json = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  const ipaDir = join(REPO_ROOT, "packages/inspect/fixtures/ipa");
  const ipaName = readdirSync(ipaDir).filter((f) => f.endsWith(".ipa")).sort()[0]!;
  const ipa = new Uint8Array(readFileSync(join(ipaDir, ipaName)));
  const declared = { fileName: ipaName, fileSize: ipa.length, fileType: "application/octet-stream" };

  // Warm up: JIT, handler imports, SDK connections.
  for (let i = 0; i < 30; i++) {
    await db.send(new GetCommand({ TableName: info.tableName, Key: { pk: `APIKEY#${key.clientId}`, sk: "APIKEY" } }));
    await post("/api/upload/api-key/presign", declared);
  }

  const rows: string[][] = [];
  const baseline = await measure(1, PER_LEVEL, async () => {
    await db.send(new GetCommand({ TableName: info.tableName, Key: { pk: `APIKEY#${key.clientId}`, sk: "APIKEY" } }));
  });
  rows.push(["DynamoDB Local GetItem (baseline)", "1", baseline.p50.toFixed(2), baseline.p99.toFixed(2), baseline.rps.toFixed(0), "1.00×"]);
  // Presign's storage work done directly, without HTTP or handlers: its floor on this machine.
  // DynamoDB Local writes go to SQLite on disk, so writes cost more than the GetItem baseline.
  let n = 0;
  const floor = await measure(1, PER_LEVEL, async () => {
    const pk = `BENCH#${n++}`;
    await Promise.all([
      db.send(new GetCommand({ TableName: info.tableName, Key: { pk: `APIKEY#${key.clientId}`, sk: "APIKEY" } })),
      db.send(
        new UpdateCommand({
          TableName: info.tableName,
          Key: { pk: "BENCHRATE", sk: "W" },
          UpdateExpression: "ADD #c :one",
          ExpressionAttributeNames: { "#c": "count" },
          ExpressionAttributeValues: { ":one": 1 },
        }),
      ),
    ]);
    await db.send(new PutCommand({ TableName: info.tableName, Item: { pk, sk: "FILE", ttl: 1 }, ConditionExpression: "attribute_not_exists(pk)" }));
  });
  rows.push(["storage floor: (GetItem ‖ UpdateItem) → PutItem", "1", floor.p50.toFixed(2), floor.p99.toFixed(2), floor.rps.toFixed(0), `${(floor.p50 / baseline.p50).toFixed(2)}×`]);

  // HTTP, event translation and the middy stack with no storage at all: the fixed overhead.
  const bare = await measure(1, PER_LEVEL, async () => {
    await (await fetch(`${info.baseUrl}/bench/none`)).arrayBuffer();
  });
  rows.push(["unknown route → JSON 404 (no storage)", "1", bare.p50.toFixed(2), bare.p99.toFixed(2), bare.rps.toFixed(0), `${(bare.p50 / baseline.p50).toFixed(2)}×`]);

  for (const c of LEVELS) {
    const r = await measure(c, PER_LEVEL, async () => {
      await post("/api/upload/api-key/presign", declared);
    });
    rows.push(["presign", String(c), r.p50.toFixed(2), r.p99.toFixed(2), r.rps.toFixed(0), `${(r.p50 / baseline.p50).toFixed(2)}×`]);
    // Authentication adds no round trip: the rate counter of the presented secret is updated beside
    // the key lookup (a wrong secret counts on its own counter), so presign stays near its floor.
    if (c === 1) {
      const ratio = r.p50 / floor.p50;
      floorVerdict = `presign p50 = ${ratio.toFixed(2)}× its storage floor (target within 1.3×): ${ratio <= 1.3 ? "PASS" : "FAIL"}`;
    }
  }

  for (const c of LEVELS) {
    const n = Math.max(50, Math.floor(PER_LEVEL / 4));
    const ready: { key: string }[] = [];
    for (let i = 0; i < n; i++) {
      const p = await post("/api/upload/api-key/presign", declared);
      const put = await fetch(p.uploadUrl, { method: "PUT", body: ipa, headers: { "Content-Type": "application/octet-stream" } });
      if (put.status !== 200) throw new Error(`PUT ${put.status}`);
      ready.push({ key: p.key });
    }
    const r = await measure(c, n, async (i) => {
      await post("/api/upload/api-key/complete", { ...declared, key: ready[i]!.key });
    });
    rows.push([`complete (${ipaName}, ${ipa.length} B)`, String(c), r.p50.toFixed(2), r.p99.toFixed(2), r.rps.toFixed(0), `${(r.p50 / baseline.p50).toFixed(2)}×`]);
  }

  // Sign-in: one scrypt hash (N=2^17, r=8, p=1) dominates it; the hash alone, in this process,
  // is measured beside it so its share is visible.
  const hasher = new ScryptPasswordHasher();
  const password = "bench password for sign-in";
  const stored = await hasher.hash(password);
  const hashTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await hasher.verify(password, stored);
    hashTimes.push(performance.now() - t);
  }
  hashTimes.sort((a, b) => a - b);
  rows.push(["one scrypt hash (N=2^17, r=8, p=1), in process", "1", quantile(hashTimes, 0.5).toFixed(2), quantile(hashTimes, 0.99).toFixed(2), "", ""]);
  const email = `bench-${Date.now()}@hangar.test`;
  const dashboard = { Origin: info.baseUrl, "Content-Type": "application/json" };
  const signUp = await fetch(`${info.baseUrl}/api/account/sign-up`, { method: "POST", headers: { ...dashboard, "x-bench-client-ip": "10.0.0.1" }, body: JSON.stringify({ email, password }) });
  if (signUp.status !== 202) throw new Error(`sign-up ${signUp.status}`);
  // Verified directly in the table: the mail round trip is not what is measured here.
  const { Item: link } = await db.send(new GetCommand({ TableName: info.tableName, Key: { pk: `EMAIL#${email}`, sk: "EMAIL" } }));
  await db.send(new UpdateCommand({ TableName: info.tableName, Key: { pk: `USER#${link!.userId}`, sk: "USER" }, UpdateExpression: "SET emailVerified = :t", ExpressionAttributeValues: { ":t": true } }));
  const logins = Number(process.env.BENCH_LOGINS ?? 20);
  const login = await measure(1, logins, async (i) => {
    const res = await fetch(`${info.baseUrl}/api/session`, { method: "POST", headers: { ...dashboard, "x-bench-client-ip": `10.1.${i >> 8}.${i & 255}` }, body: JSON.stringify({ email, password }) });
    if (res.status !== 200) throw new Error(`sign-in ${res.status} ${await res.text()}`);
  });
  rows.push(["POST /api/session (sign-in)", "1", login.p50.toFixed(2), login.p99.toFixed(2), login.rps.toFixed(1), `${(login.p50 / baseline.p50).toFixed(2)}×`]);
  // An unknown address must cost the same (a dummy hash), so its time does not reveal accounts.
  const unknown = await measure(1, logins, async (i) => {
    const res = await fetch(`${info.baseUrl}/api/session`, { method: "POST", headers: { ...dashboard, "x-bench-client-ip": `10.2.${i >> 8}.${i & 255}` }, body: JSON.stringify({ email: `nobody-${i}@hangar.test`, password }) });
    if (res.status !== 401) throw new Error(`unknown sign-in ${res.status}`);
  });
  rows.push(["POST /api/session, unknown address (401)", "1", unknown.p50.toFixed(2), unknown.p99.toFixed(2), unknown.rps.toFixed(1), `${(unknown.p50 / baseline.p50).toFixed(2)}×`]);

  // Dashboard: the first page of a project holding 10,000 files (one gsi1 Query with Limit).
  const signIn = await fetch(`${info.baseUrl}/api/session`, { method: "POST", headers: { ...dashboard, "x-bench-client-ip": "10.2.0.1" }, body: JSON.stringify({ email, password }) });
  const cookie = signIn.headers.getSetCookie()[0]!.split(";")[0]!;
  const session = { ...dashboard, Cookie: cookie };
  const created = await fetch(`${info.baseUrl}/api/projects`, { method: "POST", headers: session, body: JSON.stringify({ name: "Ten thousand", color: "blue" }) });
  const { projectId } = (await created.json()) as { projectId: string };
  const FILES = Number(process.env.BENCH_PROJECT_FILES ?? 10_000);
  const writes = Array.from({ length: FILES }, (_, i) => {
    const fileId = `fil_bench${String(i).padStart(11, "0")}`;
    const createdAt = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    return {
      PutRequest: {
        Item: {
          pk: `FILE#${fileId}`, sk: "FILE", type: "file", gsi1pk: `PROJECT#${projectId}`, gsi1sk: `FILE#${createdAt}#${fileId}`,
          fileId, projectId, key: `uploads/${projectId}/${fileId}/App.ipa`, clientId: key.clientId, fileName: "App.ipa",
          fileType: "application/octet-stream", fileSize: ipa.length, status: "completed", createdAt, userKey: `bench${String(i).padStart(7, "0")}`,
          metadata: JSON.stringify({ appName: "Bench", bundleId: "com.example.bench", version: "1.0", buildNumber: String(i), platform: "ios" }),
        },
      },
    };
  });
  for (let i = 0; i < writes.length; i += 25) {
    await db.send(new BatchWriteCommand({ RequestItems: { [info.tableName]: writes.slice(i, i + 25) } }));
  }
  const listPage = async (query: string) => {
    const res = await fetch(`${info.baseUrl}/api/projects/${projectId}/files?${query}`, { headers: session });
    const body = (await res.json()) as { items: unknown[]; nextCursor: string | null };
    if (res.status !== 200 || body.items.length === 0) throw new Error(`files ${res.status}`);
    return body;
  };
  for (let i = 0; i < 10; i++) await listPage("limit=25");
  const firstPage = await measure(1, Math.min(PER_LEVEL, 200), async () => {
    await listPage("limit=25");
  });
  rows.push([`project files, first page of 25 (${FILES} files)`, "1", firstPage.p50.toFixed(2), firstPage.p99.toFixed(2), firstPage.rps.toFixed(0), `${(firstPage.p50 / baseline.p50).toFixed(2)}×`]);
  const { nextCursor } = await listPage("limit=25");
  const secondPage = await measure(1, Math.min(PER_LEVEL, 200), async () => {
    await listPage(`limit=25&cursor=${encodeURIComponent(nextCursor!)}`);
  });
  rows.push([`project files, page 2 by cursor (${FILES} files)`, "1", secondPage.p50.toFixed(2), secondPage.p99.toFixed(2), secondPage.rps.toFixed(0), `${(secondPage.p50 / baseline.p50).toFixed(2)}×`]);

  // Usage counting's cost: presign on this stack (counting on) against a second stack started
  // with HANGAR_USAGE_COUNTING=off, in alternating rounds so drift of the machine hits both.
  const offDir = mkdtempSync(join(tmpdir(), "hangar-bench-api-off-"));
  const offStack = await startStackProcess(offDir, {
    HANGAR_RATE_LIMIT: "1000000",
    HANGAR_USAGE_COUNTING: "off",
    ...(onDisk ? {} : { HANGAR_DYNAMODB_IN_MEMORY: "1" }),
  });
  try {
    const offInfo = offStack.info;
    const offClient = new DynamoDBClient({ endpoint: offInfo.dynamoEndpoint, region: offInfo.region, credentials: offInfo.credentials });
    const offKey = await mintApiKey(DynamoDBDocumentClient.from(offClient), offInfo.tableName, { email: "bench@hangar.test", projectName: "bench" });
    const presignOn = () => post("/api/upload/api-key/presign", declared);
    const presignOff = async () => {
      const res = await fetch(`${offInfo.baseUrl}/api/upload/api-key/presign`, {
        method: "POST",
        headers: { "X-Client-ID": offKey.clientId, Authorization: `Bearer ${offKey.clientSecret}`, "Content-Type": "application/json" },
        body: JSON.stringify(declared),
      });
      if (res.status !== 200) throw new Error(`presign (counting off) ${res.status}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 30; i++) await presignOff();
    const on: number[] = [];
    const off: number[] = [];
    for (let round = 0; round < 4; round++) {
      off.push((await measure(1, Math.ceil(PER_LEVEL / 2), presignOff)).p50);
      on.push((await measure(1, Math.ceil(PER_LEVEL / 2), presignOn)).p50);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const onP50 = median(on);
    const offP50 = median(off);
    rows.push(["presign, usage counting off (second stack)", "1", offP50.toFixed(2), "", "", `${(offP50 / baseline.p50).toFixed(2)}×`]);
    rows.push(["presign, usage counting on (same rounds)", "1", onP50.toFixed(2), "", "", `${(onP50 / baseline.p50).toFixed(2)}×`]);
    usageVerdict = `presign p50 with usage counting = ${((onP50 / offP50 - 1) * 100).toFixed(1)} % over counting off (target within 10 %): ${
      onP50 <= offP50 * 1.1 ? "met" : "NOT met"
    }`;
    offClient.destroy();
  } finally {
    await offStack.stop();
    rmSync(offDir, { recursive: true, force: true });
  }

  const head = ["operation", "clients", "p50 ms", "p99 ms", "req/s", "p50 / GetItem p50"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
  const presign1 = Number(rows[3]![2]);
  console.log(
    `\npresign p50 at 1 client = ${(presign1 / baseline.p50).toFixed(2)}× the GetItem round trip (target ≤ 2.5×): ${
      presign1 <= 2.5 * baseline.p50 ? "met" : "NOT met"
    }`,
  );
  console.log(floorVerdict);
  console.log(usageVerdict);
  client.destroy();
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
