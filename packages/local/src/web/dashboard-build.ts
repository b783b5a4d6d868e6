import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "../process/process-table";

/**
 * `npm start` serves the dashboard from packages/web/dist and builds it first when the build is
 * missing or older than its sources, so a fresh clone (or a pull) needs no extra command.
 *
 * A failed build stops the stack (DashboardBuildError, with the build's own output): serving
 * the previous build instead would run an old dashboard in silence, as once happened when a
 * merge broke the stylesheet and the local stack and the browser tests ran yesterday's app.
 *
 * Several stacks may start at once (parallel test runs), and each may serve the folder while
 * another rebuilds it: builds are serialised by a lock file, and each writes to a folder of its
 * own that then replaces dist/ by rename, so a reader never sees a half-written or empty build.
 */

export interface DashboardBuildOptions {
  /** packages/web */
  webDir: string;
  log: (line: string) => void;
}

/**
 * The build's inputs: what vite reads, including the workspace packages the app bundles (core's
 * shared schemas and formatters, the extractor the upload panel runs). Without these, a change to
 * an imported schema or to the extractor left the previous build in place: the local stack and
 * the browser tests ran the app against sources that had moved on.
 */
const INPUTS = ["src", "public", "index.html", "vite.config.ts", "tsconfig.json", "package.json", "../core/src", "../inspect/src"];

function newestMtime(path: string): number {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Why the build must run, or undefined when dist/ is up to date. */
export function dashboardBuildReason(webDir: string): string | undefined {
  const built = join(webDir, "dist", "index.html");
  if (!existsSync(built)) return "no build yet";
  const sources = Math.max(...INPUTS.map((input) => newestMtime(join(webDir, input))));
  return sources > statSync(built).mtimeMs ? "sources changed since the last build" : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for (or takes) packages/web/.build/lock; a lock whose process is gone is taken over. */
async function takeBuildLock(buildDir: string, log: (line: string) => void): Promise<() => void> {
  const lock = join(buildDir, "lock");
  let announced = false;
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(lock, "utf8").trim());
    } catch {
      continue; // removed meanwhile
    }
    if (!isAlive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (!announced) log(`Waiting for another dashboard build (pid ${holder})…`);
    announced = true;
    await sleep(500);
  }
  throw new Error("gave up waiting for another dashboard build");
}

function runBuild(webDir: string, outDir: string): Promise<{ ok: boolean; output: string }> {
  return new Promise((done) => {
    // The package's own build (type check, then vite), writing to a folder of our own.
    const child = spawn("npm", ["run", "build", "--silent", "--", "--outDir", outDir, "--emptyOutDir"], {
      cwd: webDir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    let output = "";
    const collect = (d: Buffer) => {
      output = (output + d.toString()).slice(-8000);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => done({ ok: false, output: String(error) }));
    child.on("close", (code) => done({ ok: code === 0, output }));
  });
}

/** The dashboard's build failed; `output` is the end of what it printed (the type or vite error). */
export class DashboardBuildError extends Error {
  constructor(
    readonly webDir: string,
    readonly output: string,
  ) {
    super(`the dashboard build failed (${webDir}: npm run build)`);
    this.name = "DashboardBuildError";
  }
}

/** The last lines of a build's output: where tsc and vite put the error. */
const tail = (output: string) => output.trim().split("\n").slice(-40).join("\n");

/**
 * Builds the dashboard when needed; a fresh build is only a look at file times. Without
 * packages/web (a checkout of the API alone) there is nothing to serve and the stack shows a
 * page that says so. A failed build throws DashboardBuildError and leaves dist/ as it was.
 * Returns the folder to serve.
 */
export async function ensureDashboardBuilt({ webDir, log }: DashboardBuildOptions): Promise<string | undefined> {
  const dist = join(webDir, "dist");
  if (!existsSync(join(webDir, "package.json"))) return undefined;
  if (dashboardBuildReason(webDir) === undefined) return dist;

  const buildDir = join(webDir, ".build");
  mkdirSync(buildDir, { recursive: true });
  const release = await takeBuildLock(buildDir, log);
  try {
    // Another stack may have built it while we waited for the lock.
    const reason = dashboardBuildReason(webDir);
    if (reason === undefined) return dist;
    log(`Building the dashboard (${reason})…`);
    const outDir = join(buildDir, `out-${process.pid}`);
    rmSync(outDir, { recursive: true, force: true });
    const result = await runBuild(webDir, outDir);
    if (!result.ok || !existsSync(join(outDir, "index.html"))) {
      rmSync(outDir, { recursive: true, force: true });
      throw new DashboardBuildError(webDir, tail(result.ok ? `${result.output}\nThe build wrote no index.html.` : result.output));
    }
    const old = join(buildDir, `old-${process.pid}`);
    rmSync(old, { recursive: true, force: true });
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(outDir, dist);
    rmSync(old, { recursive: true, force: true });
    log("Dashboard built.");
    return dist;
  } finally {
    release();
  }
}
