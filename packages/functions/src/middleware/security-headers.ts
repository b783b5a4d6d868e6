import type { Context } from "aws-lambda";
import type { HttpEvent, HttpResult } from "./http-context";

/**
 * Headers of every answer of the account API, errors included: it serves JSON only, so the
 * strictest policy holds (nothing may load, nothing may frame it), browsers must not sniff a
 * type, no URL leaks to other origins, and nothing personal is ever cached.
 */
export const ACCOUNT_API_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Cache-Control": "no-store",
};

type Handler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/**
 * Wraps a whole function (outside its middy stack) so the headers land on every answer,
 * including the error envelope's, which is built after every middleware's error hook has run.
 */
export function withSecurityHeaders(handler: Handler, extra?: (event: HttpEvent, result: HttpResult) => HttpResult): Handler {
  return async (event, context) => {
    const result = await handler(event, context);
    const finished = extra ? extra(event, result) : result;
    return { ...finished, headers: { ...finished.headers, ...ACCOUNT_API_HEADERS } };
  };
}
