import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newDeliveryId, newWebhookSecret, signWebhook } from "../../src/webhooks";

/** Verified with the specification's reference library (npm `standardwebhooks`), not with our code. */
describe("Standard Webhooks signing", () => {
  const body = JSON.stringify({ type: "build.completed", timestamp: "2026-11-26T03:00:00.000Z", data: { appName: "Ünïcode <&>" } });

  it("makes secrets of 32 random bytes as whsec_ + base64", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("signs so that the reference verifier accepts the delivery, and rejects a changed body", () => {
    const secret = newWebhookSecret();
    const id = newDeliveryId(new Date());
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = signWebhook([secret], id, timestamp, body);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace("build", "bui1d"), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("signs with both secrets during a rotation: receivers on either one verify", () => {
    const [oldSecret, newSecret] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signWebhook([newSecret, oldSecret], "msg_x", Math.floor(Date.now() / 1000), body);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("makes delivery ids that sort by time", () => {
    const a = newDeliveryId(new Date("2026-11-26T03:00:00.000Z"));
    const b = newDeliveryId(new Date("2026-11-26T03:00:00.001Z"));
    const c = newDeliveryId(new Date("2027-01-01T00:00:00.000Z"));
    expect(a).toMatch(/^msg_[0-9A-Za-z]{24}$/);
    expect([c, b, a].sort()).toEqual([a, b, c]);
  });
});
