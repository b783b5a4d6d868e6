/**
 * The CLI this deployment serves at `/cli/hangar-cli.tgz`: an npm-installable tarball of
 * packages/cli (package.json, README.md, the committed bundle in dist/), so that
 * `npx --yes "$HANGAR_URL/cli/hangar-cli.tgz" upload app.apk` works against any stage with no
 * package registry. The bundle has no dependencies (packages/cli/scripts/build.ts), so npx
 * installs the tarball and fetches nothing else.
 *
 * Built in memory at cold start from the committed files, not produced by a build step and
 * shipped as a binary: the committed dist is already checked fresh against the sources
 * (packages/cli/test/dist.test.ts), so there is no second artefact to forget to rebuild, and
 * `npm start` serves it with nothing to run first. Deterministic: entries sorted, fixed mtime
 * (npm pack's own, 1985-10-26), owner 0, fixed modes, and gzip (no file name, mtime 0), so one
 * set of files always gives the same bytes and the same ETag.
 *
 * What the package holds is what `npm pack` would put in it, minus what only the repository
 * needs: `scripts` (prepack builds from sources the tarball lacks) and `devDependencies`.
 * Type declarations are not committed, so the served package is the CLI, not the typed library.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface CliPackage {
  version: string;
  /** The gzipped tar, entries under `package/` as npm expects. */
  tarball: Buffer;
  /** A strong validator: the tarball's SHA-256. */
  etag: string;
}

/** npm pack's fixed mtime (1985-10-26T08:15:00Z), so packing the same files twice is byte-identical. */
const MTIME = 499162500;

/** Every file under `dir` (relative, sorted); `types/` is the library's declarations, never committed. */
function filesUnder(dir: string, sub = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, sub)).sort()) {
    const path = sub ? `${sub}/${name}` : name;
    if (path === "types") continue;
    if (statSync(join(dir, path)).isDirectory()) out.push(...filesUnder(dir, path));
    else out.push(path);
  }
  return out;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

/** One ustar header block (POSIX.1-1988): 512 bytes, names up to 100 (+155 prefix) bytes. */
function header(name: string, size: number, mode: number): Buffer {
  const block = Buffer.alloc(512);
  let prefix = "";
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf("/", 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (cut < 0 || Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155) throw new Error(`${name}: too long for a ustar entry`);
  }
  block.write(base, 0, 100, "utf8");
  block.write(octal(mode, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii"); // uid
  block.write(octal(0, 8), 116, "ascii"); // gid
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(MTIME, 12), 136, "ascii");
  block.write("        ", 148, "ascii"); // checksum field counts as spaces while summing
  block.write("0", 156, "ascii"); // regular file
  block.write("ustar\u000000", 257, "ascii");
  block.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

/** A tar of `entries` (in the order given), ended by two zero blocks. */
export function tar(entries: { name: string; data: Buffer; mode: number }[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry.name, entry.data.length, entry.mode), entry.data);
    const pad = (512 - (entry.data.length % 512)) % 512;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** The manifest as installed: no scripts to run, no development dependencies to resolve. */
function servedManifest(text: string): { version: string; json: string } {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  if (typeof manifest["version"] !== "string") throw new Error("packages/cli/package.json has no version");
  delete manifest["scripts"];
  delete manifest["devDependencies"];
  return { version: manifest["version"], json: `${JSON.stringify(manifest, null, 2)}\n` };
}

/** Packs `<root>/packages/cli` (package.json, README.md, dist/ without types/). */
export function packCli(root: string): CliPackage {
  const cliRoot = join(root, "packages/cli");
  const { version, json } = servedManifest(readFileSync(join(cliRoot, "package.json"), "utf8"));
  const entries = [
    { name: "package/package.json", data: Buffer.from(json), mode: 0o644 },
    { name: "package/README.md", data: readFileSync(join(cliRoot, "README.md")), mode: 0o644 },
    ...filesUnder(join(cliRoot, "dist")).map((file) => ({
      name: `package/dist/${file}`,
      data: readFileSync(join(cliRoot, "dist", file)),
      // The bin keeps its executable bit (npm sets it on install too, but a plain `tar -x` would not).
      mode: file === "hangar.js" ? 0o755 : 0o644,
    })),
  ];
  const tarball = gzipSync(tar(entries), { level: 9 });
  return { version, tarball, etag: `"${createHash("sha256").update(tarball).digest("base64url")}"` };
}

/** The files a function bundle needs for packCli (SST `copyFiles`, relative to the repo root). */
export const CLI_PACKAGE_FILES = ["packages/cli/package.json", "packages/cli/README.md", "packages/cli/dist"] as const;
