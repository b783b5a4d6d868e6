import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CLI_PACKAGE_FILES, packCli, tar } from "../src/cli/cli-package";

const ROOT = resolve(import.meta.dirname, "../../..");

describe("the CLI tarball the service serves", () => {
  it("is byte-identical on every pack (fixed mtimes and order), so its ETag is stable", () => {
    const a = packCli(ROOT);
    const b = packCli(ROOT);
    expect(a.tarball.equals(b.tarball)).toBe(true);
    expect(a.etag).toBe(b.etag);
    expect(a.version).toBe(JSON.parse(readFileSync(join(ROOT, "packages/cli/package.json"), "utf8")).version);
  });

  it("is a tar that GNU tar reads: package/ entries, the bin executable, the manifest without scripts", () => {
    const dir = mkdtempSync(join(tmpdir(), "hangar-cli-tar-"));
    try {
      writeFileSync(join(dir, "cli.tgz"), packCli(ROOT).tarball);
      const listing = execFileSync("tar", ["-tvzf", "cli.tgz"], { cwd: dir, encoding: "utf8" }).trim().split("\n");
      expect(listing.every((line) => / package\//.test(line))).toBe(true);
      expect(listing.find((line) => line.endsWith(" package/dist/hangar.js"))).toMatch(/^-rwxr-xr-x 0\/0 /);
      expect(listing.every((line) => line.includes(" 1985-10-26 "))).toBe(true);
      execFileSync("tar", ["-xzf", "cli.tgz"], { cwd: dir });
      const manifest = JSON.parse(readFileSync(join(dir, "package/package.json"), "utf8"));
      expect(manifest.bin).toEqual({ hangar: "dist/hangar.js" });
      expect(manifest.scripts).toBeUndefined();
      expect(manifest.devDependencies).toBeUndefined();
      expect(readFileSync(join(dir, "package/dist/hangar.js")).equals(readFileSync(join(ROOT, "packages/cli/dist/hangar.js")))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("splits a name over 100 bytes into the ustar prefix, and ends with two zero blocks", () => {
    const name = `package/${"d".repeat(90)}/${"f".repeat(60)}.js`;
    const archive = tar([{ name, data: Buffer.from("x"), mode: 0o644 }]);
    expect(archive.length).toBe(512 * 4);
    expect(archive.subarray(0, 100).toString("utf8").replace(/\0+$/, "")).toBe(`${"f".repeat(60)}.js`);
    expect(archive.subarray(345, 500).toString("utf8").replace(/\0+$/, "")).toBe(`package/${"d".repeat(90)}`);
    expect(archive.subarray(1024).equals(Buffer.alloc(1024))).toBe(true);
    expect(gunzipSync(packCli(ROOT).tarball).subarray(257, 263).toString("latin1")).toBe("ustar\0");
  });

  it("names files that exist, for the stack to copy beside the function", () => {
    for (const file of CLI_PACKAGE_FILES) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });
});
