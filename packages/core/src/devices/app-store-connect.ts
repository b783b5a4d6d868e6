import { createPrivateKey, sign, type KeyObject } from "node:crypto";
import type { AppleDeviceRegistry, AppleRegistrationOutcome } from "../ports/apple-device-registry.port";
import type { Clock } from "../ports/clock.port";
// The one rule for a device's name at Apple (one line, at most 50 characters), the import file's too.
import { appleDeviceName } from "./device-admin";

/**
 * The App Store Connect API as the AppleDeviceRegistry (docs/devices.md, "Register with Apple"):
 * `POST /v1/devices` with a JSON:API body, authorized by an ES256 JSON Web Token that the team's
 * API key (issuer id, key id, the `.p8` private key) signs.
 *
 * The token is made with node:crypto, not a JWT library: one header, four claims and one ECDSA
 * signature are all Apple asks for, and node signs P-256 in the JOSE form (r‖s, 64 bytes) when
 * told `dsaEncoding: "ieee-p1363"` (its default, DER, is what a JWT must not carry). A library
 * would add a dependency to the one function that holds the key, for ten lines.
 *
 * Apple allows a token at most 20 minutes of life; ours live 15 and are reused until a minute
 * before they end, so registering a page of devices signs once. Apple's answers are outcomes,
 * never thrown: 201 registered; 409 "already exists on this team" already (its Apple id looked up
 * by UDID, so the dashboard can show it); anything else failed with Apple's own `detail`.
 */

export const APP_STORE_CONNECT_URL = "https://api.appstoreconnect.apple.com";
export const APP_STORE_CONNECT_AUDIENCE = "appstoreconnect-v1";
/** Seconds a token lives (Apple refuses more than 1,200). */
export const TOKEN_LIFETIME_SECONDS = 900;
/** How long one call to Apple may take before the device is reported as failed. */
const REQUEST_TIMEOUT_MS = 8_000;

export interface AppStoreConnectKey {
  issuerId: string;
  keyId: string;
  /** The `.p8` file's contents (a PKCS#8 PEM of a P-256 key). */
  privateKeyPem: string;
}

export interface AppStoreConnectOptions {
  /** Read once, when the first device is registered (Secrets Manager on AWS, a file locally). */
  key: () => Promise<AppStoreConnectKey>;
  clock: Clock;
  /** Apple's API; another base only on the local stack (its tests' fake, docs/devices.md). */
  baseUrl?: string;
  fetch?: typeof fetch;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** An ES256 token for the App Store Connect API: exported for the tests' fake, which checks exactly this shape. */
export function appStoreConnectToken(key: { issuerId: string; keyId: string; privateKey: KeyObject }, nowSeconds: number, lifetimeSeconds = TOKEN_LIFETIME_SECONDS): string {
  const header = base64url(JSON.stringify({ alg: "ES256", kid: key.keyId, typ: "JWT" }));
  const claims = base64url(JSON.stringify({ iss: key.issuerId, iat: nowSeconds, exp: nowSeconds + lifetimeSeconds, aud: APP_STORE_CONNECT_AUDIENCE }));
  const signature = sign("sha256", Buffer.from(`${header}.${claims}`), { key: key.privateKey, dsaEncoding: "ieee-p1363" });
  return `${header}.${claims}.${base64url(signature)}`;
}

interface AppleErrors {
  errors?: { status?: string; code?: string; title?: string; detail?: string }[];
}

/** Apple's words for a refusal, bounded: they are shown in the dashboard as they are. */
function appleMessage(status: number, body: AppleErrors | undefined): string {
  const error = body?.errors?.[0];
  const text = error?.detail ?? error?.title;
  if (status === 401) return "App Store Connect refused the API key (401): check the issuer id, the key id and the .p8 key of the stage.";
  if (status === 403) return `App Store Connect did not allow it (403)${text ? `: ${text}` : ""}. The API key needs the Admin or Developer role.`;
  return (text ? `${text} (${status})` : `App Store Connect answered ${status}`).slice(0, 300);
}

const isAlreadyThere = (body: AppleErrors | undefined) => (body?.errors ?? []).some((e) => /already exists/i.test(`${e.detail ?? ""} ${e.title ?? ""}`));

export class AppStoreConnectRegistry implements AppleDeviceRegistry {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private signer: Promise<{ issuerId: string; keyId: string; privateKey: KeyObject }> | undefined;
  private token: { value: string; expiresAt: number } | undefined;

  constructor(private readonly options: AppStoreConnectOptions) {
    this.baseUrl = (options.baseUrl ?? APP_STORE_CONNECT_URL).replace(/\/+$/, "");
    this.fetch = options.fetch ?? fetch;
  }

  async register(device: { name: string; udid: string }): Promise<AppleRegistrationOutcome> {
    const body = { data: { type: "devices", attributes: { name: appleDeviceName(device.name), udid: device.udid, platform: "IOS" } } };
    // Outside the try: a key that cannot be read fails the whole request (503), not each device.
    const token = await this.bearer();
    let answer: { status: number; body: unknown };
    try {
      answer = await this.call(token, "POST", "/v1/devices", body);
    } catch (error) {
      return { kind: "failed", message: `App Store Connect could not be reached (${error instanceof Error ? error.name : "error"}); try again.` };
    }
    if (answer.status === 201) {
      const id = (answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      return typeof id === "string" ? { kind: "registered", appleDeviceId: id } : { kind: "failed", message: "App Store Connect answered 201 without the device's id" };
    }
    const errors = answer.body as AppleErrors | undefined;
    if (answer.status === 409 && isAlreadyThere(errors)) return { kind: "already", appleDeviceId: await this.lookup(token, device.udid) };
    return { kind: "failed", message: appleMessage(answer.status, errors) };
  }

  /** Apple's id of a device already in the account, by UDID; null when the lookup fails (the outcome stays `already`). */
  private async lookup(token: string, udid: string): Promise<string | null> {
    try {
      const found = await this.call(token, "GET", `/v1/devices?${new URLSearchParams({ "filter[udid]": udid, limit: "1" })}`);
      const id = (found.body as { data?: { id?: unknown }[] } | undefined)?.data?.[0]?.id;
      return found.status === 200 && typeof id === "string" ? id : null;
    } catch {
      return null;
    }
  }

  private async bearer(): Promise<string> {
    const now = Math.floor(this.options.clock.now().getTime() / 1000);
    if (this.token && this.token.expiresAt - 60 > now) return this.token.value;
    this.signer ??= this.options.key().then((key) => ({ issuerId: key.issuerId, keyId: key.keyId, privateKey: createPrivateKey(key.privateKeyPem) }));
    let signer: Awaited<typeof this.signer>;
    try {
      signer = await this.signer;
    } catch (error) {
      // Not cached: a key that could not be read is read again by the next request.
      this.signer = undefined;
      throw error;
    }
    this.token = { value: appStoreConnectToken(signer, now), expiresAt: now + TOKEN_LIFETIME_SECONDS };
    return this.token.value;
  }

  private async call(token: string, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await this.fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      redirect: "error",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed };
  }
}
