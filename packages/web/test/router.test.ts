import { describe, expect, it } from "vitest";
import { matchPath, safeNextPath } from "../src/app/router";

describe("safeNextPath", () => {
  it("follows same-origin paths", () => {
    expect(safeNextPath("/account?tab=sessions", "/dashboard")).toBe("/account?tab=sessions");
  });

  it.each(["//evil.example/x", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "", null])("refuses %j", (next) => {
    expect(safeNextPath(next, "/dashboard")).toBe("/dashboard");
  });

  // `?next=/%09/evil.example` arrives decoded: a tab that URL parsers drop, leaving `//evil.example`.
  it.each(["/\t/evil.example", "/\n/evil.example", "/\r\n/x", "/\u0000x", "/a\u007f", "/a\u0085b", "/projects\\x", "/%09ok\\"])(
    "refuses control characters and backslashes anywhere: %j",
    (next) => {
      expect(safeNextPath(next, "/dashboard")).toBe("/dashboard");
    },
  );

  it("keeps ordinary paths with encoded characters, queries and fragments", () => {
    expect(safeNextPath("/projects/a%20b?tab=files#top", "/dashboard")).toBe("/projects/a%20b?tab=files#top");
  });

  it("reads the login page's next parameter as the browser hands it over", () => {
    const next = new URLSearchParams("?next=/%09/evil.example").get("next");
    expect(next).toBe("/\t/evil.example");
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
