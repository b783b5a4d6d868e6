import { header, type HttpEvent, type Middleware } from "./http-context";
import { CrossOriginRequestError } from "./http-errors";

export { CrossOriginRequestError };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for cookie-authenticated routes, as OWASP's cheat sheet and Lucia recommend
 * for SameSite=Lax cookies:
 * - the browser's `Origin` must be the dashboard's origin; a browser that sends none (older
 *   ones omit it on same-origin requests) must say `Sec-Fetch-Site: same-origin`. Neither header
 *   can be set by a page's script, and a request with neither is refused;
 * - the body must be declared `application/json`: a cross-site HTML form can only send
 *   urlencoded, multipart or text/plain, and a cross-site fetch with JSON needs a CORS
 *   preflight this API never grants.
 * Safe methods change nothing and pass. Runs before authentication and body parsing, so a
 * forged request learns nothing else.
 */
export function sameOriginGuard(expectedOrigin: (event: HttpEvent) => string): Middleware {
  return {
    before: ({ event }) => {
      const method = event.requestContext?.http?.method?.toUpperCase() ?? "GET";
      if (SAFE_METHODS.has(method)) return;
      const origin = header(event, "origin");
      if (origin !== undefined) {
        if (!sameOrigin(origin, expectedOrigin(event))) throw new CrossOriginRequestError();
      } else if (header(event, "sec-fetch-site")?.trim().toLowerCase() !== "same-origin") {
        throw new CrossOriginRequestError();
      }
      const contentType = header(event, "content-type")?.split(";")[0]?.trim().toLowerCase();
      if (contentType !== "application/json") {
        throw new CrossOriginRequestError("Send dashboard requests with Content-Type: application/json");
      }
    },
  };
}

// What a browser sends: scheme://host[:port] and nothing else. No userinfo, path, query or
// fragment: `http://user@host` or `http://host/x` parse to the host's origin, but no browser sends
// them, so a client that does is not a browser on the dashboard's page.
const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\\]+$/i;

/** Compares serialized origins (scheme, host, port; default ports dropped, host lower-cased). */
function sameOrigin(given: string, expected: string): boolean {
  if (given.length > 2048 || !ORIGIN_SHAPE.test(given)) return false;
  try {
    return new URL(given).origin === new URL(expected).origin;
  } catch {
    return false;
  }
}
