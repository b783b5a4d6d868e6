import { describe, expect, it } from "vitest";
import { contentDisposition, hashSecret, parseObjectKey, randomIds, secretMatches } from "../src";

describe("content disposition", () => {
  it("quotes plain ASCII names as is", () => {
    expect(contentDisposition("app-1.0.apk")).toBe('attachment; filename="app-1.0.apk"');
  });
  it("adds an RFC 8187 name for non-ASCII and defuses quotes", () => {
    expect(contentDisposition('Ünï "x".ipa')).toBe(
      `attachment; filename="Uni _x_.ipa"; filename*=UTF-8''%C3%9Cn%C3%AF%20%22x%22.ipa`,
    );
  });
});

describe("ids and secrets", () => {
  it("makes share keys of 12 base62 characters (> 60 bits) and 32-byte secrets", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => randomIds.userKey()));
    expect(keys.size).toBe(1000);
    for (const k of keys) expect(k).toMatch(/^[0-9A-Za-z]{12}$/);
    expect(Buffer.from(randomIds.clientSecret().slice(4), "base64url")).toHaveLength(32);
  });
  it("matches secrets only against their own hash", () => {
    const h = hashSecret("s1");
    expect(secretMatches("s1", h)).toBe(true);
    expect(secretMatches("s2", h)).toBe(false);
    expect(secretMatches("s1", "abc")).toBe(false);
  });
  it("parses only keys the service issues", () => {
    expect(parseObjectKey("uploads/prj_1/fil_2/a.apk")).toEqual({ projectId: "prj_1", fileId: "fil_2" });
    expect(parseObjectKey("uploads/prj_1/fil_2/../a.apk")).toBeUndefined();
    expect(parseObjectKey("other/prj_1/fil_2/a.apk")).toBeUndefined();
  });
});
