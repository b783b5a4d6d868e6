import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupThousands } from "../../src/commands/inspect";
import { main } from "../../src/main";
import { VERSION } from "../../src/version";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "../../bin/hangar.js");
const ipaDir = join(here, "../../../inspect/fixtures/ipa");
const signingDir = join(here, "../../../inspect/fixtures/apk/signing");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real bin in a child process, as CI scripts would. */
async function hangar(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** Runs main() in-process with captured output (cheap checks of parsing and help). */
async function inProcess(...args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe("hangar inspect (spawned)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hangar-cli-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("--json prints the metadata, the icon without its bytes, and the read cost", async () => {
    const run = await hangar("inspect", join(ipaDir, "binary-plist.ipa"), "--json");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      platform: "ios",
      appName: "Binary Plist App",
      bundleId: "com.example.binary",
      version: "3.0",
      icon: { path: "Payload/Binary.app/AppIcon60x60@2x.png", width: 120, height: 120 },
      reads: 1,
    });
    expect(out.icon.bytes).toBeGreaterThan(0);
    expect(out.icon.data).toBeUndefined();
    expect(out.bytesRead).toBeGreaterThan(0);
  });

  it("a package the service would reject: error JSON on stdout, exit 6 as for upload; a missing file is a usage error (2)", async () => {
    const notZip = join(dir, "not-a-zip.apk");
    await writeFile(notZip, "definitely not a zip");
    const run = await hangar("inspect", notZip, "--json");
    expect(run.code).toBe(6);
    expect(JSON.parse(run.stdout)).toEqual({
      error: { code: "not_a_zip", message: expect.any(String) },
    });
    const human = await hangar("inspect", notZip);
    expect(human.code).toBe(6);
    expect(human.stderr).toMatch(/^hangar inspect: .*not-a-zip\.apk: .*\(not_a_zip\)\n$/);
    const missing = await hangar("inspect", join(dir, "missing.ipa"), "--json");
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe("read_failed");
  });

  it("says \"in 1 read\", not \"in 1 reads\"", async () => {
    const run = await hangar("inspect", join(ipaDir, "binary-plist.ipa"));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ in 1 read\n/);
  });

  it("prints who signed an APK: the scheme and the signer's certificate SHA-256, as apksigner names them", async () => {
    const json = await hangar("inspect", join(signingDir, "signed-v2v3-rsa.apk"), "--json");
    expect(json.code).toBe(0);
    const { signing } = JSON.parse(json.stdout);
    expect(signing).toEqual({ scheme: "v3", certificateSha256: [expect.stringMatching(/^[0-9a-f]{64}$/)] });
    const human = await hangar("inspect", join(signingDir, "signed-v2v3-rsa.apk"));
    expect(human.stdout).toContain("  signed      APK Signature Scheme v3\n");
    expect(human.stdout).toContain(`  certificate SHA-256 ${signing.certificateSha256[0]}\n`);
    const v1 = await hangar("inspect", join(signingDir, "signed-v1-ec.apk"));
    expect(v1.stdout).toContain("  signed      JAR signing (v1)\n");
    const unsigned = await hangar("inspect", join(signingDir, "unsigned.apk"));
    expect(unsigned.code).toBe(0);
    expect(unsigned.stdout).toContain("  signed      no (Android installs only signed APKs)\n");
    expect(unsigned.stdout).not.toContain("certificate");
  });

  it("prints an IPA profile's UUID and developer certificates", async () => {
    const json = await hangar("inspect", join(ipaDir, "xml-plist.ipa"), "--json");
    const { provisioning } = JSON.parse(json.stdout);
    expect(provisioning.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(provisioning.developerCertificateSha256).toHaveLength(2);
    const human = await hangar("inspect", join(ipaDir, "xml-plist.ipa"));
    expect(human.stdout).toContain(`  profile id  ${provisioning.uuid}\n`);
    for (const sha of provisioning.developerCertificateSha256) expect(human.stdout).toContain(`  certificate SHA-256 ${sha}\n`);
  });

  it("human summary and --save-icon", async () => {
    const iconPath = join(dir, "icon.png");
    const run = await hangar("inspect", join(ipaDir, "xml-plist.ipa"), "--save-icon", iconPath);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Demo App (com.example.demo)");
    expect(run.stdout).toContain("1.4.2 (142)");
    const icon = await readFile(iconPath);
    expect(icon.subarray(1, 4).toString()).toBe("PNG");
  });
});

describe("hangar argument handling (in process)", () => {
  it("usage errors exit 2", async () => {
    expect((await inProcess()).code).toBe(2);
    expect((await inProcess("frobnicate")).code).toBe(2);
    expect((await inProcess("inspect")).code).toBe(2);
    expect((await inProcess("inspect", "a.ipa", "b.ipa")).code).toBe(2);
    expect((await inProcess("inspect", "--nope", "a.ipa")).code).toBe(2);
    expect((await inProcess("inspect", "a.ipa", "--time-budget", "soon")).code).toBe(2);
  });

  it("a wrong value is one line on stderr, not the whole help", async () => {
    const run = await inProcess("inspect", "a.ipa", "--time-budget", "soon");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("hangar inspect: --time-budget takes a positive whole number of milliseconds\n");
  });

  it("groups thousands in the read line as en-US does, without loading ICU", () => {
    for (const n of [0, 7, 999, 1000, 4329, 1_234_567, 52_428_800_123]) expect(groupThousands(n)).toBe(n.toLocaleString("en-US"));
  });

  it("--version prints the package version alone", async () => {
    const run = await inProcess("--version");
    expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("help exits 0 and lists the commands", async () => {
    const top = await inProcess("--help");
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/inspect\s+Print the metadata/);
    const sub = await inProcess("inspect", "--help");
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain("--json");
  });
});
