import plist from "plist";
import { describe, expect, it } from "vitest";
import { enrollProfile } from "../../src/devices";

describe("the enroll profile's document", () => {
  it("is the XML plist npm plist writes for the same values, byte for byte, with a callback URL's & and < escaped", () => {
    const callback = "https://share.example/devices/enroll/callback?a=1&b=<2>";
    const text = enrollProfile(callback, "c".repeat(43)).toString("utf8");
    const parsed = plist.parse(text) as Record<string, any>;
    expect(parsed.PayloadContent.URL).toBe(callback);
    expect(text).toContain("?a=1&amp;b=&lt;2&gt;");
    expect(text).toBe(plist.build(parsed));
  });
});
