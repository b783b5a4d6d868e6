import { randomInt } from "node:crypto";
import { expect } from "vitest";
import type { LocalStackInfo } from "../../packages/local/src/local-stack";

/**
 * A verified, signed-in account with a display name on a stack of a test's own (support/accounts.ts talks to the
 * run's shared stack): sign-up, the verification link from that stack's MailDev, sign-in. Its
 * personal workspace is where the test's data goes.
 */

export interface StackAccount {
  email: string;
  /** The session cookie (name=value), as the browser sends it back. */
  cookie: string;
  workspaceId: string;
  /** A dashboard request with this account's session (same Origin, JSON). */
  dash(method: string, path: string, body?: unknown): Promise<{ status: number; text: string; json: any; headers: Headers }>;
}

export async function accountOn(info: Pick<LocalStackInfo, "baseUrl" | "mailUrl">, label = "owner"): Promise<StackAccount> {
  const email = `${label}-${randomInt(1e9)}@hangar.test`;
  const password = "correct horse battery staple";
  let cookie = "";
  const dash = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${info.baseUrl}${path}`, {
      method,
      headers: { Origin: info.baseUrl, "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const set = res.headers.getSetCookie().find((c) => !/hangar_device=/.test(c));
    if (set && !/Max-Age=0/.test(set)) cookie = set.split(";")[0]!;
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json: json as any, headers: res.headers };
  };
  const signUp = await dash("POST", "/api/account/sign-up", { email, password });
  expect(signUp.status, signUp.text).toBe(202);
  let token: string | undefined;
  for (let waited = 0; !token && waited < 20_000; waited += 100) {
    const mails = (await (await fetch(`${info.mailUrl}/api/email`)).json()) as { to: { address: string }[]; text: string }[];
    token = mails
      .filter((m) => m.to.some((t) => t.address === email))
      .map((m) => /verify-email\?token=([A-Za-z0-9_-]{43})/.exec(m.text)?.[1])
      .find(Boolean);
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  expect(token, `no verification mail reached ${email}`).toBeDefined();
  const verified = await dash("POST", "/api/account/verify-email", { token });
  expect(verified.status, verified.text).toBe(200);
  const signedIn = await dash("POST", "/api/session", { email, password });
  expect(signedIn.status, signedIn.text).toBe(200);
  // The dashboard asks for a display name before anything else (docs/accounts.md).
  const profile = await dash("PUT", "/api/account/profile", { displayName: `${label[0]!.toUpperCase()}${label.slice(1)}` });
  expect(profile.status, profile.text).toBe(200);
  const workspaces = await dash("GET", "/api/workspaces");
  expect(workspaces.status, workspaces.text).toBe(200);
  const items = (workspaces.json.items ?? workspaces.json) as { workspaceId: string; personal: boolean }[];
  const personal = items.find((w) => w.personal)!;
  return { email, cookie, workspaceId: personal.workspaceId, dash };
}
