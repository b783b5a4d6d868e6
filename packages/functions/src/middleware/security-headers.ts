import type { HttpResult, Middleware } from "./http-context";

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

const withHeaders = (response: HttpResult | null): HttpResult | null =>
  response && { ...response, headers: { ...response.headers, ...ACCOUNT_API_HEADERS } };

/**
 * The dashboard routes' headers (route-input/ kind `dashboard`), on success and error answers
 * alike: http-function.ts runs a route's after/onError hooks outside the envelope, so they see
 * the finished answer, the error envelope's included.
 *
 * Not @middy/http-security-headers: it sets Content-Security-Policy on HTML answers only (these
 * are JSON, errors included, and must carry it), adds a dozen other headers by default that
 * would each have to be switched off to keep this contract, and has no Cache-Control; these four
 * headers are the whole policy.
 */
export function dashboardHeaders(): Middleware {
  return {
    after: (request) => {
      request.response = withHeaders(request.response);
    },
    onError: (request) => {
      request.response = withHeaders(request.response);
    },
  };
}
