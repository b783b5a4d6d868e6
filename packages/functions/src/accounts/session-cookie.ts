import type { HttpEvent } from "../middleware/http-context";

const PLAIN_NAME = "hangar_session";
/**
 * With https the cookie takes the `__Host-` prefix: browsers then only accept it with Secure,
 * Path=/ and no Domain, so no subdomain and no plain-http page can set or shadow it.
 */
const HOST_NAME = `__Host-${PLAIN_NAME}`;

export const isHttps = (publicBaseUrl: string) => publicBaseUrl.toLowerCase().startsWith("https://");
export const sessionCookieName = (publicBaseUrl: string) => (isHttps(publicBaseUrl) ? HOST_NAME : PLAIN_NAME);

function attributes(publicBaseUrl: string, maxAgeSeconds: number): string {
  // HttpOnly: no script reads it. SameSite=Lax: not sent on cross-site subrequests or POSTs.
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${isHttps(publicBaseUrl) ? "; Secure" : ""}`;
}

/** Lives until the session's absolute expiry; the idle expiry is enforced by the server. */
export function sessionCookie(publicBaseUrl: string, token: string, maxAgeSeconds: number): string {
  return `${sessionCookieName(publicBaseUrl)}=${token}; ${attributes(publicBaseUrl, Math.max(0, maxAgeSeconds))}`;
}

export function clearedSessionCookie(publicBaseUrl: string): string {
  return `${sessionCookieName(publicBaseUrl)}=; ${attributes(publicBaseUrl, 0)}`;
}

/** The session cookie's value from a payload v2 event (API Gateway splits cookies into `cookies`). */
export function readSessionCookie(event: HttpEvent, publicBaseUrl: string): string | undefined {
  const name = `${sessionCookieName(publicBaseUrl)}=`;
  const found = (event.cookies ?? []).find((c) => c.startsWith(name));
  return found?.slice(name.length);
}

/**
 * The device cookie (core's sessions/device-token.ts): HttpOnly, Secure and `__Host-` with https,
 * half a year. It opens nothing; sign-in reads it to know the browser signed in to the account before.
 */
const deviceCookieName = (publicBaseUrl: string) => (isHttps(publicBaseUrl) ? "__Host-hangar_device" : "hangar_device");

export function deviceCookie(publicBaseUrl: string, token: string, maxAgeSeconds: number): string {
  return `${deviceCookieName(publicBaseUrl)}=${token}; ${attributes(publicBaseUrl, maxAgeSeconds)}`;
}

export function readDeviceCookie(event: HttpEvent, publicBaseUrl: string): string | undefined {
  const name = `${deviceCookieName(publicBaseUrl)}=`;
  return (event.cookies ?? []).find((c) => c.startsWith(name))?.slice(name.length);
}
