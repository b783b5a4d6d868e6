import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "../../../../..");
export const HANGAR_BIN = resolve(REPO_ROOT, "packages/cli/bin/hangar.js");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Called on each stderr chunk with everything so far (e.g. to send SIGINT at the right moment). */
  onStderr?: (soFar: string, child: ChildProcess) => void;
  timeoutMs?: number;
  /** Called once the process is started (e.g. to kill it when a file shows some progress). */
  onSpawn?: (child: ChildProcess) => void;
}

/**
 * Runs the real bin, `node packages/cli/bin/hangar.js …`, asynchronously (a fake server in the
 * test process must keep answering). Only the variables given are set, plus PATH/HOME, so the
 * developer's own HANGAR_* or GITHUB_OUTPUT cannot leak in.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [HANGAR_BIN, ...args], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    options.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
      options.onStderr?.(stderr, child);
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`hangar ${args.join(" ")} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

/**
 * An `onStderr` that sends `signal` once, shortly after stderr first shows `text` (with --verbose,
 * a step's label: the CLI is then inside that step).
 */
export function signalWhenStderrShows(text: string, signal: NodeJS.Signals): NonNullable<CliOptions["onStderr"]> {
  let sent = false;
  return (soFar, child) => {
    if (sent || !soFar.includes(text)) return;
    sent = true;
    setTimeout(() => child.kill(signal), 100);
  };
}

/** Parses the heredoc form GitHub's runner reads (`name<<DELIM\nvalue\nDELIM`). */
export function parseGithubOutput(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const [, name, delimiter] = m;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
    out[name!] = value.join("\n");
  }
  return out;
}
