import { describe, expect, it } from "vitest";
import { compareBuilds, isAppSlug, newSlug, versionLabel } from "../../src/app-pages";

const b = (version: string | undefined, build?: string) => ({ version, build });

describe("compareBuilds (docs/update-check.md, which build is newer)", () => {
  it("lets numeric build numbers decide, part by part as numbers", () => {
    expect(compareBuilds(b("1.0", "10"), b("9.9", "9"))).toBe(1);
    expect(compareBuilds(b("2.0", "141"), b("1.0", "142"))).toBe(-1);
    expect(compareBuilds(b("1.0", "1.0.10"), b("1.0", "1.0.9"))).toBe(1);
    expect(compareBuilds(b("1.0", "007"), b("1.0", "7"))).toBe(0);
  });

  it("falls back to the versions' leading dotted numbers when a build is not numeric, missing or equal", () => {
    expect(compareBuilds(b("2.10.0", "beta"), b("2.9.1", "rc"))).toBe(1);
    expect(compareBuilds(b("1.4.2"), b("1.4.1", "141"))).toBe(1);
    expect(compareBuilds(b("1.5", "7"), b("1.4", "7"))).toBe(1);
    expect(compareBuilds(b("1.0.4 [BETA]", "x"), b("1.0.4", "y"))).toBe(0);
    expect(compareBuilds(b("v2.0-beta"), b("1.9"))).toBe(1);
    expect(compareBuilds(b("1.2"), b("1.2.0"))).toBe(0);
  });

  it("never calls a side it cannot order newer", () => {
    expect(compareBuilds(b("nightly"), b("1.0"))).toBe(0);
    expect(compareBuilds(b("1.0"), b(undefined))).toBe(0);
    expect(compareBuilds(b(undefined, "x"), b(undefined, "y"))).toBe(0);
    expect(compareBuilds(b("9".repeat(30)), b("1"))).toBe(0);
  });

  it("labels a build as version (build)", () => {
    expect(versionLabel("1.4.2", "142")).toBe("1.4.2 (142)");
    expect(versionLabel("1.4.2", null)).toBe("1.4.2");
  });
});

describe("app page slugs", () => {
  it("are a readable prefix of the project's name and 12 random base62 characters", () => {
    const slug = newSlug("Démo Beta — iOS & Android!");
    expect(slug).toMatch(/^demo-beta-ios-android-[A-Za-z0-9]{12}$/);
    expect(isAppSlug(slug)).toBe(true);
    expect(newSlug("🚀🚀")).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(newSlug("x".repeat(80)).length).toBeLessThanOrEqual(24 + 1 + 12);
    expect(new Set(Array.from({ length: 200 }, () => newSlug("a"))).size).toBe(200);
  });

  it("refuse anything newSlug does not make, before any read", () => {
    for (const bad of ["", "short", "demo-", "-AAAAAAAAAAAA", "demo--AAAAAAAAAAAA", "DEMO-AAAAAAAAAAAA", "demo AAAAAAAAAAAA", `${"a".repeat(40)}-AAAAAAAAAAAA`, "demo-AAAAAAAAAAA%"]) {
      expect(isAppSlug(bad), bad).toBe(false);
    }
  });
});
