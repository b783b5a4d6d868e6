import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mintLocalApiKey } from "../packages/local/src/keys/mint-api-key";
import { portIsFree } from "../packages/local/src/local-stack";
import { runStackUntilExit, startStackProcess, type StackProcess } from "./support/local-stack-process";
import { stack } from "./support/api";

/**
 * What happens around a running stack: a second one on the same data directory, a stack killed
 * with SIGKILL, a JVM that hangs or dies, a busy port, a dashboard that does not build. (This
 * file starts its own stacks.)
 */
const dirs: string[] = [];
const running: StackProcess[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "hangar-safety-"));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const IN_MEMORY = { HANGAR_DYNAMODB_IN_MEMORY: "1" };
const jvmPid = (dataDir: string) => Number(readFileSync(join(dataDir, "dynamodb.pid"), "utf8"));

/** Alive and not a zombie (a killed orphan may stay a zombie until its new parent reaps it). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function start(dataDir: string, env: Record<string, string> = {}) {
  const s = await startStackProcess(dataDir, { ...IN_MEMORY, ...env });
  running.push(s);
  return s;
}

/** A request that needs DynamoDB: mint a key on the stack and presign with it. */
async function presignStatus(s: StackProcess) {
  const key = await mintLocalApiKey(s.info, { email: "safety@hangar.test", projectName: "safety" });
  const res = await fetch(`${s.info.baseUrl}/api/upload/api-key/presign`, {
    method: "POST",
    headers: { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ fileName: "a.apk", fileSize: 10, fileType: "application/vnd.android.package-archive" }),
  });
  await res.text();
  return res.status;
}

describe("one stack per data directory", () => {
  it("refuses a second stack on a directory in use, naming the process that holds it", async () => {
    const first = stack();
    const second = await runStackUntilExit(first.dataDir);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`another Hangar local stack (pid ${first.pid}) is using the data directory ${first.dataDir}`);
    expect(second.output).toContain("HANGAR_DATA_DIR");
    // The first one is untouched: its lock and its info are still there, and it still answers.
    expect(readFileSync(join(first.dataDir, "stack.lock"), "utf8").trim()).toBe(String(first.pid));
    expect(existsSync(join(first.dataDir, "stack.json"))).toBe(true);
    expect((await fetch(`${first.baseUrl}/api/nothing`)).status).toBe(404);
  }, 300_000);
});

describe("DynamoDB Local's JVM under a stack that dies or hangs", () => {
  it("leaves no JVM behind a SIGKILLed stack, stops one that hung, and exits non-zero when its JVM dies", async () => {
    const dataDir = newDir();

    // 1. kill -9 the stack: its JVM notices and exits by itself.
    const a = await start(dataDir);
    const jvmA = jvmPid(dataDir);
    expect(isRunning(jvmA)).toBe(true);
    process.kill(a.pid, "SIGKILL");
    await a.exited;
    await waitUntil(() => !isRunning(jvmA), `the JVM ${jvmA} of the killed stack has exited`);

    // 2. The stale lock of the killed stack does not block the next one.
    const b = await start(dataDir);
    expect(await presignStatus(b)).toBe(200);

    // 3. A JVM that cannot notice (hung: SIGSTOP) outlives its killed stack, on its port: the
    //    next start of this directory on the same port finds it by its pid file and command
    //    line, and stops it (instead of reusing it or calling the port busy).
    const jvmB = jvmPid(dataDir);
    const dynamoPort = new URL(b.info.dynamoEndpoint).port;
    process.kill(jvmB, "SIGSTOP");
    process.kill(b.pid, "SIGKILL");
    await b.exited;
    expect(isRunning(jvmB)).toBe(true);
    const c = await start(dataDir, { HANGAR_DYNAMODB_PORT: dynamoPort });
    expect(new URL(c.info.dynamoEndpoint).port).toBe(dynamoPort);
    expect(c.output()).toContain(`Stopping DynamoDB Local (pid ${jvmB}) left running by an earlier run of ${dataDir}`);
    expect(isRunning(jvmB)).toBe(false);
    const jvmC = jvmPid(dataDir);
    expect(jvmC).not.toBe(jvmB);
    expect(await presignStatus(c)).toBe(200);

    // 4. The JVM dies while the stack runs: the stack says so and exits non-zero (no silent 503s).
    process.kill(jvmC, "SIGKILL");
    expect(await c.exited).toBe(1);
    expect(c.output()).toMatch(new RegExp(`DynamoDB Local \\(pid ${jvmC}\\) exited unexpectedly \\(SIGKILL\\)`));
    expect(existsSync(join(dataDir, "stack.lock"))).toBe(false);
    expect(existsSync(join(dataDir, "stack.json"))).toBe(false);
  }, 900_000);
});

