import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LocalStackInfo } from "../../packages/local/src/local-stack";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");

export interface StackProcess {
  info: LocalStackInfo;
  /** The stack's process (what `npm start` runs: packages/local/src/start.ts). */
  pid: number;
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Spawns start.ts as `npm start` does: on free ports (PORT=0) and the caller's data dir. */
export function spawnStack(dataDir: string, env: Record<string, string> = {}) {
  // HANGAR_STACK_CPU_PROF=<dir> writes the stack's CPU profile there when it exits (a bench's
  // server side; NODE_OPTIONS may not carry --cpu-prof).
  const profile = process.env.HANGAR_STACK_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.HANGAR_STACK_CPU_PROF}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, "--import", "tsx", "packages/local/src/start.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: "0", HANGAR_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, output: () => output, exited };
}

/** Runs start.ts until it exits by itself (a stack that refuses to start); its code and output. */
export async function runStackUntilExit(dataDir: string, env: Record<string, string> = {}) {
  const { child, output, exited } = spawnStack(dataDir, env);
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, output: output() };
}

/**
 * Runs the stack exactly as `npm start` does (same entry point, in its own process), on free
 * ports and a data dir of the caller's, and waits for it to publish stack.json.
 */
export async function startStackProcess(dataDir: string, env: Record<string, string> = {}): Promise<StackProcess> {
  const infoFile = join(dataDir, "stack.json");
  rmSync(infoFile, { force: true });
  const { child, output, exited } = spawnStack(dataDir, env);

  const deadline = Date.now() + 180_000;
  // stack.json is written by the stack process itself (a leftover file was removed above), just
  // before it prints its banner; the banner's last line is what a person waits for, so wait for
  // both (the pipe may deliver the banner after the file exists).
  while (!existsSync(infoFile) || !output().includes("Hangar is running at ")) {
    if (child.exitCode !== null) throw new Error(`local stack exited with ${child.exitCode}:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`local stack did not start within 180 s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const info = JSON.parse(readFileSync(infoFile, "utf8")) as LocalStackInfo;
  return {
    info,
    pid: child.pid!,
    output,
    exited,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}
