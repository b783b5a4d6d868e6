import { describe, expect, it } from "vitest";
import { ApiError, BAD_LINK_MESSAGE, isBadLink } from "../src/api/api-client";
import { CreateProject } from "@hangar/core/dashboard-schema";
import { emailError, newPasswordError } from "../src/components/field";
import { fieldSentence, schemaErrors, whenEmpty } from "../src/components/use-form";

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

describe("schemaErrors (forms checked with core's own schemas)", () => {
  const labels = { name: "Project name", description: "Description", color: "Color" };

  it("words each field's first issue as the API's field errors are shown, or in the field's own words", () => {
    const errors = schemaErrors(CreateProject, { name: "x".repeat(81), description: "", color: "" }, labels, { color: whenEmpty("Choose a color.") });
    expect(errors).toEqual({ name: "Project name must be at most 80 characters.", color: "Choose a color." });
  });

  it("passes what the API accepts", () => {
    expect(schemaErrors(CreateProject, { name: "Rocket", description: "", color: "blue" }, labels)).toEqual({});
  });

  it("says a new password's length with its count, and other rules as the API does", () => {
    expect(newPasswordError("😀".repeat(11))).toBe("Use at least 12 characters (this one has 11).");
    expect(newPasswordError(" ".repeat(12))).toBe("Password must contain something other than spaces.");
    expect(newPasswordError("correct horse battery")).toBeUndefined();
  });

  it("checks an address's shape with core's rule, leaving a Unicode domain to the server", () => {
    expect(emailError("not-an-address")).toBe("Enter an e-mail address like name@example.com.");
    expect(emailError("a@b.c")).toBe("Enter an e-mail address like name@example.com.");
    expect(emailError(" Name@Example.com ")).toBeUndefined();
    expect(emailError("name@bücher.de")).toBeUndefined();
  });
});
