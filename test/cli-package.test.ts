import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packCli as packServedCli } from "../packages/functions/src/cli/cli-package";
import { newKey, stack } from "./support/api";
import { NODE_VERSIONS, cleanEnv, nodeBinary, packCli, run, type PackedCli } from "./support/cli-package";
import { REPO_ROOT } from "./support/local-stack-process";

/**
 * The package a CI job installs: `npm pack` → `npm i ./hangar-cli-<version>.tgz` in an empty
 * folder outside the repository, offline (it must have nothing to fetch), then `npx hangar`.
 */

const APK = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk");
const IPA = join(REPO_ROOT, "packages/inspect/fixtures/ipa/xml-plist.ipa");

let packed: PackedCli;
let work: string;
let project: string;
let npmCache: string;

beforeAll(async () => {
  packed = await packCli({ types: true });
  work = mkdtempSync(join(tmpdir(), "hangar-cli-install-"));
  project = join(work, "project");
  npmCache = join(work, "npm-cache");
  // An empty folder, as a CI job's: no package.json, nothing above it to resolve from.
  mkdirSync(project);
  const install = await run("npm", ["install", packed.tarball, "--offline", "--no-audit", "--no-fund"], { cwd: project, env: cleanEnv(npmCache) });
  if (install.code !== 0) throw new Error(`npm install of the tarball failed:\n${install.stdout}\n${install.stderr}`);
}, 180_000);

