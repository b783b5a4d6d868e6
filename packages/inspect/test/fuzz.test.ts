/**
 * Hostile-input fuzzing: mutated copies of every committed fixture (IPA, and APK once present)
 * must each resolve to a result or reject with an InspectError — never another exception type,
 * never a hang. Seeded, so a failure names the seed that reproduces it.
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prng } from "../fixtures/prng";
import { zipToBuffer } from "../fixtures/zip-writer";
import { BufferRangeReader, InspectError, createInspectContext, inspectPackage, openZip } from "../src";

const fixturesRoot = join(dirname(fileURLToPath(import.meta.url)), "../fixtures");
const TOTAL_CASES = Number(process.env.FUZZ_CASES ?? 5000);
const CASE_BUDGET_MS = 3000;

async function findFixtures(): Promise<string[]> {
  const found: string[] = [];
  for (const sub of ["ipa", "apk"]) {
    let names: string[];
    try {
      names = (await readdir(join(fixturesRoot, sub), { recursive: true })) as string[];
    } catch {
      continue; // the folder does not exist yet
    }
    for (const name of names) if (/\.(ipa|apk)$/i.test(name)) found.push(join(fixturesRoot, sub, name));
  }
  return found.sort();
}

function hash(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

const INTERESTING = [0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];
const SIGNATURES = [
  { sig: 0x02014b50, fields: [[10, 2], [20, 4], [24, 4], [28, 2], [30, 2], [32, 2], [42, 4]] },
  { sig: 0x04034b50, fields: [[8, 2], [26, 2], [28, 2]] },
  { sig: 0x06054b50, fields: [[8, 2], [10, 2], [12, 4], [16, 4], [20, 2]] },
  { sig: 0x06064b50, fields: [[32, 8], [40, 8], [48, 8]] },
  { sig: 0x07064b50, fields: [[8, 8]] },
] as const;

function value(rand: () => number, max: number): number {
  return rand() < 0.5 ? INTERESTING[Math.floor(rand() * INTERESTING.length)]! % (max + 1) : Math.floor(rand() * (max + 1));
}

function writeField(buf: Buffer, at: number, size: number, v: number): void {
  if (at + size > buf.length) return;
  if (size === 2) buf.writeUInt16LE(v & 0xffff, at);
  else if (size === 4) buf.writeUInt32LE(v >>> 0, at);
  else buf.writeBigUInt64LE(BigInt(v >>> 0) * (v > 0xffff ? 0x10000n : 1n), at);
}

/** Mutations of the archive bytes: these mostly exercise the ZIP layer. */
function mutateBytes(source: Buffer, rand: () => number): { bytes: Buffer; what: string } {
  const bytes = Buffer.from(source);
  const kind = Math.floor(rand() * 4);
  if (kind === 0) {
    const flips = 1 + Math.floor(rand() * 8);
    for (let i = 0; i < flips; i++) {
      const at = Math.floor(rand() * bytes.length);
      bytes[at]! ^= 1 << Math.floor(rand() * 8);
    }
    return { bytes, what: `${flips} bit flips` };
  }
  if (kind === 1) {
    const keep = Math.floor(rand() * bytes.length);
    return rand() < 0.5
      ? { bytes: bytes.subarray(0, keep), what: `truncated to ${keep}` }
      : { bytes: bytes.subarray(keep), what: `first ${keep} bytes cut` };
  }
  if (kind === 2) {
    // A size, count or offset field of a ZIP record set to an edge or random value.
    const spots: { at: number; size: number }[] = [];
    for (const { sig, fields } of SIGNATURES) {
      for (let p = bytes.indexOf(sigBytes(sig)); p >= 0; p = bytes.indexOf(sigBytes(sig), p + 1)) {
        for (const [offset, size] of fields) spots.push({ at: p + offset, size });
      }
    }
    const count = 1 + Math.floor(rand() * 3);
    for (let i = 0; i < count && spots.length > 0; i++) {
      const spot = spots[Math.floor(rand() * spots.length)]!;
      writeField(bytes, spot.at, spot.size, value(rand, spot.size === 2 ? 0xffff : 0xffffffff));
    }
    return { bytes, what: `${count} ZIP header fields overwritten` };
  }
  const at = Math.floor(rand() * bytes.length);
  const length = Math.min(bytes.length - at, 1 + Math.floor(rand() * 64));
  for (let i = 0; i < length; i++) bytes[at + i] = Math.floor(rand() * 256);
  return { bytes, what: `${length} random bytes at ${at}` };
}

function sigBytes(sig: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(sig);
  return b;
}

