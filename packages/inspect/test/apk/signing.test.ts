/**
 * The APK signer, against Debian's apksigner on APKs it signed (fixtures/apk/signing, built by
 * build-signing-fixtures.ts with two keytool keys): `apksigner verify -v --print-certs` is asked
 * live, and its newest verified scheme and "Signer #n certificate SHA-256 digest" lines are the
 * truth. Then the ranged read of a signing block outside the ZIP tail, and hostile blocks.
 */
import { execFile } from "node:child_process";
import { readFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readZipEntries } from "../../fixtures/zip-entries";
import { zipToBuffer } from "../../fixtures/zip-writer";
import { prng } from "../../fixtures/prng";
import { BufferRangeReader, FileRangeReader, inspectPackage } from "../../src";
import type { InspectResult, SigningInfo } from "../../src";
import { MAX_SIGNING_BLOCK_BYTES, readApkSigning } from "../../src/apk/signing/apk-signing";
import { SigningFormatError } from "../../src/apk/signing/der";
import { jarSignerCertificate } from "../../src/apk/signing/jar-signature";
import { schemeSigners } from "../../src/apk/signing/signature-schemes";
import { SCHEME_BLOCK_ID, SIGNING_BLOCK_MAGIC, signingBlockLength, signingBlockPairs } from "../../src/apk/signing/signing-block";
import { createInspectContext } from "../../src/inspect-context";
import { LOCAL_HEADER_SLACK, openZip } from "../../src/zip/open-zip";
import { TAIL_READ_BYTES } from "../../src/zip/zip-structure";
import { LoggingReader } from "../helpers/logging-reader";
import { memoryZip } from "./helpers/memory-zip";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/apk/signing");
const index = JSON.parse(await readFile(join(DIR, "signing.json"), "utf8")) as Array<{ file: string; key?: string }>;

interface Truth {
  verifies: boolean;
  scheme: SigningInfo["scheme"];
  certificateSha256: string[];
}

/** What apksigner says about an APK: the newest scheme it verified and its signers' digests. */
async function apksigner(path: string): Promise<Truth> {
  const { stdout } = await promisify(execFile)("apksigner", ["verify", "-v", "--print-certs", path]).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }),
  );
  const verified = (n: number) => new RegExp(`^Verified using v${n} scheme .*: true$`, "m").test(stdout);
  const scheme = verified(3) ? "v3" : verified(2) ? "v2" : verified(1) ? "v1" : null;
  const certificateSha256 = [...stdout.matchAll(/^Signer #\d+ certificate SHA-256 digest: ([0-9a-f]{64})$/gm)].map((m) => m[1]!);
  return { verifies: /^Verifies$/m.test(stdout), scheme, certificateSha256 };
}

async function inspectFile(path: string): Promise<{ result: InspectResult; reader: LoggingReader }> {
  const reader = new LoggingReader(await FileRangeReader.open(path));
  try {
    return { result: await inspectPackage(reader, { fileName: path }), reader };
  } finally {
    await reader.close();
  }
}

/** The APK Signing Block of a signed fixture, found by its magic (independently of the parser). */
function blockOf(apk: Buffer): Buffer {
  const magicAt = apk.lastIndexOf(SIGNING_BLOCK_MAGIC);
  const size = Number(apk.readBigUInt64LE(magicAt - 8));
  return apk.subarray(magicAt + 16 - size - 8, magicAt + 16);
}

/** An APK Signing Block holding these ID-value pairs. */
function buildBlock(pairs: Array<[number, Buffer]>): Buffer {
  const body = Buffer.concat(
    pairs.map(([id, value]) => {
      const head = Buffer.alloc(12);
      head.writeBigUInt64LE(BigInt(value.length + 4), 0);
      head.writeUInt32LE(id, 8);
      return Buffer.concat([head, value]);
    }),
  );
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(body.length + 24));
  return Buffer.concat([size, body, size, SIGNING_BLOCK_MAGIC]);
}

/** A ZipArchive whose bytes before the central directory are `before` (readApkSigning's view). */
function zipWithBlock(before: Buffer, files: Record<string, Buffer> = {}) {
  return Object.assign(memoryZip(files), { readBeforeCentralDirectory: async () => before });
}