afterAll(() => {
  packed?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

const npx = (args: string[], env: Record<string, string> = {}) =>
  run("npx", ["--offline", "hangar", ...args], { cwd: project, env: cleanEnv(npmCache, env) });

describe("the packed hangar-cli", () => {
  it("is built code only: dist and package.json, no dependency, no @aws-sdk, types for the library", async () => {
    const listing = await run("tar", ["-tzf", packed.tarball], { cwd: work, env: cleanEnv(npmCache) });
    const files = listing.stdout.trim().split("\n").sort();
    expect(files).toContain("package/package.json");
    expect(files).toContain("package/dist/hangar.js");
    expect(files).toContain("package/dist/index.js");
    expect(files).toContain("package/dist/types/index.d.ts");
    expect(files.filter((f) => !/^package\/(dist\/.+\.(js|d\.ts)|package\.json|README\.md)$/.test(f))).toEqual([]);
    expect(files.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toBe(false);

    const installedDir = join(project, "node_modules/hangar-cli");
    const manifest = JSON.parse(readFileSync(join(installedDir, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(readdirSync(join(project, "node_modules")).filter((d) => !d.startsWith("."))).toEqual(["hangar-cli"]);
    for (const file of files.filter((f) => f.endsWith(".js"))) {
      expect(readFileSync(join(installedDir, file.slice("package/".length)), "utf8"), file).not.toContain("@aws-sdk");
    }
  });

  it("npx hangar --version prints the package's version", async () => {
    const version = await npx(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: `${packed.version}\n` });
  });

  it("npx hangar inspect reads an APK and an IPA; a broken package exits 6", async () => {
    const apk = await npx(["inspect", APK]);
    expect(apk.code).toBe(0);
    expect(apk.stdout).toContain("Literal App — ünïcödé (com.hangar.literal)");
    const ipa = await npx(["inspect", IPA, "--json"]);
    expect(ipa.code).toBe(0);
    expect(JSON.parse(ipa.stdout)).toMatchObject({ appName: "Demo App", bundleId: "com.example.demo", version: "1.4.2" });

    const broken = join(work, "broken.apk");
    writeFileSync(broken, "not a zip");
    expect((await npx(["inspect", broken])).code).toBe(6);
  });

  it("npx hangar upload sends an APK to the local stack; the download serves the same bytes", async () => {
    const key = await newKey();
    const upload = await npx(["upload", APK, "--json"], {
      HANGAR_URL: stack().baseUrl,
      HANGAR_CLIENT_ID: key.clientId,
      HANGAR_CLIENT_SECRET: key.clientSecret,
    });
    expect(upload.stderr).not.toContain(key.clientSecret);
    expect(upload.code).toBe(0);
    const result = JSON.parse(upload.stdout);
    expect(result.metadata).toMatchObject({ bundleId: "com.hangar.literal", version: "1.0.4 [BETA]" });
    const download = await fetch(result.downloadUrl);
    expect(Buffer.from(await download.arrayBuffer()).equals(readFileSync(APK))).toBe(true);
  });

  it("is a typed ESM library: HangarClient imports in Node and type-checks under NodeNext", async () => {
    const script = join(project, "use.mjs");
    writeFileSync(
      script,
      `import { HangarClient, HangarRejectedError, UPLOAD_EXIT } from "hangar-cli";
const c = new HangarClient({ url: "http://127.0.0.1:9", clientId: "id", clientSecret: "secret" });
console.log(c.baseUrl, typeof HangarRejectedError, UPLOAD_EXIT.rejected);`,
    );
    const used = await run(process.execPath, [script], { cwd: project, env: cleanEnv(npmCache) });
    expect(used).toMatchObject({ code: 0, stdout: "http://127.0.0.1:9 function 6\n" });

    const consumer = join(project, "consumer.mts");
    writeFileSync(
      consumer,
      `import { HangarClient, type UploadResult } from "hangar-cli";
const client = new HangarClient({ url: "https://hangar.example.com", clientId: "id", clientSecret: "s" });
export const shareUrl = async (file: string): Promise<string> => {
  const result: UploadResult = await client.upload(file, { onProgress: (p) => void p.sentBytes });
  return result.shareUrl;
};
// @ts-expect-error the client has no such option
new HangarClient({ url: "x", clientId: "i", clientSecret: "s", nope: true });
`,
    );
    const tsc = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    const checked = await run(
      process.execPath,
      [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--skipLibCheck",
        "--typeRoots", join(REPO_ROOT, "node_modules/@types"), "--types", "node", consumer],
      { cwd: project, env: cleanEnv(npmCache) },
    );
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });
});

describe("the built CLI on every Node it promises (engines >=18)", () => {
  it.each(NODE_VERSIONS)("Node %s: --version, inspect, and an upload to the local stack", async (version) => {
    const node = await nodeBinary(version);
    // As a CI image would: that Node first on PATH, the bin's `#!/usr/bin/env node` finds it.
    const env = cleanEnv(npmCache, { PATH: `${dirname(node)}:${process.env.PATH}` });
    const bin = join(project, "node_modules/.bin/hangar");
    expect((await run(node, ["--version"], { cwd: project, env })).stdout.trim()).toBe(`v${version}`);

    expect(await run(bin, ["--version"], { cwd: project, env })).toMatchObject({ code: 0, stdout: `${packed.version}\n`, stderr: "" });
    const inspected = await run(bin, ["inspect", IPA, "--json"], { cwd: project, env });
    expect(inspected.stderr).toBe("");
    expect(JSON.parse(inspected.stdout)).toMatchObject({ appName: "Demo App", version: "1.4.2", icon: { width: expect.any(Number) } });

    const key = await newKey();
    const apk = join(work, `node-${version}.apk`);
    copyFileSync(APK, apk);
    const uploaded = await run(bin, ["upload", apk, "--quiet"], {
      cwd: project,
      env: { ...env, HANGAR_URL: stack().baseUrl, HANGAR_CLIENT_ID: key.clientId, HANGAR_CLIENT_SECRET: key.clientSecret },
    });
    expect(uploaded.stderr).toBe("");
    expect(uploaded.code).toBe(0);
    expect(uploaded.stdout).toMatch(/Share: +http:\/\/127\.0\.0\.1:\d+\/share\//);
  }, 300_000);
});

describe("the CLI the service serves (GET /cli/…)", () => {
  const version = JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")).version as string;
  const url = (name: string) => `${stack().baseUrl}/cli/${name}`;

  it("answers the packed CLI of its own version under both names, with download and cache headers", async () => {
    const latest = await fetch(url("hangar-cli.tgz"));
    expect(latest.status).toBe(200);
    expect(latest.headers.get("content-type")).toBe("application/gzip");
    expect(latest.headers.get("content-disposition")).toBe(`attachment; filename="hangar-cli-${version}.tgz"`);
    expect(latest.headers.get("x-content-type-options")).toBe("nosniff");
    expect(latest.headers.get("cache-control")).toBe("public, max-age=300");
    expect(latest.headers.get("x-hangar-cli-version")).toBe(version);
    const bytes = Buffer.from(await latest.arrayBuffer());
    const etag = latest.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]{43}"$/);

    const pinned = await fetch(url(`hangar-cli-${version}.tgz`));
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(pinned.headers.get("etag")).toBe(etag);
    expect(Buffer.from(await pinned.arrayBuffer()).equals(bytes)).toBe(true);

    // Deterministic: what the committed files pack to, byte for byte (so the ETag is stable).
    expect(packServedCli(REPO_ROOT).tarball.equals(bytes)).toBe(true);

    // What npm reads: package.json with the bin and no dependencies, the bundle, no sources.
    writeFileSync(join(work, "served.tgz"), bytes);
    const listing = (await run("tar", ["-tzf", "served.tgz"], { cwd: work, env: cleanEnv(npmCache) })).stdout.trim().split("\n");
    expect(listing).toContain("package/package.json");
    expect(listing).toContain("package/dist/hangar.js");
    expect(listing.filter((f) => !/^package\/(dist\/.+\.js|package\.json|README\.md)$/.test(f))).toEqual([]);
    const manifest = JSON.parse((await run("tar", ["-xzOf", "served.tgz", "package/package.json"], { cwd: work, env: cleanEnv(npmCache) })).stdout);
    expect(manifest).toMatchObject({ name: "hangar-cli", version, bin: { hangar: "dist/hangar.js" } });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.scripts).toBeUndefined();
  });

  it("answers HEAD like GET without a body, and 304 to a matching If-None-Match", async () => {
    const get = await fetch(url("hangar-cli.tgz"));
    const head = await fetch(url("hangar-cli.tgz"), { method: "HEAD" });
    expect(head.status).toBe(200);
    for (const name of ["content-type", "content-disposition", "etag", "cache-control", "x-content-type-options"]) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    }
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const again = await fetch(url("hangar-cli.tgz"), { headers: { "If-None-Match": get.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it("answers 404 for another version or name", async () => {
    for (const name of ["hangar-cli-0.0.1.tgz", `hangar-cli-${version}.tar`, "other.tgz", "hangar-cli-latest.tgz"]) {
      const reply = await fetch(url(name));
      expect(reply.status, name).toBe(404);
      expect(((await reply.json()) as { error: { code: string } }).error.code, name).toBe("cli_not_found");
    }
  });

  it("runs with npx straight from its URL, with npm's registry unreachable (nothing else to fetch)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hangar-cli-served-"));
    try {
      const env = cleanEnv(join(dir, "npm-cache"), { npm_config_registry: "http://127.0.0.1:9/" });
      const version_ = await run("npx", ["--yes", url("hangar-cli.tgz"), "--version"], { cwd: dir, env });
      expect(version_.code, version_.stderr).toBe(0);
      expect(version_.stdout.trim()).toBe(version);
      const key = await newKey();
      const upload = await run("npx", ["--yes", url(`hangar-cli-${version}.tgz`), "upload", APK, "--json", "--quiet"], {
        cwd: dir,
        env: { ...env, HANGAR_URL: stack().baseUrl, HANGAR_CLIENT_ID: key.clientId, HANGAR_CLIENT_SECRET: key.clientSecret },
      });
      expect(upload.code, upload.stderr).toBe(0);
      expect(JSON.parse(upload.stdout).metadata.bundleId).toBe("com.hangar.literal");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
