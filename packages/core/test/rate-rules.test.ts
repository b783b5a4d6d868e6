import { describe, expect, it } from "vitest";
import { defaultRateRules, parseRateRuleOverrides } from "../src/limits/rate-rules";

describe("rate rules", () => {
  it("takes changes as name=limit/windowSeconds, comma-separated", () => {
    expect(parseRateRuleOverrides(" sharePage=300/60, signIn=200/900 ")).toEqual({
      rules: { sharePage: { limit: 300, windowSeconds: 60 }, signIn: { limit: 200, windowSeconds: 900 } },
    });
    expect(parseRateRuleOverrides("")).toEqual({ rules: {} });
  });

  it.each([
    ["sharepage=300/60", /unknown rule "sharepage"/],
    ["sharePage=300", /not name=limit\/windowSeconds/],
    ["sharePage=0/60", /at least 1/],
    ["download=5/9999999", /not name=limit\/windowSeconds|7 days/],
    ["constructor=1/1", /unknown rule/],
  ])("refuses %s with a reason", (text, reason) => {
    const parsed = parseRateRuleOverrides(text);
    expect("problem" in parsed && parsed.problem).toMatch(reason);
  });

  it("keeps a person's use far from every limit: the windows and limits the docs quote", () => {
    expect(defaultRateRules.signInFailures).toEqual({ limit: 10, windowSeconds: 900 });
    expect(defaultRateRules.signInCeiling.limit).toBeGreaterThan(defaultRateRules.signInFailures.limit);
    expect(defaultRateRules.linkPasswordCeiling.limit).toBeGreaterThan(defaultRateRules.linkPasswordPerLink.limit);
  });
});
