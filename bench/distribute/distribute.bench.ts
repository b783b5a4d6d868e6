/**
 * npm run bench:distribute — one build sent to a group of 1,000 testers on the local stack, its
 * mails caught by the stack's MailDev (issue 20 item 4; docs/testers.md "Distribution and build
 * mail"). BENCH_RUNS runs (default 3), each a new build of the same project:
 *
 * - the request: `POST /api/files/{fileId}/distribute` until its 202, p50 over the runs, beside
 *   the p50 of a bare DynamoDB Local GetItem sampled in the same process (the unit the other
 *   benches use). The request writes ~2,000 items (1,000 conditional recipient puts, 24 at once,
 *   and their install links in batches of 25) plus ~30 batched reads: at least ~100 sequential
 *   round trips' worth of work. Target: p50 ≤ 1,000× the GetItem p50 (on this machine a GetItem is
 *   ~1–2 ms, so about a second) — "answers at once", whatever the number of testers;
 * - the sender: mails per second from the 202 until MailDev holds all 1,000 (each run's mails
 *   are cleared first). The stack sends at HANGAR_BUILD_MAIL_PER_SECOND = BENCH_MAIL_RATE
 *   (default 50/s; SES's production quota is 14). Target: ≥ 90 % of that rate, every mail
 *   delivered exactly once (1,000 distinct recipients, no duplicate).
 *
 * Loopback only; in-memory DynamoDB Local. The workspace's daily cap is raised for the run
 * (HANGAR_RATE_RULES) so three runs of 1,000 fit.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { personalWorkspaceId } from "@hangar/core";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, startStackProcess } from "../../test/support/local-stack-process";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RATE = Number(process.env.BENCH_MAIL_RATE ?? 50);
const TESTERS = 1000;
const REQUEST_RATIO_TARGET = 1000;
const RATE_TARGET = 0.9;

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dataDir = mkdtempSync(join(tmpdir(), "hangar-bench-distribute-"));
const stack = await startStackProcess(dataDir, {
  HANGAR_RATE_LIMIT: "1000000",
  HANGAR_DYNAMODB_IN_MEMORY: "1",
  HANGAR_BUILD_MAIL_PER_SECOND: String(RATE),
  HANGAR_RATE_RULES: "buildMailPerWorkspace=100000/86400",
});
let failed = false;
try {
  const { info } = stack;
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials }));

  // An account, verified in the table (the sign-up mail is not what is measured), signed in.
  const email = `bench-${Date.now()}@hangar.test`;
  const password = "bench password for distribute";
  const dashboard = { Origin: info.baseUrl, "Content-Type": "application/json" };
  const signUp = await fetch(`${info.baseUrl}/api/account/sign-up`, { method: "POST", headers: dashboard, body: JSON.stringify({ email, password }) });
  if (signUp.status !== 202) throw new Error(`sign-up ${signUp.status}`);
  const { Item: link } = await db.send(new GetCommand({ TableName: info.tableName, Key: { pk: `EMAIL#${email}`, sk: "EMAIL" } }));
  const userId = link!.userId as string;
  await db.send(new UpdateCommand({ TableName: info.tableName, Key: { pk: `USER#${userId}`, sk: "USER" }, UpdateExpression: "SET emailVerified = :t", ExpressionAttributeValues: { ":t": true } }));
  const signIn = await fetch(`${info.baseUrl}/api/session`, { method: "POST", headers: dashboard, body: JSON.stringify({ email, password }) });
  if (signIn.status !== 200) throw new Error(`sign-in ${signIn.status}`);
  const session = { ...dashboard, Cookie: signIn.headers.getSetCookie()[0]!.split(";")[0]! };
  const project = (await (await fetch(`${info.baseUrl}/api/projects`, { method: "POST", headers: session, body: JSON.stringify({ name: "Distribute", color: "blue" }) })).json()) as { projectId: string };
  const key = (await (await fetch(`${info.baseUrl}/api/keys`, { method: "POST", headers: session, body: JSON.stringify({ name: "bench", projectId: project.projectId }) })).json()) as { clientId: string; clientSecret: string };

  // The group: 1,000 testers, in the items' format of docs/data-model.md.
  const workspaceId = personalWorkspaceId(userId);
  const groupId = "grp_BenchDistribute01";
  const at = new Date().toISOString();
  const testers = Array.from({ length: TESTERS }, (_, i) => `tester-${i}@bench.test`);
  const items: Record<string, unknown>[] = [
    { pk: `WORKSPACE#${workspaceId}`, sk: `GROUP#${groupId}`, type: "group", groupId, workspaceId, name: "Bench", testerCount: TESTERS, createdAt: at, createdBy: userId },
    { pk: `WORKSPACE#${workspaceId}`, sk: "GROUPNAME#bench", type: "groupName", groupId, workspaceId },
    ...testers.map((t) => ({ pk: `GROUP#${groupId}`, sk: `TESTER#${t}`, type: "groupTester", groupId, workspaceId, email: t, addedAt: at, source: "added", addedBy: userId, gsi1pk: `TESTER#${t}`, gsi1sk: `GROUP#${groupId}` })),
  ];
  for (let i = 0; i < items.length; i += 25) {
    await db.send(new BatchWriteCommand({ RequestItems: { [info.tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }

  const ipaDir = join(REPO_ROOT, "packages/inspect/fixtures/ipa");
  const ipa = new Uint8Array(readFileSync(join(ipaDir, readdirSync(ipaDir).filter((f) => f.endsWith(".ipa")).sort()[0]!)));
  const upload = async (n: number): Promise<string> => {
    const h = { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" };
    const declared = { fileName: `Bench-${n}.ipa`, fileSize: ipa.length, fileType: "application/octet-stream" };
    const p = (await (await fetch(`${info.baseUrl}/api/upload/api-key/presign`, { method: "POST", headers: h, body: JSON.stringify(declared) })).json()) as { key: string; uploadUrl: string };
    await fetch(p.uploadUrl, { method: "PUT", body: ipa, headers: { "Content-Type": "application/octet-stream" } });
    const c = (await (await fetch(`${info.baseUrl}/api/upload/api-key/complete`, { method: "POST", headers: h, body: JSON.stringify({ ...declared, key: p.key }) })).json()) as { fileId: string };
    return c.fileId;
  };

  // The baseline: a GetItem on the same DynamoDB Local, warmed up.
  const getItem = async () => {
    const t = performance.now();
    await db.send(new GetCommand({ TableName: info.tableName, Key: { pk: `USER#${userId}`, sk: "USER" } }));
    return performance.now() - t;
  };
  for (let i = 0; i < 50; i++) await getItem();
  const getItems: number[] = [];

  const mailCount = async (): Promise<{ total: number; distinct: number }> => {
    const all = (await (await fetch(`${info.mailUrl}/api/email`)).json()) as { to: { address: string }[]; subject: string }[];
    const build = all.filter((m) => m.subject.startsWith("New build:"));
    return { total: build.length, distinct: new Set(build.map((m) => m.to[0]!.address)).size };
  };

  // A warm-up distribution of 10 explicit testers: handler imports, the stage secrets, the sender.
  const warm = await upload(0);
  await fetch(`${info.baseUrl}/api/files/${warm}/distribute`, { method: "POST", headers: session, body: JSON.stringify({ testers: testers.slice(0, 10) }) });
  await new Promise((resolve) => setTimeout(resolve, 2000));

  const requests: number[] = [];
  const rates: number[] = [];
  let exact = true;
  for (let run = 1; run <= RUNS; run++) {
    const fileId = await upload(run);
    await fetch(`${info.mailUrl}/api/email/all`, { method: "DELETE" });
    for (let i = 0; i < 20; i++) getItems.push(await getItem());
    const t0 = performance.now();
    const res = await fetch(`${info.baseUrl}/api/files/${fileId}/distribute`, { method: "POST", headers: session, body: JSON.stringify({ groups: ["Bench"], message: "Bench run" }) });
    const requestMs = performance.now() - t0;
    const answer = (await res.json()) as { recipients: number; queued: number };
    if (res.status !== 202 || answer.queued !== TESTERS) throw new Error(`distribute ${res.status} ${JSON.stringify(answer)}`);
    let count = { total: 0, distinct: 0 };
    while (count.total < TESTERS) {
      if (performance.now() - t0 > (TESTERS / RATE) * 1000 * 5 + 30_000) throw new Error(`only ${count.total} mails arrived`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      count = await mailCount();
    }
    const seconds = (performance.now() - t0) / 1000;
    // A moment more: a duplicate would arrive after the last expected mail.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    count = await mailCount();
    exact &&= count.total === TESTERS && count.distinct === TESTERS;
    requests.push(requestMs);
    rates.push(TESTERS / seconds);
    console.log(`run ${run}: request ${requestMs.toFixed(0)} ms (202, ${answer.queued} queued); ${count.total} mails (${count.distinct} distinct) in ${seconds.toFixed(1)} s = ${(TESTERS / seconds).toFixed(1)} mails/s`);
  }

  const requestP50 = median(requests);
  const getItemP50 = median(getItems);
  const ratio = requestP50 / getItemP50;
  const rate = median(rates);
  const requestOk = ratio <= REQUEST_RATIO_TARGET;
  const rateOk = rate >= RATE_TARGET * RATE;
  console.log("");
  // Both targets assume the machine is not busy with other work: the stack's one Node process sends, renders and catches every mail.
  console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.log(`DynamoDB Local GetItem p50: ${getItemP50.toFixed(2)} ms`);
  console.log(`distribute to ${TESTERS} testers, request p50: ${requestP50.toFixed(0)} ms = ${ratio.toFixed(0)}× GetItem (target ≤ ${REQUEST_RATIO_TARGET}×): ${verdict(requestOk)}`);
  console.log(`sender: ${rate.toFixed(1)} mails/s at HANGAR_BUILD_MAIL_PER_SECOND=${RATE} (target ≥ ${(RATE_TARGET * RATE).toFixed(0)}/s): ${verdict(rateOk)}`);
  console.log(`every mail delivered exactly once (${TESTERS} distinct, no duplicate) in every run: ${verdict(exact)}`);
  failed = !(requestOk && rateOk && exact);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
