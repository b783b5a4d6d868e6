/**
 * Hostile-input fuzzing: mutated copies of every committed fixture (IPA, and APK once present)
 * must each resolve to a result or reject with an InspectError — never another exception type,
 * never a hang. Seeded, so a failure names the seed that reproduces it.
 */
import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { entriesOf, findFixtures, fixturesRoot, mutatedCase } from "../fixtures/fuzz-mutations";
import { BufferRangeReader, InspectError, inspectPackage } from "../src";

const TOTAL_CASES = Number(process.env.FUZZ_CASES ?? 5000);

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
      const entries = await entriesOf(source);
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
        const { seed, bytes, what } = await mutatedCase({ name, source, entries }, i);
        try {
          // The default limits, as the service runs: how fast a case is belongs to bench:inspect.
          const result = await inspectPackage(new BufferRangeReader(bytes), { fileName: name });
          resolved++;
          count("resolved");
          for (const field of ["appName", "bundleId", "version"] as const) {
            if (typeof result[field] !== "string") failures.push(`seed ${seed} (${what}): ${field} is ${typeof result[field]}`);
          }
        } catch (error) {
          count(error instanceof InspectError ? error.code : "other");
          if (!(error instanceof InspectError)) {
            failures.push(`seed ${seed} (${what}): ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
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