const fixture = (file: string) => readFile(join(DIR, file));

/** Whether an intact-looking signing block with a v2/v3/v3.1 signature is where the parser looks. */
function hasSchemeBlock(apk: Buffer): boolean {
  try {
    const pairs = signingBlockPairs(blockOf(apk));
    return [SCHEME_BLOCK_ID.v2, SCHEME_BLOCK_ID.v3, SCHEME_BLOCK_ID.v31].some((id) => pairs.has(id));
  } catch {
    return false;
  }
}

/** Where an APK's signature lies: its signing block, else its v1 signature file's data. */
async function signatureSpan(apk: Buffer): Promise<{ start: number; length: number }> {
  const magicAt = apk.lastIndexOf(SIGNING_BLOCK_MAGIC);
  if (magicAt >= 0) {
    const block = blockOf(apk);
    return { start: magicAt + 16 - block.length, length: block.length };
  }
  const zip = await openZip(new BufferRangeReader(apk), createInspectContext());
  const name = [...zip.entries.keys()].find((n) => /^META-INF\/[^/]+\.(RSA|EC)$/.test(n))!;
  const entry = zip.entries.get(name) as unknown as { localHeaderOffset: number; compressedSize: number };
  const dataStart = entry.localHeaderOffset + 30 + apk.readUInt16LE(entry.localHeaderOffset + 26) + apk.readUInt16LE(entry.localHeaderOffset + 28);
  return { start: dataStart, length: entry.compressedSize };
}

describe("the APK signer, compared with apksigner verify --print-certs", () => {
  const truths = new Map<string, Truth>();
  beforeAll(async () => {
    // One JVM per file; in parallel they take about as long as one.
    await Promise.all(index.map(async ({ file }) => truths.set(file, await apksigner(join(DIR, file)))));
  }, 120_000);

  it.each(index.map(({ file }) => file))("%s", async (file) => {
    const truth = truths.get(file)!;
    const { result } = await inspectFile(join(DIR, file));
    expect(result.warnings).toEqual([]);
    if (file === "unsigned.apk") {
      expect(truth.verifies).toBe(false);
      expect(result.signing).toEqual({ scheme: null, certificateSha256: [] });
      return;
    }
    expect(truth.verifies).toBe(true);
    expect(truth.certificateSha256).toHaveLength(1);
    expect(result.signing).toEqual({ scheme: truth.scheme, certificateSha256: truth.certificateSha256 });
  });

  it("tells the two keys apart, whatever the scheme", async () => {
    const signer = async (file: string) => (await inspectFile(join(DIR, file))).result.signing?.certificateSha256[0];
    const byKey = new Map<string, Set<string | undefined>>();
    for (const { file, key } of index) {
      if (key === undefined) continue;
      const set = byKey.get(key) ?? new Set();
      set.add(await signer(file));
      byKey.set(key, set);
    }
    expect([...byKey.keys()].sort()).toEqual(["a", "b"]);
    for (const digests of byKey.values()) expect(digests.size).toBe(1);
    expect([...byKey.get("a")!][0]).not.toBe([...byKey.get("b")!][0]);
  });

  it("reads the signing block from the tail read of a small APK: nothing more than the one read", async () => {
    for (const file of ["signed-v2v3-rsa.apk", "signed-all-ec.apk"]) {
      const { reader } = await inspectFile(join(DIR, file));
      expect(reader.log).toHaveLength(1);
    }
  });

  it("does not read the v1 signature file when the signing block names the signer", async () => {
    const bytes = await fixture("signed-all-ec.apk");
    const zip = await openZip(new BufferRangeReader(bytes), createInspectContext());
    expect([...zip.entries.keys()].some((n) => /^META-INF\/.*\.EC$/.test(n))).toBe(true);
    const read: string[] = [];
    const original = zip.read.bind(zip);
    zip.read = (name, options) => (read.push(name), original(name, options));
    expect((await readApkSigning(zip, createInspectContext())).scheme).toBe("v3");
    expect(read).toEqual([]);
  });
});

