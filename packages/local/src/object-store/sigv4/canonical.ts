import { createHash, createHmac } from "node:crypto";

/** RFC 3986 encoding as SigV4 requires: everything but unreserved characters is percent-encoded, upper-case hex. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface QueryParam {
  name: string;
  value: string;
}

/**
 * Splits a raw query string into decoded pairs, keeping order and duplicates. `+` stays a literal plus:
 * SigV4 clients encode spaces as `%20`, and reading `+` as a space would make the canonical query differ
 * from the one the client signed.
 */
export function parseQuery(rawQuery: string): QueryParam[] {
  const params: QueryParam[] = [];
  for (const part of rawQuery.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? "" : part.slice(eq + 1);
    params.push({ name: safeDecode(rawName), value: safeDecode(rawValue) });
  }
  return params;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Canonical query string: pairs re-encoded, sorted by name then value (code-unit order of the encoded form). */
export function canonicalQuery(params: readonly QueryParam[]): string {
  return params
    .map(({ name, value }) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/**
 * Canonical URI for service `s3`: each segment URI-encoded ONCE (other services double-encode) and the path
 * NOT normalised — `.`/`..`/empty segments are part of S3 keys. Segments are decoded and re-encoded so an
 * equivalent spelling (`%7e` vs `~`, lower-case hex) canonicalises the same way it does on S3.
 * Throws URIError on malformed percent-encoding; callers reject such paths before verifying.
 */
export function canonicalUri(rawPath: string): string {
  if (rawPath === "") return "/";
  return rawPath
    .split("/")
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join("/");
}

/** Header value as SigV4 canonicalises it: each value trimmed with inner whitespace runs collapsed; repeats joined by commas. */
export function canonicalHeaderValue(values: readonly string[]): string {
  return values.map((value) => value.trim().replace(/\s+/g, " ")).join(",");
}

export function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac("sha256", key).update(data, "utf8").digest();
}

export function signingKey(secretAccessKey: string, date: string, region: string, service: string): Buffer {
  const kDate = hmac(`AWS4${secretAccessKey}`, date);
  const kRegion = hmac(kDate, region);
  const kService = hmac(kRegion, service);
  return hmac(kService, "aws4_request");
}
