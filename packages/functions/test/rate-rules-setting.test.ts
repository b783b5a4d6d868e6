import { describe, expect, it } from "vitest";
import { defaultRateRules } from "@hangar/core/rate-rules";
import { rateRulesOf } from "../src/composition/root";
import { Settings } from "../src/composition/settings.schema";

const base = { HANGAR_TABLE_NAME: "t", HANGAR_BUCKET_NAME: "b" };

describe("HANGAR_RATE_RULES", () => {
  it("changes only the rules it names; the API keys' rule follows HANGAR_RATE_LIMIT and its window", () => {
    const settings = Settings.parse({ ...base, HANGAR_RATE_LIMIT: "50", HANGAR_RATE_RULES: "sharePage=300/60,signInCeiling=40/900" });
    const rules = rateRulesOf(settings);
    expect(rules.sharePage).toEqual({ limit: 300, windowSeconds: 60 });
    expect(rules.signInCeiling).toEqual({ limit: 40, windowSeconds: 900 });
    expect(rules.apiKey).toEqual({ limit: 50, windowSeconds: 60 });
    expect(rules.download).toEqual(defaultRateRules.download);
  });

  it("refuses a typo at start-up, saying which rules exist", () => {
    const parsed = Settings.safeParse({ ...base, HANGAR_RATE_RULES: "sharepage=300/60" });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/unknown rule \\"sharepage\\" \(one of apiKey, signIn/);
  });
});
