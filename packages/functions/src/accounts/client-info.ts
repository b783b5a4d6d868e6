import { isIP } from "node:net";
import type { ClientInfo } from "@hangar/core/accounts";
import { ORIGIN_VERIFY_HEADER, sameSecret } from "../composition/link-bases";
import { originSecret } from "../composition/origin-secret";
import type { Settings } from "../composition/settings.schema";
import { header, type HttpEvent } from "../middleware/http-context";

/**
 * An address from a header: `ip`, `ip:port`, `[v6]:port`, or the last of a comma list. With
 * `alwaysPort` (CloudFront-Viewer-Address, which is always `ip:port`, IPv6 unbracketed as in
 * `2001:db8::1:443`), the last `:port` is cut first: `2001:db8::1:443` is itself a valid IPv6.
 */
function parseAddress(raw: string | undefined, alwaysPort = false): string | undefined {
  if (!raw || raw.length > 512) return undefined;
  const last = raw.split(",").pop()!.trim();
  if (alwaysPort) {
    const m = /^\[?([0-9a-fA-F:.]+?)\]?:\d{1,5}$/.exec(last);
    return m && isIP(m[1]!) ? m[1] : undefined;
  }
  if (isIP(last)) return last;
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::\d+)?$/.exec(last);
  if (bracketed && isIP(bracketed[1]!) === 6) return bracketed[1];
  const withPort = /^(.+):\d{1,5}$/.exec(last);
  return withPort && isIP(withPort[1]!) ? withPort[1] : undefined;
}

/** The first four groups of an IPv6 address: one subscriber usually holds a whole /64. */
function ipv6Prefix64(address: string): string {
  const [head, tail = ""] = address.toLowerCase().split("::") as [string, string?];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  const groups = (parts: string[]) => parts.reduce((n, p) => n + (p.includes(".") ? 2 : 1), 0);
  const zeros = address.includes("::") ? Array(Math.max(0, 8 - groups(left) - groups(right))).fill("0") : [];
  const full = [...left, ...zeros, ...right];
  return `${full.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

type OriginSettings = Partial<Pick<Settings, "HANGAR_ORIGIN_VERIFY_SECRET" | "HANGAR_ORIGIN_VERIFY_SECRET_ARN">>;

/** Behind CloudFront (an origin secret set, plain or from Secrets Manager), only a request carrying the secret came through it. */
function cameThroughProxy(event: HttpEvent, settings: OriginSettings): boolean {
  if (!settings.HANGAR_ORIGIN_VERIFY_SECRET && !settings.HANGAR_ORIGIN_VERIFY_SECRET_ARN) return true;
  // With an ARN whose value was not fetched (yet), nothing is trusted.
  const secret = originSecret(settings);
  return secret !== undefined && sameSecret(header(event, ORIGIN_VERIFY_HEADER), secret);
}

/**
 * Who is calling, for the per-client rate limits and the session list. By default the address
 * API Gateway saw. Behind a proxy that names the client in a header (CloudFront's
 * `cloudfront-viewer-address`), HANGAR_CLIENT_IP_HEADER names that header. When the stage has an
 * origin secret (HANGAR_ORIGIN_VERIFY_SECRET, or its Secrets Manager ARN), the header counts only on requests that carry it,
 * so a direct call to the execute-api URL cannot pick its own address.
 * IPv6 clients are counted per /64.
 */
export function clientInfo(event: HttpEvent, settings: Pick<Settings, "HANGAR_CLIENT_IP_HEADER"> & OriginSettings): ClientInfo {
  const trusted = settings.HANGAR_CLIENT_IP_HEADER && cameThroughProxy(event, settings);
  const configured = trusted ? parseAddress(header(event, settings.HANGAR_CLIENT_IP_HEADER!), /^cloudfront-viewer-address$/i.test(settings.HANGAR_CLIENT_IP_HEADER!)) : undefined;
  const address = configured ?? parseAddress(event.requestContext?.http?.sourceIp) ?? "unknown";
  const ip = isIP(address) === 6 && !address.toLowerCase().startsWith("::ffff:") ? ipv6Prefix64(address) : address.replace(/^::ffff:/i, "");
  const userAgent = header(event, "user-agent")?.slice(0, 256);
  return { ip, ...(userAgent ? { userAgent } : {}) };
}
