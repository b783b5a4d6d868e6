import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_ROOT, DIST, buildJs, listFiles } from "../scripts/build";
import { crc32, crc32Fallback } from "../src/compat/zlib-compat";
import { VERSION } from "../src/version";

/**
 * packages/cli/dist is committed (the GitHub Action runs it from a checkout without installing
 * anything): it must be exactly what the sources build to, or the Action ships stale code.
 */

const out = mkdtempSync(join(tmpdir(), "hangar-cli-dist-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const jsFiles = (dir: string) => listFiles(dir, (p) => p === "types");

describe("the committed CLI bundle", () => {
  it("is what the sources build to today (else: npm run build:cli, and commit packages/cli/dist)", async () => {
    await buildJs(out);
    expect(jsFiles(DIST)).toEqual(jsFiles(out));
    for (const file of jsFiles(out)) {
      expect(readFileSync(join(DIST, file), "utf8"), `dist/${file} is stale: run npm run build:cli`).toBe(readFileSync(join(out, file), "utf8"));
    }
  });

  it("has an executable bin with a node shebang, and no @aws-sdk or package import anywhere", () => {
    const bin = readFileSync(join(DIST, "hangar.js"), "utf8");
    expect(bin.startsWith("#!/usr/bin/env node\n")).toBe(true);
    accessSync(join(DIST, "hangar.js"), constants.X_OK);
    for (const file of jsFiles(DIST)) {
      const text = readFileSync(join(DIST, file), "utf8");
      expect(text, file).not.toContain("@aws-sdk");
      expect(text.match(/(?:from|import)\s*\(?\s*"[^".][^"]*"/g)?.filter((s) => !s.includes('"node:')) ?? [], file).toEqual([]);
    }
  });
});

describe("the package manifest", () => {
  const pkg = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8"));

  it("is publishable with no runtime dependencies, bin and exports on the built files", () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.bin).toEqual({ hangar: "dist/hangar.js" });
    expect(pkg.exports["."]).toEqual({ types: "./dist/types/index.d.ts", default: "./dist/index.js" });
    expect(pkg.engines.node).toBe(">=18");
  });

  it("has the version `hangar --version` prints", () => {
    expect(pkg.version).toBe(VERSION);
  });
});

describe("the sources", () => {
  it("name files relative to the repository, never a path on someone's machine", () => {
    const src = join(CLI_ROOT, "src");
    for (const file of listFiles(src)) {
      expect(readFileSync(join(src, file), "utf8"), file).not.toMatch(/(?:^|[\s(`'"])\/(?:work|home|Users|root|tmp)\/[\w.-]+\//m);
    }
  });
});

describe("zlib compat for Node 18", () => {
  it("the crc32 fallback agrees with zlib's, including a continued CRC", () => {
    const data = Buffer.from("The quick brown fox jumps over the lazy dog");
    expect(crc32Fallback(data)).toBe(0x414fa339);
    expect(crc32Fallback(data.subarray(10), crc32Fallback(data.subarray(0, 10)))).toBe(0x414fa339);
    expect(crc32(data)).toBe(0x414fa339);
    expect(crc32Fallback(new Uint8Array(0))).toBe(0);
  });
});
