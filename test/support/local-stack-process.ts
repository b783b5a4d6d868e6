import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LocalStackInfo } from "../../packages/local/src/local-stack";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");

export interface StackProcess {
  info: LocalStackInfo;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Runs the stack exactly as `npm start` does (same entry point, in its own process), on free
 * ports and a data dir of the caller's, and waits for it to publish stack.json.
 */
export async function startStackProcess(dataDir: string, env: Record<string, string> = {}): Promise<StackProcess> {
  const infoFile = join(dataDir, "stack.json");
  rmSync(infoFile, { force: true });
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "packages/local/src/start.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: "0", HANGAR_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));

  const deadline = Date.now() + 120_000;
  while (!existsSync(infoFile)) {
    if (child.exitCode !== null) throw new Error(`local stack exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`local stack did not start within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const info = JSON.parse(readFileSync(infoFile, "utf8")) as LocalStackInfo;
  return {
    info,
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}
