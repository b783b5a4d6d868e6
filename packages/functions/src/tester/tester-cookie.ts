import { isHttps } from "../accounts/session-cookie";
import type { HttpEvent } from "../middleware/http-context";

/**
 * The tester portal's cookie (docs/testers.md): `hangar_tester`, apart from the dashboard's
 * `hangar_session`, so neither kind of session opens the other's routes. HttpOnly (no script reads
 * it), SameSite=Lax (not sent on cross-site subrequests or POSTs), Secure with https, Path=/ and no
 * Domain (host-only). One name on http and https, unlike the dashboard's `__Host-` one: the
 * installs function reads it by this name to count a portal install for its tester.
 */
export const TESTER_COOKIE = "hangar_tester";

function attributes(publicBaseUrl: string, maxAgeSeconds: number): string {
  return `Path=/; Max-Age=${Math.max(0, maxAgeSeconds)}; HttpOnly; SameSite=Lax${isHttps(publicBaseUrl) ? "; Secure" : ""}`;
}

export const testerCookie = (publicBaseUrl: string, value: string, maxAgeSeconds: number) =>
  `${TESTER_COOKIE}=${value}; ${attributes(publicBaseUrl, maxAgeSeconds)}`;

export const clearedTesterCookie = (publicBaseUrl: string) => `${TESTER_COOKIE}=; ${attributes(publicBaseUrl, 0)}`;

/** The cookie's value from a payload v2 event (API Gateway splits cookies into `cookies`); the last one wins like a browser's newest. */
export function readTesterCookie(event: HttpEvent): string | undefined {
  const name = `${TESTER_COOKIE}=`;
  const found = (event.cookies ?? []).filter((c) => c.startsWith(name)).pop();
  return found?.slice(name.length);
}
