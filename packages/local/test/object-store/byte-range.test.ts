import { describe, expect, it } from "vitest";
import { parseByteRange } from "../../src/object-store/byte-range";

describe("parseByteRange", () => {
  it.each([
    ["bytes=0-0", 10, { kind: "partial", start: 0, end: 0 }],
    ["bytes=2-5", 10, { kind: "partial", start: 2, end: 5 }],
    ["bytes=2-", 10, { kind: "partial", start: 2, end: 9 }],
    ["bytes=-3", 10, { kind: "partial", start: 7, end: 9 }],
    ["bytes=-30", 10, { kind: "partial", start: 0, end: 9 }],
    ["bytes=5-100", 10, { kind: "partial", start: 5, end: 9 }],
    ["bytes=10-", 10, { kind: "unsatisfiable" }],
    ["bytes=10-20", 10, { kind: "unsatisfiable" }],
    ["bytes=-0", 10, { kind: "unsatisfiable" }],
    ["bytes=0-", 0, { kind: "unsatisfiable" }],
    ["bytes=-5", 0, { kind: "unsatisfiable" }],
    ["bytes=5-2", 10, { kind: "full" }],
    ["bytes=0-1,4-5", 10, { kind: "full" }],
    ["items=0-1", 10, { kind: "full" }],
    ["bytes=-", 10, { kind: "full" }],
  ] as const)("%s of %i bytes", (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });

  it("serves everything without a header", () => {
    expect(parseByteRange(undefined, 10)).toEqual({ kind: "full" });
  });
});
