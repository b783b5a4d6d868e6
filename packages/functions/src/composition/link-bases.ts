import { timingSafeEqual } from "node:crypto";
import type { LinkBases } from "@hangar/core";
import type { HttpEvent } from "../middleware/http-context";
import { originSecret } from "./origin-secret";
import type { Settings } from "./settings.schema";

/** Set by CloudFront on every request to the API, with a secret only the stacks know. */
export const ORIGIN_VERIFY_HEADER = "x-hangar-origin-verify";
/** The Host the viewer sent to CloudFront, copied by a CloudFront Function (stacks/web-stack.ts). */
export const VIEWER_HOST_HEADER = "x-hangar-viewer-host";
/**
 * The viewer's IP address, set by the same CloudFront Function (API Gateway only sees CloudFront's).
 * The stacks name it in HANGAR_CLIENT_IP_HEADER; it counts only next to the origin secret.
 */
export const VIEWER_ADDRESS_HEADER = "x-hangar-viewer-address";

const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::\d{1,5})?$/i;

const header = (event: HttpEvent, name: string): string | undefined => {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((h) => h.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
};

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The host the person typed, when CloudFront says so. Behind the distribution API Gateway sees
 * its own execute-api domain, so links built from it would leave the dashboard's origin. The
 * header is trusted only next to the origin secret: anyone can call the execute-api URL directly
 * with a forged host, and links (mails included) must never point at a host a stranger chose.
 */
export function viewerHost(event: HttpEvent, settings: Pick<Settings, "HANGAR_ORIGIN_VERIFY_SECRET">): string | undefined {
  const secret = originSecret(settings);
  if (!secret || !sameSecret(header(event, ORIGIN_VERIFY_HEADER), secret)) return undefined;
  const host = header(event, VIEWER_HOST_HEADER)?.trim();
  return host && HOST.test(host) ? host.toLowerCase() : undefined;
}

/**
 * Configured bases win; otherwise links point back at the host the viewer used: the
 * distribution's (see viewerHost), else the API's own domain as API Gateway saw it.
 */
export function linkBases(event: HttpEvent, settings: Settings): LinkBases {
  const publicBaseUrl = settings.HANGAR_PUBLIC_URL ?? `https://${viewerHost(event, settings) ?? event.requestContext.domainName}`;
  return { publicBaseUrl, shareBaseUrl: settings.HANGAR_SHARE_BASE_URL ?? publicBaseUrl };
}