describe("a signing block outside the ZIP tail (a large central directory)", () => {
  let dir: string;
  let signed: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hangar-signing-"));
    // 1,500 entries make a central directory of ~100 KB, so the tail read ends inside it and the
    // signing block before it needs its own ranged read. Signed by apksigner, like a real build.
    const entries = await readZipEntries(await fixture("signed-v2v3-rsa.apk"));
    const kept = entries.filter((e) => !e.name.startsWith("META-INF/"));
    for (let i = 0; i < 1500; i++) kept.push({ name: `assets/generated/file-${String(i).padStart(5, "0")}.txt`, data: Buffer.from(`asset ${i}\n`), method: "store" });
    const unsigned = join(dir, "many-entries.apk");
    await writeFile(unsigned, await zipToBuffer(kept, { localSizes: true }));
    signed = join(dir, "many-entries-signed.apk");
    const keystore = join(dir, "key.p12");
    await promisify(execFile)("keytool", [
      "-genkeypair", "-keystore", keystore, "-storetype", "PKCS12", "-storepass", "hangar-test", "-alias", "k",
      "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "365", "-dname", "CN=Hangar Large",
    ]);
    await promisify(execFile)("apksigner", [
      "sign", "--ks", keystore, "--ks-pass", "pass:hangar-test", "--v4-signing-enabled", "false", "--out", signed, unsigned,
    ]);
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads it with ranged reads, within the inspect bench's bytes-read bound, and agrees with apksigner", async () => {
    const truth = await apksigner(signed);
    expect(truth.verifies).toBe(true);
    const { result, reader } = await inspectFile(signed);
    expect(result.signing).toEqual({ scheme: truth.scheme, certificateSha256: truth.certificateSha256 });
    expect(result.signing?.scheme).toBe("v3");

    const zip = await openZip(new BufferRangeReader(await readFile(signed)), createInspectContext());
    const { centralDirectoryOffset, centralDirectorySize } = zip.endRecord;
    expect(centralDirectorySize).toBeGreaterThan(TAIL_READ_BYTES);
    // One read ending at the central directory: the block, in one go (it is under the 16 KiB guess).
    const blockReads = reader.log.filter((r) => r.offset + r.length === centralDirectoryOffset);
    expect(blockReads).toHaveLength(1);
    // The bench's bound: central directory + entries read (with their slack) + the tail.
    const entryBytes = [...zip.entries.values()]
      .map((e) => e as unknown as { localHeaderOffset: number; nameLength: number; extraLength: number; compressedSize: number })
      .filter((e) => reader.log.some((r) => r.offset === e.localHeaderOffset))
      .reduce((sum, e) => sum + 30 + e.nameLength + e.extraLength + e.compressedSize + 16 + LOCAL_HEADER_SLACK, 0);
    expect(reader.stats.bytesRead).toBeLessThanOrEqual(centralDirectorySize + entryBytes + TAIL_READ_BYTES);
  });
});

