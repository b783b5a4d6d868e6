/**
 * The published `hangar-cli` package as a CI job gets it: packed with `npm pack`, installed from
 * the tarball, run by other Node versions; and a clean environment for running npm and recipes.
 * Used by test/cli-package.test.ts and test/ci-recipes.test.ts (whose recipes fetch the CLI from
 * the stack itself, with no registry).
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTypes } from "../../packages/cli/scripts/build";
import { REPO_ROOT } from "./local-stack-process";

const CLI_DIR = join(REPO_ROOT, "packages/cli");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program; never throws for a non-zero exit (the caller asserts on it). stdin is /dev/null
 * as in a CI step: bash skips $BASH_ENV when its stdin is a socket (it takes that for sshd).
 */
export function run(file: string, args: string[], options: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number }): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      done({ code: -1, stdout, stderr: `${stderr}\n${error.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stdout, stderr: signal ? `${stderr}\nkilled by ${signal}` : stderr });
    });
  });
}

/**
 * An environment with nothing of the developer's or of vitest's npm run (no npm_config_*, no
 * HANGAR_*): PATH and HOME, an npm cache of its own, no audit, fund or update checks.
 */
export function cleanEnv(npmCache: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    npm_config_cache: npmCache,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_loglevel: "error",
    ...extra,
  };
}

export interface PackedCli {
  /** Absolute path of hangar-cli-<version>.tgz. */
  tarball: string;
  version: string;
  cleanup(): void;
}

/**
 * `npm pack` of packages/cli, in a staging copy so parallel runs never touch the committed
 * dist (packages/cli/test/dist.test.ts proves that bundle equals the sources). With `types`,
 * the declarations are built as the package's prepack does.
 */
export async function packCli(options: { types: boolean }): Promise<PackedCli> {
  const staging = mkdtempSync(join(tmpdir(), "hangar-pack-"));
  cpSync(join(CLI_DIR, "package.json"), join(staging, "package.json"));
  if (existsSync(join(CLI_DIR, "README.md"))) cpSync(join(CLI_DIR, "README.md"), join(staging, "README.md"));
  cpSync(join(CLI_DIR, "dist"), join(staging, "dist"), { recursive: true, filter: (src) => !src.startsWith(join(CLI_DIR, "dist/types")) });
  if (options.types) buildTypes(join(staging, "dist"));
  const packed = await run("npm", ["pack", "--ignore-scripts", "--silent"], { cwd: staging, env: cleanEnv(join(staging, ".npm")) });
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const name = packed.stdout.trim().split("\n").at(-1)!;
  const version = JSON.parse(readFileSync(join(staging, "package.json"), "utf8")).version as string;
  return { tarball: join(staging, name), version, cleanup: () => rmSync(staging, { recursive: true, force: true }) };
}

/**
 * The `node` binary of an exact Node release, from the npm package that ships it
 * (node-<platform>-<arch>@<version>), kept under node_modules/.cache so a second run downloads
 * nothing. Needs the npm registry the first time.
 */
export async function nodeBinary(version: string): Promise<string> {
  const dir = join(REPO_ROOT, "node_modules/.cache/hangar-node", version);
  const bin = join(dir, "node");
  if (existsSync(bin)) return bin;
  const work = mkdtempSync(join(tmpdir(), "hangar-node-"));
  try {
    const spec = `node-${process.platform}-${process.arch}@${version}`;
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_update_notifier: "false", npm_config_loglevel: "error" };
    const packed = await run("npm", ["pack", spec, "--silent"], { cwd: work, env, timeoutMs: 300_000 });
    if (packed.code !== 0) throw new Error(`npm pack ${spec} failed: ${packed.stderr}`);
    const tgz = join(work, packed.stdout.trim().split("\n").at(-1)!);
    const untar = await run("tar", ["-xzf", tgz, "-C", work, "package/bin/node"], { cwd: work, env });
    if (untar.code !== 0) throw new Error(`cannot extract node from ${spec}: ${untar.stderr}`);
    mkdirSync(dir, { recursive: true });
    // Atomic: a parallel run either sees no binary or a whole one.
    renameSync(join(work, "package/bin/node"), bin);
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Node releases the package promises to run on (engines: >=18), as CI images carry them. */
export const NODE_VERSIONS = ["18.20.8", "20.20.2", "22.23.3"] as const;
