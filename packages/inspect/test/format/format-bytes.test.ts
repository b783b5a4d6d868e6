import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatBytes } from "../../src/format/format-bytes";
import { ProgressReporter } from "../../../cli/src/client/progress-reporter";

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

  it("is the only byte formatter: the share page and the CLI import it, none defines its own", () => {
    const root = join(import.meta.dirname, "../../..");
    const users: string[] = [];
    for (const dir of ["functions/src", "cli/src", "core/src", "local/src", "inspect/src"]) {
      for (const file of readdirSync(join(root, dir), { recursive: true }) as string[]) {
        if (!file.endsWith(".ts") || file.endsWith("format-bytes.ts")) continue;
        const text = readFileSync(join(root, dir, file), "utf8");
        expect(text, `${dir}/${file}`).not.toMatch(/function formatBytes|formatBytes\s*=\s*\(/);
        if (/\bformatBytes\(/.test(text) && text.includes('from "@hangar/inspect/format"')) users.push(`${dir}/${file}`);
      }
    }
    expect(users).toEqual(expect.arrayContaining(["functions/src/share/share-page.ts", "cli/src/client/progress-reporter.ts"]));
  });

  it("the CLI's progress line shows the size the share page shows", () => {
    const size = 3 * 1024 * 1024;
    const lines: string[] = [];
    new ProgressReporter({ stream: { write: (t: string) => lines.push(t) }, tty: false, label: "app.apk", now: () => 0 }).update({
      sentBytes: size,
      totalBytes: size,
      attempt: 1,
    });
    expect(lines.join("")).toContain(`of ${formatBytes(size)}`);
    expect(formatBytes(size)).toBe("3.1 MB");
  });
});
