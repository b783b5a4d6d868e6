import { createHash, createHmac, randomBytes, randomInt } from "node:crypto";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): every delivery carries
 * `webhook-id`, `webhook-timestamp` (epoch seconds) and `webhook-signature`, a space-separated
 * list of `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed by the base64-decoded
 * part of the `whsec_…` secret. Receivers verify with the specification's libraries
 * (npm `standardwebhooks`, and its ports to other languages); the tests do exactly that.
 *
 * The secret is stored (webhooks.dynamo.ts): HMAC needs the key itself to sign, so unlike API
 * secrets it cannot be kept as a hash. It is returned once, at create and rotation, and never
 * logged (the delivery worker logs endpoint ids, never their items).
 */

/** 32 random bytes: the specification asks for 24 to 64. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString("base64")}`;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (length: number) => Array.from({ length }, () => BASE62[randomInt(62)]).join("");

export const newWebhookId = () => `whk_${base62(16)}`;
/** Fixed-width base62 of a number (the alphabet is in ASCII order, so these sort like the numbers). */
function sortable(n: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++, n = Math.floor(n / 62)) out = BASE62[n % 62] + out;
  return out;
}

/**
 * A delivery's id, sent as `webhook-id` on every attempt so receivers can drop repeats: the time
 * in milliseconds (9 base62 characters, sortable, so the log lists newest first without another
 * key) and 15 random characters (≈ 89 bits).
 */
export const newDeliveryId = (now: Date) => `msg_${sortable(now.getTime(), 9)}${base62(15)}`;

function keyOf(secret: string): Buffer {
  if (!secret.startsWith("whsec_")) throw new Error("not a webhook secret");
  return Buffer.from(secret.slice("whsec_".length), "base64");
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * The three headers of one attempt. Several secrets sign at once during a rotation (the new one
 * and the previous one for 24 h), so a receiver still on the old secret keeps verifying.
 */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): SignedHeaders {
  const content = `${id}.${timestampSeconds}.${body}`;
  const signatures = secrets.map((secret) => `v1,${createHmac("sha256", keyOf(secret)).update(content, "utf8").digest("base64")}`);
  return { "webhook-id": id, "webhook-timestamp": String(timestampSeconds), "webhook-signature": signatures.join(" ") };
}

/**
 * The delivery id of an event to one endpoint, derived from both: a fan-out that runs twice (the
 * queue is at least once) makes the same delivery, not a second one with another id. The time
 * part is the event's, so the log still sorts by time.
 */
export function deliveryIdFor(eventJson: string, occurredAt: string, webhookId: string): string {
  const digest = createHash("sha256").update(`${webhookId}\n${eventJson}`).digest();
  const tail = Array.from(digest.subarray(0, 15), (byte) => BASE62[byte % 62]).join("");
  return `msg_${sortable(Date.parse(occurredAt), 9)}${tail}`;
}