describe("choosing among signers", () => {
  it("prefers v3.1 over v3 over v2, and the v3 signer for the highest SDK range, as apksigner does", async () => {
    const rsa = signingBlockPairs(blockOf(await fixture("signed-v2v3-rsa.apk")));
    const ec = signingBlockPairs(blockOf(await fixture("signed-all-ec.apk")));
    const digest = async (file: string) => (await inspectPackage(new BufferRangeReader(await fixture(file)))).signing!.certificateSha256[0];
    const [rsaDigest, ecDigest] = [await digest("signed-v2v3-rsa.apk"), await digest("signed-all-ec.apk")];
    const v3 = (pairs: Map<number, Buffer>) => pairs.get(SCHEME_BLOCK_ID.v3)!;
    const v2 = (pairs: Map<number, Buffer>) => pairs.get(SCHEME_BLOCK_ID.v2)!;

    const rotated = buildBlock([[SCHEME_BLOCK_ID.v2, v2(rsa)], [SCHEME_BLOCK_ID.v3, v3(rsa)], [SCHEME_BLOCK_ID.v31, v3(ec)]]);
    expect(await readApkSigning(zipWithBlock(rotated), createInspectContext())).toEqual({ scheme: "v3.1", certificateSha256: [ecDigest] });

    // Two v3 signers: EC's for minSdk 33+, RSA's below. The newest range's signer is reported.
    const signer = (value: Buffer, minSdk: number) => {
      const inner = value.subarray(8, 8 + value.readUInt32LE(4)); // the only signer, without its length
      const copy = Buffer.from(inner);
      copy.writeUInt32LE(minSdk, 4 + copy.readUInt32LE(0));
      const prefixed = Buffer.alloc(4);
      prefixed.writeUInt32LE(copy.length);
      return Buffer.concat([prefixed, copy]);
    };
    const signers = Buffer.concat([signer(v3(ec), 33), signer(v3(rsa), 24)]);
    const list = Buffer.alloc(4);
    list.writeUInt32LE(signers.length);
    const twoSigners = buildBlock([[SCHEME_BLOCK_ID.v3, Buffer.concat([list, signers])]]);
    expect(await readApkSigning(zipWithBlock(twoSigners), createInspectContext())).toEqual({ scheme: "v3", certificateSha256: [ecDigest] });

    // v2 lists every signer, in order.
    const v2Signers = Buffer.concat([v2(rsa).subarray(4), v2(ec).subarray(4)]);
    const v2List = Buffer.alloc(4);
    v2List.writeUInt32LE(v2Signers.length);
    const twoV2 = buildBlock([[0x42726577, Buffer.alloc(100)], [SCHEME_BLOCK_ID.v2, Buffer.concat([v2List, v2Signers])]]);
    expect(await readApkSigning(zipWithBlock(twoV2), createInspectContext())).toEqual({ scheme: "v2", certificateSha256: [rsaDigest, ecDigest] });
  });

  it("falls back to every v1 signature file, in name order, when the block has no v2/v3 signature", async () => {
    const rsaZip = await openZip(new BufferRangeReader(await fixture("signed-v1-rsa.apk")), createInspectContext());
    const ecZip = await openZip(new BufferRangeReader(await fixture("signed-v1-ec.apk")), createInspectContext());
    const rsaBlock = await rsaZip.read([...rsaZip.entries.keys()].find((n) => n.endsWith(".RSA"))!);
    const ecBlock = await ecZip.read([...ecZip.entries.keys()].find((n) => n.endsWith(".EC"))!);
    const paddingOnly = buildBlock([[0x42726577, Buffer.alloc(64)]]);
    const zip = zipWithBlock(paddingOnly, { "META-INF/Z.EC": ecBlock, "META-INF/A.RSA": rsaBlock, "META-INF/sub/X.RSA": ecBlock });
    const info = await readApkSigning(zip, createInspectContext());
    const digest = async (file: string) => (await inspectPackage(new BufferRangeReader(await fixture(file)))).signing!.certificateSha256[0];
    expect(info).toEqual({ scheme: "v1", certificateSha256: [await digest("signed-v1-rsa.apk"), await digest("signed-v1-ec.apk")] });
  });
});

