import { describe, expect, it } from "vitest";
import { ProgressReporter, createRedactor, formatBytes, formatDuration, formatGithubOutput } from "../../src";

describe("formatGithubOutput", () => {
  it("writes every value in the heredoc form with its own delimiter", () => {
    let n = 0;
    const text = formatGithubOutput({ share_url: "https://h/share/a", version: "1.0" }, () => `EOF${++n}`);
    expect(text).toBe("share_url<<EOF1\nhttps://h/share/a\nEOF1\nversion<<EOF2\n1.0\nEOF2\n");
  });

  it("cannot be tricked by a value containing newlines or the delimiter", () => {
    const delimiters = ["D1", "D2"];
    const text = formatGithubOutput({ app_name: "Evil\nD1\nfile_id=x" }, () => delimiters.shift()!);
    expect(text).toBe("app_name<<D2\nEvil\nD1\nfile_id=x\nD2\n");
    expect(() => formatGithubOutput({ "bad name": "x" })).toThrow(/invalid output name/);
  });

  it("uses random delimiters by default", () => {
    const text = formatGithubOutput({ a: "1" });
    expect(text).toMatch(/^a<<(ghadelimiter_[0-9a-f]{32})\n1\n\1\n$/);
  });
});

describe("createRedactor", () => {
  it("removes secrets, bearer tokens and presigned signatures", () => {
    const redact = createRedactor(["sk_live_123456", undefined, "ab"]);
    expect(redact("secret sk_live_123456 here")).toBe("secret *** here");
    expect(redact("Authorization: Bearer anything.else")).toBe("Authorization: Bearer ***");
    expect(redact("PUT https://s3/x?X-Amz-Credential=AKIA%2Fus&X-Amz-Signature=abc123&x-id=1")).toBe(
      "PUT https://s3/x?X-Amz-Credential=***&X-Amz-Signature=***&x-id=1",
    );
    // too short to be a real secret: replacing it everywhere would garble the text
    expect(redact("tab")).toBe("tab");
  });
});

describe("formatters", () => {
  it("formats sizes in decimal units and durations compactly", () => {
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(256 * 1e6)).toBe("256.0 MB");
    expect(formatBytes(1.5e9)).toBe("1.5 GB");
    expect(formatDuration(4.4)).toBe("4s");
    expect(formatDuration(65)).toBe("1m05s");
    expect(formatDuration(3720)).toBe("1h02m");
    expect(formatDuration(Infinity)).toBe("--");
  });
});

describe("ProgressReporter", () => {
  const total = 1000;
  const make = (tty: boolean) => {
    let now = 0;
    const written: string[] = [];
    const reporter = new ProgressReporter({ stream: { write: (t: string) => written.push(t), columns: 200 }, tty, label: "a.apk", now: () => now });
    return { reporter, written, at: (ms: number) => (now = ms) };
  };

  it("prints a plain line per 10 % step without a TTY, with rate and ETA", () => {
    const { reporter, written, at } = make(false);
    reporter.update({ sentBytes: 0, totalBytes: total, attempt: 1 });
    for (let sent = 10; sent <= total; sent += 10) {
      at(sent);
      reporter.update({ sentBytes: sent, totalBytes: total, attempt: 1 });
    }
    expect(written).toHaveLength(10);
    expect(written.every((l) => l.endsWith("\n") && !l.includes("\r"))).toBe(true);
    expect(written[0]).toBe("uploading a.apk: 10% (100 B of 1.0 kB, 1.0 kB/s, ETA 1s)\n");
    expect(written.at(-1)).toBe("uploading a.apk: 100% (1.0 kB of 1.0 kB, 1.0 kB/s)\n");
  });

  it("a resumed upload's bar starts where the stored parts end; its rate and ETA count only what this run sends", () => {
    const { reporter, written, at } = make(false);
    reporter.update({ sentBytes: 500, totalBytes: total, attempt: 1, resumedBytes: 500 });
    at(1000);
    reporter.update({ sentBytes: 600, totalBytes: total, attempt: 1, resumedBytes: 500 });
    expect(written.at(-1)).toBe("uploading a.apk: 60% (600 B of 1.0 kB, 100 B/s, ETA 4s)\n");
  });

  it("still prints every 5 s when progress is slow", () => {
    const { reporter, written, at } = make(false);
    reporter.update({ sentBytes: 0, totalBytes: total, attempt: 1 });
    at(5000);
    reporter.update({ sentBytes: 1, totalBytes: total, attempt: 1 });
    at(6000);
    reporter.update({ sentBytes: 2, totalBytes: total, attempt: 1 });
    at(10_000);
    reporter.update({ sentBytes: 3, totalBytes: total, attempt: 1 });
    expect(written.map((l) => l.split(":")[1]!.trim().split(" ")[0])).toEqual(["0%", "0%"]);
  });

  it("redraws one bar in place on a TTY, throttled, and ends it with a newline", () => {
    const { reporter, written, at } = make(true);
    reporter.update({ sentBytes: 0, totalBytes: total, attempt: 1 });
    at(50);
    reporter.update({ sentBytes: 100, totalBytes: total, attempt: 1 }); // within 100 ms: skipped
    at(500);
    reporter.update({ sentBytes: 500, totalBytes: total, attempt: 1 });
    at(1000);
    reporter.update({ sentBytes: total, totalBytes: total, attempt: 1 });
    const bars = written.filter((t) => t.startsWith("\r"));
    expect(bars).toHaveLength(3);
    expect(bars[1]).toContain("[############------------]  50% 500 B/1.0 kB 1.0 kB/s ETA 1s");
    expect(written.at(-1)).toBe("\n");
  });
});
