import { contentDisposition, GENERIC_MEDIA_TYPE } from "@hangar/core";
import type { Visit } from "@hangar/core/links";
import { clientInfo } from "../accounts/client-info";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { header, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { record } from "../observability/metrics";
import { pageCsp, renderNoticePage } from "./share-page";

/**
 * The HTTP side of share-link visiting: what a request says about its visitor, and the headers
 * and cookies of the answers. What a visitor may do is core's (links/visit-link.ts).
 */

export const LINK_COOKIE = "hangar_link";

/** Answers that hand out a package or its address: never cached, never a referrer to S3. */
export const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** What core answers a download of a build (share link, personal link, app page alike). */
export type DownloadAnswer =
  | { kind: "described"; fileSize: number; fileName: string }
  | { kind: "preview" }
  | { kind: "counted"; location: string };

/**
 * The one HTTP form of a download, whichever link it came through: a counted download redirects to
 * the package's signed GET (and is counted in the metrics), a HEAD describes what the GET would
 * deliver (S3 serves every package as octet-stream), a link-preview bot gets a page that points
 * back to `page` instead of the package.
 */
export function downloadResult<A extends DownloadAnswer>(answer: A, page: (preview: Extract<A, { kind: "preview" }>) => { href: string; label: string }): HttpResult {
  switch (answer.kind) {
    case "described":
      return {
        statusCode: 200,
        headers: {
          "Content-Type": GENERIC_MEDIA_TYPE,
          "Content-Length": String(answer.fileSize),
          "Content-Disposition": contentDisposition(answer.fileName),
          "X-Content-Type-Options": "nosniff",
          ...NO_STORE,
        },
        body: "",
      };
    case "preview":
      return htmlResult(403, renderNoticePage("Open this link on your phone", "This is the download of a test build: it installs on a phone, not in a preview.", page(answer as Extract<A, { kind: "preview" }>)));
    case "counted":
      record.download();
      return { statusCode: 302, headers: { Location: answer.location, ...NO_STORE }, body: "" };
  }
}

/** Browsers (Accept: text/html) get pages; programs (curl, CI) get the JSON envelope. */
export const wantsHtml = (event: HttpEvent) => /\btext\/html\b/.test(header(event, "accept") ?? "");

/** Headers of every HTML answer: no script (but the constant ones named by hash), no referrer, no indexing, no caching. */
export function htmlResult(statusCode: number, body: string, imageOrigins: string[] = [], extra: Partial<HttpResult> = {}, scriptHashes: string[] = []): HttpResult {
  return {
    statusCode,
    ...extra,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": pageCsp(imageOrigins, scriptHashes),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex, nofollow",
      ...(extra.headers ?? {}),
    },
    body,
  };
}

/** The proofs of the password a request carries: `?t=` (iOS's manifest and package fetches) and the link's cookies. */
function tokensOf(event: HttpEvent): string[] {
  const fromQuery = event.queryStringParameters?.t;
  const fromCookies = (event.cookies ?? []).filter((c) => c.startsWith(`${LINK_COOKIE}=`)).map((c) => c.slice(LINK_COOKIE.length + 1));
  return [...(fromQuery ? [fromQuery] : []), ...fromCookies].slice(0, 8);
}

/**
 * The visit as core's use cases take it: the key, the client the per-client rules count
 * (client-info.ts), its proofs and user agent. The app pages (apps function) read theirs with
 * their slug as the key.
 */
export function visitOf(event: HttpEvent, key: string | undefined = event.pathParameters?.userKey): Visit {
  return {
    userKey: key,
    client: clientInfo(event, getRuntime().settings).ip,
    tokens: tokensOf(event),
    userAgent: header(event, "user-agent"),
  };
}

/** A HEAD asks what the GET would answer, and counts nothing. */
export const isHead = (event: HttpEvent) => event.requestContext.http.method === "HEAD";

/**
 * Every address the share page and the manifest hand out is on the share host, the download
 * included: the link-password cookie is set there (host-only), so a download or manifest link on
 * the public host would arrive without it. The complete answer's `downloadUrl` stays on the
 * public base (the spec's field); both hosts serve `/download/*`.
 */
export const shareBase = (event: HttpEvent) => linkBases(event, getRuntime().settings).shareBaseUrl;

export const withToken = (url: string, token: string | undefined) => (token ? `${url}?t=${encodeURIComponent(token)}` : url);

/**
 * The cookie a right password earns: HttpOnly, one per path the link serves (the page and its
 * sub-resources, and the download), so it opens this link only.
 */
export function accessCookies(userKey: string, access: { token: string; maxAgeSeconds: number }, secure: boolean): string[] {
  return accessCookiesFor([`/share/${userKey}`, `/download/${userKey}`], access, secure);
}

/** The password's cookie for these paths (a share link's two; an app page's one, `/apps/<slug>`, which holds its files). */
export function accessCookiesFor(paths: string[], access: { token: string; maxAgeSeconds: number }, secure: boolean): string[] {
  const attributes = `Max-Age=${access.maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  return paths.map((path) => `${LINK_COOKIE}=${access.token}; Path=${path}; ${attributes}`);
}

/** A password form is a few dozen bytes; anything far larger is not one. */
const MAX_FORM_BYTES = 2048;

/** The password of a page's form (application/x-www-form-urlencoded); undefined when absent or not one. */
export function formPassword(event: HttpEvent): string | undefined {
  const raw = event.body ?? "";
  if (raw.length > MAX_FORM_BYTES * 2) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(raw, "base64").toString("utf8") : raw;
  if (text.length > MAX_FORM_BYTES) return undefined;
  const password = new URLSearchParams(text).get("password");
  return password && password.length <= 256 ? password : undefined;
}
