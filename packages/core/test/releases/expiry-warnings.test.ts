import { describe, expect, it } from "vitest";
import { expiryMarker, expiryWarningsDue } from "../../src/releases/expiry-warnings";

const NOW = new Date("2026-11-26T12:00:00Z");
const inDays = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString();

describe("expiryWarningsDue", () => {
  it("warns at 30, 7 and 1 days before an ad-hoc profile expires, once per threshold", () => {
    const build = { fileId: "f", profileKind: "ad-hoc", profileExpiresAt: inDays(29.5) };
    const first = expiryWarningsDue([build], new Set(), NOW);
    expect(first.map((w) => [w.kind, w.thresholdDays, w.daysLeft])).toEqual([["profile", 30, 30]]);
    const sent = new Set(first[0]!.settles.map((t) => expiryMarker("f", "profile", t)));
    expect(expiryWarningsDue([build], sent, NOW)).toEqual([]);
    const week = expiryWarningsDue([{ ...build, profileExpiresAt: inDays(6) }], sent, NOW);
    expect(week.map((w) => w.thresholdDays)).toEqual([7]);
  });

  it("sends only the tightest threshold reached and settles the wider ones", () => {
    const [w] = expiryWarningsDue([{ fileId: "f", profileKind: "development", profileExpiresAt: inDays(0.5) }], new Set(), NOW);
    expect(w).toMatchObject({ thresholdDays: 1, daysLeft: 1, settles: [30, 7, 1] });
  });

  it("never warns about App Store profiles, expired ones or builds without expiry", () => {
    expect(
      expiryWarningsDue(
        [
          { fileId: "a", profileKind: "app-store", profileExpiresAt: inDays(3) },
          { fileId: "b", profileKind: "ad-hoc", profileExpiresAt: inDays(-1) },
          { fileId: "c" },
        ],
        new Set(),
        NOW,
      ),
    ).toEqual([]);
  });

  it("warns one day before a share link expires", () => {
    expect(expiryWarningsDue([{ fileId: "l", linkExpiresAt: inDays(2) }], new Set(), NOW)).toEqual([]);
    expect(expiryWarningsDue([{ fileId: "l", linkExpiresAt: inDays(0.9) }], new Set(), NOW).map((w) => [w.kind, w.thresholdDays])).toEqual([["link", 1]]);
  });
});
