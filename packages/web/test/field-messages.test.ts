import { describe, expect, it } from "vitest";
import { ApiError, BAD_LINK_MESSAGE, isBadLink } from "../src/api/api-client";
import { fieldSentence } from "../src/components/use-form";

describe("fieldSentence", () => {
  it("puts the field's label in front of the API's fragment and ends the sentence", () => {
    expect(fieldSentence("Password", "is too common: it appears in lists of leaked passwords. Choose another")).toBe(
      "Password is too common: it appears in lists of leaked passwords. Choose another.",
    );
  });

  it("leaves a message that is already a sentence alone", () => {
    expect(fieldSentence("Password", "Use at least 12 characters.")).toBe("Use at least 12 characters.");
  });
});

describe("isBadLink", () => {
  it("knows a spent token and a malformed one, and nothing else", () => {
    expect(isBadLink(new ApiError(400, "invalid_token", "x"))).toBe(true);
    expect(isBadLink(new ApiError(400, "invalid_request", "x", "r", [{ field: "token", message: "is not a valid link token" }]))).toBe(true);
    expect(isBadLink(new ApiError(400, "invalid_request", "x", "r", [{ field: "newPassword", message: "is too common" }]))).toBe(false);
    expect(isBadLink(new ApiError(429, "rate_limited", "x"))).toBe(false);
    expect(BAD_LINK_MESSAGE).toMatch(/invalid/);
  });
});
