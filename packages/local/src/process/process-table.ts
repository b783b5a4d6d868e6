import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * What the local stack needs to know about other processes: whether a pid still runs and what
 * command it runs (so a pid left in a file is only acted on when it is what we started, not an
 * unrelated process that reused the number). Linux reads /proc; elsewhere `ps` answers.
 */

/** True while the process exists and is not a zombie (a zombie holds no port and no lock). */
export function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat, after the parenthesised command name (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (macOS): kill(0) is the best answer there
  }
}

/** The process's arguments, or undefined when it is gone or cannot be read. */
export function commandLineOf(pid: number): string[] | undefined {
  if (!isAlive(pid)) return undefined;
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return raw.split("\0").filter(Boolean);
  } catch {
    const ps = spawnSync("ps", ["-o", "command=", "-p", String(pid)], { encoding: "utf8" });
    const line = ps.status === 0 ? ps.stdout.trim() : "";
    return line ? line.split(/\s+/) : undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/** SIGTERM (and SIGCONT, in case it is stopped), then SIGKILL if it has not gone within graceMs. */
export async function stopProcess(pid: number, graceMs = 5_000): Promise<boolean> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  signal("SIGCONT");
  if (await waitForExit(pid, graceMs)) return true;
  signal("SIGKILL");
  return waitForExit(pid, graceMs);
}
