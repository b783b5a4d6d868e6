import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "./process/process-table";

/** Two stacks on one data directory would share (and corrupt) its database and objects. */
export class StackLockedError extends Error {
  constructor(
    readonly holderPid: number,
    readonly lockPath: string,
    dataDir: string,
  ) {
    super(
      `another Hangar local stack (pid ${holderPid}) is using the data directory ${dataDir}. ` +
        `Stop it first, or give this one its own directory: HANGAR_DATA_DIR=<folder> npm start. ` +
        `(If pid ${holderPid} is not a Hangar stack, delete ${lockPath}.)`,
    );
    this.name = "StackLockedError";
  }
}

export interface StackLock {
  release(): void;
}

export const stackLockPath = (dataDir: string) => join(dataDir, "stack.lock");

function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes `<dataDir>/stack.lock` (created exclusively, holding our pid). A lock whose process is
 * gone (a stack killed with SIGKILL) is stale and taken over; a live one is refused with its pid.
 */
export function acquireStackLock(dataDir: string): StackLock {
  const path = stackLockPath(dataDir);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        // Only our own lock: never delete one a later stack took over.
        if (holderOf(path) === process.pid) rmSync(path, { force: true });
      };
      // process.exit() skips async cleanup; the lock must not outlive us even then.
      process.on("exit", release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = holderOf(path);
    if (holder !== undefined && isAlive(holder)) throw new StackLockedError(holder, path, dataDir);
    // Stale (its process is gone) or unreadable: remove it, unless someone replaced it meanwhile.
    if (holderOf(path) === holder) rmSync(path, { force: true });
  }
  throw new Error(`could not take the lock ${path}`);
}
