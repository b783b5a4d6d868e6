import { describe, expect, it } from "vitest";
import { describeDevice, formatRelative } from "../src/app/format";
import { newPasswordError } from "../src/components/field";

describe("describeDevice", () => {
  it.each([
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36", "Chrome on macOS"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", "Safari on iOS"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Windows"],
    [undefined, "Unknown device"],
  ])("%s → %s", (ua, label) => {
    expect(describeDevice(ua)).toBe(label);
  });
});

describe("formatRelative", () => {
  it("speaks in the largest whole unit", () => {
    const now = Date.parse("2026-01-02T12:00:00Z");
    expect(formatRelative("2026-01-02T11:59:30Z", now)).toBe("just now");
    expect(formatRelative("2026-01-02T09:00:00Z", now)).toMatch(/3 hours ago/);
  });
});

describe("newPasswordError", () => {
  it("counts characters as the server does (NFKC code points), not UTF-16 units", () => {
    // 12 emoji are 24 UTF-16 units but 12 characters: accepted.
    expect(newPasswordError("😀".repeat(12))).toBeUndefined();
    expect(newPasswordError("😀".repeat(11))).toContain("this one has 11");
    expect(newPasswordError("x".repeat(257))).toBe("Use at most 256 characters.");
  });
});
