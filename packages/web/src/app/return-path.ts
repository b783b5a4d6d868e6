import type { AppPath } from "./paths";
import { sameOriginPath } from "./router";

/**
 * Where a person who signs up from a link (an invitation) goes once the account is ready. The
 * way there leaves this tab: the verification mail's link opens a new one, and that link is the
 * API's (it carries no `next`). So sign-up keeps the path in localStorage and the verify page
 * takes it back, once, within the verification link's 24 hours; only a same-origin path is
 * kept or given back (the same rule as `?next=`). Nothing secret: the invitation's token is in
 * the path, and it is useful only to the invited address.
 */

const KEY = "hangar.after-verify";
const LIFETIME_MS = 24 * 60 * 60 * 1000;

export function keepForAfterVerification(next: string | null | undefined) {
  const path = sameOriginPath(next);
  try {
    if (path) window.localStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage off: the person finds the invitation mail again after signing in.
  }
}

// Taken once per page load; a second ask (React's development double-render) gets the same answer.
let taken: { path: AppPath | undefined } | undefined;

export function takeAfterVerification(): AppPath | undefined {
  taken ??= { path: readAndForget() };
  return taken.path;
}

function readAndForget(): AppPath | undefined {
  try {
    const raw = window.localStorage.getItem(KEY);
    window.localStorage.removeItem(KEY);
    const kept = raw ? (JSON.parse(raw) as { path?: unknown; at?: unknown }) : undefined;
    if (!kept || typeof kept.path !== "string" || typeof kept.at !== "number" || Date.now() - kept.at > LIFETIME_MS) return undefined;
    return sameOriginPath(kept.path);
  } catch {
    return undefined;
  }
}
