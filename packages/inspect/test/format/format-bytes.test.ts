import { describe, expect, it } from "vitest";
import { formatBytes } from "../../src/format/format-bytes";
import { ProgressReporter } from "../../../cli/src/client/progress-reporter";
import { renderSharePage } from "../../../functions/src/share/share-page";

describe("formatBytes (one rule for every size Hangar shows)", () => {
  it("is decimal SI: 1000 per step, kB/MB/GB, one decimal above bytes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1000)).toBe("1.0 kB");
    expect(formatBytes(1024)).toBe("1.0 kB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.1 MB");
    expect(formatBytes(125_000_000)).toBe("125.0 MB");
    expect(formatBytes(1.5e9)).toBe("1.5 GB");
    expect(formatBytes(2e15)).toBe("2000.0 TB");
  });

  it("the share page and the CLI's progress show the same size for the same file", () => {
    const size = 3 * 1024 * 1024;
    const page = renderSharePage(
      {
        userKey: "uk",
        fileId: "f",
        projectId: "p",
        key: "k",
        fileName: "app.apk",
        fileSize: size,
        metadata: { appName: "App", bundleId: "com.example", version: "1.0" },
        completedAt: "2026-01-01T00:00:00Z",
      },
      { download: "https://example.com/download/uk" },
    );
    const lines: string[] = [];
    new ProgressReporter({ stream: { write: (t: string) => lines.push(t) }, tty: false, label: "app.apk", now: () => 0 }).update({
      sentBytes: size,
      totalBytes: size,
      attempt: 1,
    });
    expect(page).toContain("3.1 MB");
    expect(lines.join("")).toContain("of 3.1 MB");
  });
});
