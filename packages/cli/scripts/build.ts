/**
 * Builds the publishable `hangar-cli` package into packages/cli/dist:
 * - dist/hangar.js (the bin) and dist/index.js (the HangarClient library), bundled by esbuild
 *   with @hangar/inspect inside, ESM, for Node 18+. Each command is its own chunk, loaded only
 *   when it runs, so `hangar --version` parses a few kB. Committed: the GitHub Action runs it
 *   straight from a checkout (test/cli-package.test.ts checks it matches the sources).
 * - dist/types/ (the library's declarations, by tsc; not committed, `npm pack` builds them).
 * No runtime dependency: the AWS SDK that @hangar/inspect's S3 reader imports is never reached
 * from the CLI, and the build fails if any of it ends up in the bundle.
 *
 * Usage: tsx packages/cli/scripts/build.ts [--out <dir>] [--no-types]
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

export const CLI_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(CLI_ROOT, "dist");

/**
 * `@hangar/inspect`'s index re-exports its S3 reader, which imports the SDK at module level.
 * Nothing the CLI runs uses it: declaring the SDK external and free of side effects lets esbuild
 * drop the import with the unused reader instead of bundling ~1 MB of SDK.
 */
const noAwsSdk: Plugin = {
  name: "no-aws-sdk",
  setup(b) {
    b.onResolve({ filter: /^@aws-sdk\// }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

const ZLIB_COMPAT = join(CLI_ROOT, "src/compat/zlib-compat.ts");

/** Node 18 lacks zlib.crc32: the bundle's node:zlib is src/compat/zlib-compat.ts (node:zlib plus a fallback). */
const zlibCompat: Plugin = {
  name: "zlib-compat",
  setup(b) {
    b.onResolve({ filter: /^(node:)?zlib$/ }, (args) => (args.importer === ZLIB_COMPAT ? { path: "node:zlib", external: true } : { path: ZLIB_COMPAT }));
  },
};

/** Every file under `dir`, relative to it, sorted (for comparing two builds). */
export function listFiles(dir: string, skip: (path: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const name of readdirSync(join(dir, sub)).sort()) {
      const path = sub ? `${sub}/${name}` : name;
      if (skip(path)) continue;
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  if (existsSync(dir)) walk("");
  return out;
}

export async function buildJs(outDir: string): Promise<void> {
  for (const file of listFiles(outDir, (p) => p === "types")) rmSync(join(outDir, file));
  await build({
    absWorkingDir: CLI_ROOT,
    entryPoints: { hangar: "src/bin.ts", index: "src/index.ts" },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node18",
    chunkNames: "chunks/[name]-[hash]",
    legalComments: "none",
    logLevel: "warning",
    plugins: [noAwsSdk, zlibCompat],
  });
  for (const file of listFiles(outDir, (p) => p === "types")) {
    const text = readFileSync(join(outDir, file), "utf8");
    if (text.includes("@aws-sdk")) throw new Error(`${file} refers to @aws-sdk: the CLI must not load the S3 SDK`);
    if (/\bimport\s*(?:[^"']*?from\s*)?["'](?!node:|\.)/.test(text)) throw new Error(`${file} imports a package: the CLI has no runtime dependencies`);
  }
}

/**
 * tsc's declarations keep the sources' extensionless specifiers ("./client"), which Node16/
 * NodeNext resolution rejects in an ESM package: point each at the .js (or /index.js) it names.
 */
function fixDeclarationSpecifiers(typesDir: string): void {
  for (const file of listFiles(typesDir).filter((f) => f.endsWith(".d.ts"))) {
    const path = join(typesDir, file);
    const here = dirname(path);
    const text = readFileSync(path, "utf8").replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)(["'])/g, (all, pre: string, spec: string, post: string) => {
      if (spec.endsWith(".js")) return all;
      if (existsSync(join(here, `${spec}.d.ts`))) return `${pre}${spec}.js${post}`;
      if (existsSync(join(here, spec, "index.d.ts"))) return `${pre}${spec}/index.js${post}`;
      throw new Error(`${file}: cannot resolve ${spec}`);
    });
    if (/from\s*["'](?!node:|\.)/.test(text)) throw new Error(`${file} refers to a package the published CLI does not depend on`);
    writeFileSync(path, text);
  }
}

export function buildTypes(outDir: string): void {
  const typesDir = join(outDir, "types");
  rmSync(typesDir, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(CLI_ROOT, "tsconfig.build.json"), "--outDir", typesDir], { stdio: "inherit" });
  fixDeclarationSpecifiers(typesDir);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf("--out");
  const outDir = outAt >= 0 ? resolve(args[outAt + 1]!) : DIST;
  await buildJs(outDir);
  if (!args.includes("--no-types")) buildTypes(outDir);
  console.log(`built ${relative(process.cwd(), outDir) || "."}: ${listFiles(outDir).join(", ")}`);
}
