import { describe, expect, it } from "vitest";
import { matchPath, safeNextPath } from "../src/app/router";

describe("safeNextPath", () => {
  it("follows same-origin paths", () => {
    expect(safeNextPath("/account?tab=sessions", "/dashboard")).toBe("/account?tab=sessions");
  });

  it.each(["//evil.example/x", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "", null])("refuses %j", (next) => {
    expect(safeNextPath(next, "/dashboard")).toBe("/dashboard");
  });
});

describe("matchPath", () => {
  it("reads decoded params and ignores a trailing slash", () => {
    expect(matchPath("/projects/:projectId", "/projects/a%20b/")).toEqual({ projectId: "a b" });
  });

  it("does not match other shapes or broken escapes", () => {
    expect(matchPath("/projects/:projectId", "/projects")).toBeUndefined();
    expect(matchPath("/projects/:projectId", "/keys/1")).toBeUndefined();
    expect(matchPath("/projects/:projectId", "/projects/%E0%A4%A")).toBeUndefined();
  });
});
