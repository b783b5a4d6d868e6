import { randomInt } from "node:crypto";
import { expect } from "vitest";
import { call, stack, type Reply } from "./api";

/** A fresh client address per caller (the stack trusts this header in tests: global-setup.ts). */
export const newClientIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
export const uniqueEmail = (label = "user") => `${label}-${randomInt(1e9)}@hangar.test`;
export const PASSWORD = "correct horse battery staple";

export interface Browser {
  ip: string;
  /** The session cookie as a browser would send it back (name=value). */
  cookie?: string;
  /** The device cookie a sign-in leaves (name=value), sent back beside the session cookie. */
  device?: string;
}

export const browser = (): Browser => ({ ip: newClientIp() });

/**
 * A dashboard request as the browser makes it: same Origin, JSON, the cookie it holds; keeps
 * the cookie the answer sets or clears.
 */
export async function dash(b: Browser, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const reply = await call(path, {
    method,
    headers: {
      Origin: stack().baseUrl,
      "Content-Type": "application/json",
      "X-Hangar-Test-Client-Ip": b.ip,
      ...(b.cookie || b.device ? { Cookie: [b.cookie, b.device].filter(Boolean).join("; ") } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body } : {}),
  });
  for (const set of reply.headers.getSetCookie()) {
    const [pair] = set.split(";");
    const slot = /^(__Host-)?hangar_device=/.test(pair!) ? "device" : "cookie";
    if (/Max-Age=0/.test(set)) delete b[slot];
    else b[slot] = pair;
  }
  return reply;
}

interface MailDevMessage {
  to: { address: string }[];
  subject: string;
  text: string;
  html: string;
  date: string;
}

/**
 * Every mail MailDev caught for this address, oldest first (its REST API: GET /api/email). Account
 * mails are sent after the answer (a background step), so `atLeast` waits until that many arrived.
 */
export async function mailsTo(address: string, atLeast = 0): Promise<MailDevMessage[]> {
  for (let waited = 0; ; waited += 50) {
    const res = await fetch(`${stack().mailUrl}/api/email`);
    expect(res.status).toBe(200);
    const all = (await res.json()) as MailDevMessage[];
    const mine = all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
    if (mine.length >= atLeast || waited >= 20_000) return mine;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The token of the newest link to `page` in this address's mail, once at least `count` such
 * mails arrived (they are sent after the answer).
 */
export async function linkToken(address: string, page: "verify-email" | "reset-password", count = 1): Promise<string> {
  const link = new RegExp(`${stack().baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/${page}\\?token=([A-Za-z0-9_-]{43})`);
  for (let waited = 0; ; waited += 50) {
    const tokens = (await mailsTo(address)).map((mail) => link.exec(mail.text)?.[1]).filter((t): t is string => t !== undefined);
    if (tokens.length >= count) return tokens.at(-1)!;
    if (waited >= 20_000) throw new Error(`no ${page} link mailed to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sign-up and verification through the API and MailDev; returns the address. */
export async function verifiedAccount(b: Browser, email = uniqueEmail(), password = PASSWORD): Promise<string> {
  const signUp = await dash(b, "POST", "/api/account/sign-up", { email, password });
  expect(signUp.status, signUp.text).toBe(202);
  const verify = await dash(b, "POST", "/api/account/verify-email", { token: await linkToken(email, "verify-email") });
  expect(verify.status, verify.text).toBe(200);
  return email;
}

export async function signedIn(b: Browser = browser()): Promise<{ b: Browser; email: string }> {
  const email = await verifiedAccount(b);
  const reply = await dash(b, "POST", "/api/session", { email, password: PASSWORD });
  expect(reply.status, reply.text).toBe(200);
  return { b, email };
}
