import { describe, expect, it } from "vitest";
import { formatBytes } from "../src/components/data";
import { versionOf } from "../src/components/file-list";
import { niceCeiling } from "../src/pages/key-usage.page";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [3379, "3.3 KB"],
    [52_428_800, "50 MB"],
    [-1, "unknown"],
  ])("%d → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("the usage chart's axis", () => {
  it("rounds the largest day up to 2, 5 or 10 × a power of ten, never below 2", () => {
    expect(niceCeiling(0)).toBe(2);
    expect(niceCeiling(3)).toBe(5);
    expect(niceCeiling(11)).toBe(20);
    expect(niceCeiling(200)).toBe(200);
    expect(niceCeiling(201)).toBe(500);
  });
});

describe("versionOf", () => {
  it("shows the version with the build number in brackets, and a dash when there is neither", () => {
    expect(versionOf({ version: "2.0", buildNumber: "42" })).toBe("2.0 (42)");
    expect(versionOf({ version: "2.0", buildNumber: null })).toBe("2.0");
    expect(versionOf({ version: null, buildNumber: null })).toBe("—");
  });
});