/** Mutations of one entry's uncompressed content, re-zipped with a valid CRC: these reach the parsers. */
function mutateContent(data: Buffer, rand: () => number): { data: Buffer; what: string } {
  const bytes = Buffer.from(data);
  if (bytes.length === 0) return { data: Buffer.from([Math.floor(rand() * 256)]), what: "filled empty" };
  const kind = Math.floor(rand() * 4);
  if (kind === 0) {
    const flips = 1 + Math.floor(rand() * 6);
    for (let i = 0; i < flips; i++) bytes[Math.floor(rand() * bytes.length)]! ^= 1 << Math.floor(rand() * 8);
    return { data: bytes, what: `${flips} content bit flips` };
  }
  if (kind === 1) {
    const keep = Math.floor(rand() * bytes.length);
    return { data: bytes.subarray(0, keep), what: `content truncated to ${keep}` };
  }
  if (kind === 2) {
    // Chunk sizes, string-pool counts, offsets: 16/32-bit little- or big-endian edge values.
    const at = Math.floor(rand() * Math.max(1, bytes.length - 4));
    const v = value(rand, 0xffffffff);
    if (rand() < 0.5) bytes.writeUInt32LE(v >>> 0, Math.min(at, bytes.length - 4));
    else bytes.writeUInt32BE(v >>> 0, Math.min(at, bytes.length - 4));
    return { data: bytes, what: `content u32 ${v} at ${at}` };
  }
  const at = Math.floor(rand() * bytes.length);
  const length = Math.min(bytes.length - at, 1 + Math.floor(rand() * 32));
  for (let i = 0; i < length; i++) bytes[at + i] = Math.floor(rand() * 256);
  return { data: bytes, what: `${length} random content bytes at ${at}` };
}

/** Entries the parsers read, preferred as content-mutation targets. */
const PARSED = /(^AndroidManifest\.xml|^resources\.arsc|Info\.plist|\.strings|\.mobileprovision|\.png|\.xml)$/;

describe("fuzz: mutated fixtures resolve or reject with InspectError", async () => {
  const fixtures = await findFixtures();
  const perFixture = Math.max(50, Math.floor(TOTAL_CASES / Math.max(1, fixtures.length)));

  beforeAll(() => {
    // xmldom reports malformed XML on the console; thousands of cases would drown the output.
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterAll(() => vi.restoreAllMocks());

  it("has fixtures to fuzz", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  it.each(fixtures.map((path) => [relative(fixturesRoot, path), path]))(
    "%s",
    async (name, path) => {
      const source = await readFile(path);
      const zip = await openZip(new BufferRangeReader(source), createInspectContext());
      const entries = await Promise.all(
        [...zip.entries].map(async ([entryName, info]) => ({
          name: entryName,
          data: await zip.read(entryName),
          method: info.method === 0 ? ("store" as const) : ("deflate" as const),
        })),
      );
      const targets = entries.filter((e) => PARSED.test(e.name));
      // Fixtures that are unreadable on purpose (a text manifest, say) stay unreadable mutated.
      const baselineReadable = await inspectPackage(new BufferRangeReader(source), { fileName: name }).then(
        () => true,
        () => false,
      );
      const failures: string[] = [];
      let resolved = 0;
      const outcomes = new Map<string, number>();
      const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      for (let i = 0; i < perFixture; i++) {
        const seed = (hash(name) + i) >>> 0;
        const rand = prng(seed);
        let bytes: Buffer;
        let what: string;
        if (i % 2 === 0 || targets.length === 0) {
          ({ bytes, what } = mutateBytes(source, rand));
        } else {
          const target = targets[Math.floor(rand() * targets.length)]!;
          const mutated = mutateContent(target.data, rand);
          what = `${target.name}: ${mutated.what}`;
          bytes = await zipToBuffer(entries.map((e) => (e === target ? { ...e, data: mutated.data } : e)));
        }
        try {
          const result = await inspectPackage(new BufferRangeReader(bytes), {
            fileName: name,
            limits: { timeBudgetMs: CASE_BUDGET_MS },
          });
          resolved++;
          count("resolved");
          for (const field of ["appName", "bundleId", "version"] as const) {
            if (typeof result[field] !== "string") failures.push(`seed ${seed} (${what}): ${field} is ${typeof result[field]}`);
          }
        } catch (error) {
          count(error instanceof InspectError ? error.code : "other");
          if (!(error instanceof InspectError)) {
            failures.push(`seed ${seed} (${what}): ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
          } else if (error.code === "timeout") {
            failures.push(`seed ${seed} (${what}): hit the ${CASE_BUDGET_MS} ms budget`);
          }
        }
      }
      if (process.env.FUZZ_VERBOSE) console.log(name, Object.fromEntries(outcomes));
      expect(failures.slice(0, 10)).toEqual([]);
      // Some mutations must leave a readable package, or the fuzzer is not reaching the parsers.
      if (baselineReadable) expect(resolved).toBeGreaterThan(0);
    },
  );
});
