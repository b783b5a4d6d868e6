import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src";
import { ShareSettings } from "../../src/links/link.schema";
import { parseInput } from "../../src/validation/parse-input";

const issuesOf = (input: unknown) => {
  try {
    parseInput(ShareSettings, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
};

describe("a link's expiresAt", () => {
  // Date.parse rolls these over (2030-02-30 is March 2nd): stored, they would not be what was typed.
  it.each([
    "2030-02-30T10:00:00Z",
    "2030-02-29T10:00:00Z",
    "2030-04-31T10:00:00Z",
    "2030-13-01T10:00:00Z",
    "2030-00-10T10:00:00Z",
    "2030-01-00T10:00:00Z",
    "2030-01-10T24:00:00Z",
    "2030-01-10T10:60:00Z",
    "2030-01-10T10:00:60Z",
    "2030-01-10T10:00:00+24:00",
    "2030-01-10T10:00:00+01:60",
  ])("refuses %s, which is no calendar date-time", (expiresAt) => {
    expect(issuesOf({ expiresAt })).toEqual([
      { field: "expiresAt", message: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-31T23:59:00Z" },
    ]);
  });

  it.each(["2028-02-29T23:59:59Z", "2030-12-31T23:59:00.123+05:30", "2030-06-30T00:00-08:00"])("accepts %s as written", (expiresAt) => {
    const parsed = parseInput(ShareSettings, { expiresAt });
    expect(parsed.expiresAt).toBe(expiresAt);
    // The instant stored is the one typed: same day and minute once the offset is applied.
    expect(new Date(expiresAt).getTime()).toBe(Date.parse(expiresAt));
  });
});

describe("a link's password", () => {
  it.each([" ".repeat(4), " ".repeat(12), "\u3000".repeat(8)])("refuses only spaces (%j)", (password) => {
    expect(issuesOf({ password })).toEqual([{ field: "password", message: "must contain something other than spaces" }]);
  });
});