describe("a busy port", () => {
  it("names the port and suggests a PORT whose whole range is free", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((ok) => blocker.listen(0, "127.0.0.1", ok));
    const busy = (blocker.address() as { port: number }).port;
    try {
      const result = await runStackUntilExit(newDir(), { PORT: String(busy) });
      expect(result.code).toBe(1);
      expect(result.output).toContain(`port ${busy} (API) is in use`);
      const suggested = Number(/PORT=(\d+) npm start/.exec(result.output)?.[1]);
      expect(suggested).toBeGreaterThan(0);
      expect(suggested).not.toBe(busy);
      const range = [0, 1, 2, 3, 4].map((offset) => suggested + offset);
      expect(range).not.toContain(busy);
      expect(await Promise.all(range.map((port) => portIsFree("127.0.0.1", port)))).toEqual([true, true, true, true, true]);
    } finally {
      blocker.close();
    }
  }, 300_000);
});

describe("a dashboard that does not build", () => {
  it("refuses to start, with the build's error, instead of serving the previous build", async () => {
    // A stand-in dashboard package (HANGAR_WEB_DIR) with a previous build and newer sources whose
    // build fails as the real one did when a merge broke its stylesheet.
    const web = newDir();
    mkdirSync(join(web, "src"));
    mkdirSync(join(web, "dist"));
    writeFileSync(join(web, "dist", "index.html"), "<!doctype html><title>yesterday's dashboard</title>");
    writeFileSync(join(web, "package.json"), JSON.stringify({ name: "web-broken", private: true, scripts: { build: "node build.cjs" } }));
    writeFileSync(join(web, "build.cjs"), `console.error("[vite:css] Unexpected token Semicolon in src/styles/app.css:1200"); process.exit(1);\n`);
    writeFileSync(join(web, "src", "main.tsx"), "export {};\n");
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(web, "src", "main.tsx"), later, later);

    const dataDir = newDir();
    const result = await runStackUntilExit(dataDir, { HANGAR_WEB_DIR: web });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`Cannot start: the dashboard build failed (${web}: npm run build)`);
    expect(result.output).toContain("[vite:css] Unexpected token Semicolon in src/styles/app.css:1200");
    expect(result.output).toContain("npm run build:web");
    expect(result.output).not.toContain("Hangar is running at");
    expect(existsSync(join(dataDir, "stack.json"))).toBe(false);
    // The previous build is left as it was, for when the sources are fixed.
    expect(readFileSync(join(web, "dist", "index.html"), "utf8")).toContain("yesterday's dashboard");
  }, 300_000);
});

describe("access log", () => {
  it("finds a 4xx by the request id the client was given", async () => {
    const s = await start(newDir());
    const res = await fetch(`${s.info.baseUrl}/api/upload/api-key/presign?secret=do-not-log`, {
      method: "POST",
      headers: { Authorization: "Bearer not-a-real-secret-0123456789", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    const id = ((await res.json()) as { error: { requestId: string } }).error.requestId;
    expect(res.headers.get("x-request-id")).toBe(id);
    await waitUntil(() => s.output().includes(id), "the access log line is written", 10_000);
    const line = s.output().split("\n").find((l) => l.includes(id))!;
    expect(line).toMatch(new RegExp(`^POST /api/upload/api-key/presign 401 \\d+ms ${id.replace(/[+/=]/g, "\\$&")}$`));
    expect(s.output()).not.toContain("do-not-log");
    expect(s.output()).not.toContain("not-a-real-secret");
    await s.stop();
  }, 300_000);
});
