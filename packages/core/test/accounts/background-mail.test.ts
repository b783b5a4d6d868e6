import { describe, expect, it } from "vitest";
import { accountMailTaskOf, deviceOf, signDeviceToken, DEVICE_COOKIE_SECONDS, newDeviceKey } from "../../src/accounts";

describe("the background step's payload", () => {
  const base = { email: "ada@example.com", publicBaseUrl: "https://hangar.example" };
  it("accepts the three kinds, a sign-up with the account it created", () => {
    expect(accountMailTaskOf({ kind: "password-reset", ...base })).toEqual({ kind: "password-reset", ...base });
    expect(accountMailTaskOf({ kind: "resend-verification", ...base })).toEqual({ kind: "resend-verification", ...base });
    expect(accountMailTaskOf({ kind: "sign-up", ...base, userId: "usr_abc123" })).toEqual({ kind: "sign-up", ...base, userId: "usr_abc123" });
  });

  it.each([
    [null],
    [{ kind: "purge", ...base }],
    [{ kind: "password-reset", email: 42, publicBaseUrl: base.publicBaseUrl }],
    [{ kind: "password-reset", email: base.email, publicBaseUrl: "javascript:alert(1)" }],
    [{ kind: "password-reset", email: base.email, publicBaseUrl: "https://evil.example/path" }],
    [{ kind: "password-reset", ...base, userId: "usr_abc" }],
    [{ kind: "sign-up", ...base, userId: "../usr" }],
  ])("refuses %j", (raw) => {
    expect(accountMailTaskOf(raw)).toBeUndefined();
  });
});

describe("device cookies", () => {
  const user = { userId: "usr_ada", deviceKey: newDeviceKey() };
  const now = new Date("2026-11-25T12:00:00Z");
  it("name a device of this account until they expire", () => {
    const token = signDeviceToken(user.deviceKey, user.userId, now, "d".repeat(22));
    expect(deviceOf(user, token, now)).toBe("d".repeat(22));
    expect(deviceOf(user, token, new Date(now.getTime() + (DEVICE_COOKIE_SECONDS - 1) * 1000))).toBe("d".repeat(22));
    expect(deviceOf(user, token, new Date(now.getTime() + DEVICE_COOKIE_SECONDS * 1000))).toBeUndefined();
  });

  it("are worthless for another account, under another key, or changed", () => {
    const token = signDeviceToken(user.deviceKey, user.userId, now);
    expect(deviceOf({ userId: "usr_bob", deviceKey: user.deviceKey }, token, now)).toBeUndefined();
    expect(deviceOf({ ...user, deviceKey: newDeviceKey() }, token, now)).toBeUndefined();
    const [id, device, expires, mac] = token.split(".") as [string, string, string, string];
    expect(deviceOf(user, [id, device, String(Number(expires) + 1), mac].join("."), now)).toBeUndefined();
    expect(deviceOf(user, undefined, now)).toBeUndefined();
    expect(deviceOf({ userId: user.userId }, token, now)).toBeUndefined();
  });
});
