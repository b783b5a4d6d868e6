import type { RateLimitDecision } from "@hangar/core";
import type { RateRuleName } from "@hangar/core/rate-rules";
import { clientInfo } from "../accounts/client-info";
import { getRuntime } from "../composition/root";
import type { HangarContext, HttpEvent, HttpResult } from "../middleware/http-context";
import { json } from "../middleware/http-function";
import { htmlResult, wantsHtml } from "./share-access";
import { renderNoticePage } from "./share-page";

/** The client address the per-client rules count (client-info.ts: a trusted proxy's header, IPv6 per /64). */
export const clientOf = (event: HttpEvent) => clientInfo(event, getRuntime().settings).ip;

/** Seconds until the refusing window ends, at least one. */
export const retryAfterOf = (decision: RateLimitDecision, now: Date) => Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000));

const waitText = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : minutes < 120 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${Math.ceil(minutes / 60)} hours`;
};

/** 429 with Retry-After: a page for browsers, the JSON envelope (`rate_limited`) for programs. */
export function limitedResult(event: HttpEvent, requestId: string, retryAfterSeconds: number, message: string): HttpResult {
  const headers = { "Retry-After": String(retryAfterSeconds), "Referrer-Policy": "no-referrer" };
  if (wantsHtml(event)) {
    return htmlResult(429, renderNoticePage("Too many requests", `${message} Try again in ${waitText(retryAfterSeconds)}.`), [], { headers });
  }
  return json(429, { error: { code: "rate_limited", message: `${message} Retry after ${retryAfterSeconds} s.`, requestId } }, headers);
}

type Handler = (event: HttpEvent, context: HangarContext) => Promise<HttpResult>;

/**
 * A public route behind the per-client rule `rule` (issue 16: share page, QR, icon, manifest,
 * download). Counted before the route does anything, so a refused request counts no download
 * or install and reads nothing: a client over its limit gets the 429 and nothing else.
 */
export function perClient(rule: Extract<RateRuleName, "sharePage" | "download">, handler: Handler): Handler {
  return async (event, context) => {
    const now = getRuntime().clock.now();
    const decision = await getRuntime().limits.rule(rule).hit(clientOf(event), now);
    if (decision.allowed) return handler(event, context);
    return limitedResult(event, context.requestId, retryAfterOf(decision, now), "Too many requests from your network.");
  };
}
