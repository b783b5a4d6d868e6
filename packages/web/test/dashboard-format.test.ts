import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { formatBytes as sharedFormatBytes } from "@hangar/inspect/format";
import { formatBytes } from "@hangar/core/format-bytes";
import { groupFiles, versionOf } from "../src/components/file-list";
import type { FileSummary } from "../src/api/dashboard.api";
import { niceCeiling } from "../src/components/daily-chart";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [999, "999 B"],
    [3379, "3.4 kB"],
    // 30 MiB: the size the CLI and the share page show for the same file, not "30 MB".
    [31_457_280, "31.5 MB"],
    [1.5e9, "1.5 GB"],
  ])("%d → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it("is the one formatter the CLI and the share page use, and the web app defines none of its own", () => {
    expect(formatBytes).toBe(sharedFormatBytes);
    const src = new URL("../src/", import.meta.url);
    for (const file of readdirSync(src, { recursive: true }) as string[]) {
      if (!/\.tsx?$/.test(file)) continue;
      const text = readFileSync(new URL(file, src), "utf8");
      expect(text, file).not.toMatch(/function formatBytes|formatBytes\s*=\s*\(|1024/);
      // Every page that shows a size imports the shared one itself (no re-export to drift).
      if (/formatBytes\(/.test(text)) expect(text, file).toMatch(/import \{ formatBytes \} from "@hangar\/core\/format-bytes";/);
      expect(text, file).not.toMatch(/export \{[^}]*formatBytes/);
    }
  });
});

describe("the daily charts' axis", () => {
  it("rounds the largest day up to a round even number, never below 2", () => {
    expect(niceCeiling(0)).toBe(2);
    expect(niceCeiling(3)).toBe(4);
    expect(niceCeiling(5)).toBe(6);
    expect(niceCeiling(9)).toBe(10);
    expect(niceCeiling(11)).toBe(20);
    expect(niceCeiling(200)).toBe(200);
    expect(niceCeiling(201)).toBe(400);
    expect(niceCeiling(450)).toBe(500);
  });

  it("always leaves room for the largest day and a whole midline", () => {
    for (let n = 0; n <= 5000; n++) {
      const top = niceCeiling(n);
      expect(top).toBeGreaterThanOrEqual(n);
      expect(top % 2).toBe(0);
      // Never more than two and a half times the data: the bars stay readable.
      expect(top).toBeLessThanOrEqual(Math.max(2, n * 2.5));
    }
  });
});

describe("versionOf", () => {
  it("shows the version with the build number in brackets, and a dash when there is neither", () => {
    expect(versionOf({ version: "2.0", buildNumber: "42" })).toBe("2.0 (42)");
    expect(versionOf({ version: "2.0", buildNumber: null })).toBe("2.0");
    expect(versionOf({ version: null, buildNumber: null })).toBe("—");
  });
});

describe("groupFiles", () => {
  it("puts completed builds, rejected uploads and pending ones apart, keeping their order", () => {
    const files = (["completed", "rejected", "pending", "completed", "rejected"] as const).map((status, i) => ({ fileId: `f${i}`, status }) as FileSummary);
    const { builds, rejected, pending } = groupFiles(files);
    expect(builds.map((f) => f.fileId)).toEqual(["f0", "f3"]);
    expect(rejected.map((f) => f.fileId)).toEqual(["f1", "f4"]);
    expect(pending.map((f) => f.fileId)).toEqual(["f2"]);
  });
});