describe("hostile signing data: a warning and an unknown signer, never a failed extraction", () => {
  it("every truncation of a scheme block, a signing block and a v1 signature file fails only with SigningFormatError", async () => {
    const block = blockOf(await fixture("signed-v2v3-rsa.apk"));
    const pairs = signingBlockPairs(block);
    const ecZip = await openZip(new BufferRangeReader(await fixture("signed-v1-ec.apk")), createInspectContext());
    const jar = await ecZip.read([...ecZip.entries.keys()].find((n) => n.endsWith(".EC"))!);
    const attempts: Array<[string, Buffer, (b: Buffer) => unknown]> = [
      ["v3 value", pairs.get(SCHEME_BLOCK_ID.v3)!, (b) => schemeSigners(b, "v3")],
      ["v2 value", pairs.get(SCHEME_BLOCK_ID.v2)!, (b) => schemeSigners(b, "v2")],
      ["block", block, (b) => (signingBlockLength(b.subarray(-24)) === b.length ? signingBlockPairs(b) : undefined)],
      ["v1 signature file", jar, jarSignerCertificate],
    ];
    for (const [what, bytes, parse] of attempts) {
      for (let cut = 0; cut < bytes.length; cut++) {
        try {
          parse(bytes.subarray(0, cut));
        } catch (error) {
          expect(error, `${what} cut to ${cut} bytes`).toBeInstanceOf(SigningFormatError);
        }
      }
    }
  });

  it("mutated signing blocks and signature files (seeded) end in a signer or a warning", async () => {
    for (const file of ["signed-v2v3-rsa.apk", "signed-v1-ec.apk", "signed-v2-ec.apk", "signed-v1-rsa.apk"]) {
      const source = await fixture(file);
      const span = await signatureSpan(source);
      const rand = prng(0x5eed + file.length);
      for (let i = 0; i < 150; i++) {
        const bytes = Buffer.from(source);
        for (let flips = 1 + Math.floor(rand() * 4); flips > 0; flips--) {
          bytes[span.start + Math.floor(rand() * span.length)] = Math.floor(rand() * 256);
        }
        const result = await inspectPackage(new BufferRangeReader(bytes), { fileName: file });
        expect(result.bundleId).toBe("com.hangar.signing");
        for (const digest of result.signing!.certificateSha256) expect(digest).toMatch(/^[0-9a-f]{64}$/);
        // Unknown without a warning only when the flips erased what marks a signature (the magic, the scheme ids).
        if (result.signing!.scheme === null && result.warnings.length === 0) expect(hasSchemeBlock(bytes), `${file} case ${i}`).toBe(false);
        if (result.signing!.scheme === null && result.warnings.length > 0) expect(result.warnings.join("\n")).toMatch(/unreadable|not reported/);
      }
    }
  });

  it("a block whose sizes disagree, or too many entries, or too large to read", async () => {
    const ctx = () => createInspectContext();
    const good = blockOf(await fixture("signed-v2v3-rsa.apk"));
    const disagree = Buffer.from(good);
    disagree.writeBigUInt64LE(BigInt(good.length), 0);
    const manyPairs = buildBlock(Array.from({ length: 300 }, (_, i) => [i, Buffer.alloc(0)] as [number, Buffer]));
    const huge = Buffer.alloc(64);
    huge.writeBigUInt64LE(BigInt(MAX_SIGNING_BLOCK_BYTES), 40);
    SIGNING_BLOCK_MAGIC.copy(huge, 48);
    const endless = Buffer.from(huge);
    endless.writeBigUInt64LE(0xffffffffffffffffn, 40);
    const tiny = Buffer.from(huge);
    tiny.writeBigUInt64LE(8n, 40);
    for (const [before, message] of [
      [disagree, /size fields disagree/],
      [manyPairs, /more than 256 entries/],
      [huge, /over the 1048576 read/],
      [endless, /out of range/],
      [tiny, /declares a size of 8 bytes/],
      [good.subarray(100), /starts before the file does/],
    ] as const) {
      const c = ctx();
      expect(await readApkSigning(zipWithBlock(before), c)).toEqual({ scheme: null, certificateSha256: [] });
      expect(c.warnings.join("\n")).toMatch(message);
    }
    // No magic: no block, and no v1 file either: unsigned, without a warning.
    const c = ctx();
    expect(await readApkSigning(zipWithBlock(Buffer.alloc(30)), c)).toEqual({ scheme: null, certificateSha256: [] });
    expect(c.warnings).toEqual([]);
  });

  it("a v1 signature file that is no SignedData, or too large: a warning naming it", async () => {
    const c = createInspectContext();
    const zip = zipWithBlock(Buffer.alloc(0), {
      "META-INF/CERT.RSA": Buffer.from("not DER at all"),
      "META-INF/BIG.DSA": Buffer.alloc(300 * 1024, 0x30),
    });
    expect(await readApkSigning(zip, c)).toEqual({ scheme: null, certificateSha256: [] });
    expect(c.warnings).toEqual([
      expect.stringMatching(/^The v1 signature file META-INF\/BIG\.DSA is unreadable \(.*limit.*\)/),
      expect.stringMatching(/^The v1 signature file META-INF\/CERT\.RSA is unreadable/),
    ]);
  });
});
