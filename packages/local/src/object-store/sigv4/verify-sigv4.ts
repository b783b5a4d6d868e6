import { timingSafeEqual } from "node:crypto";
import { S3Error, accessDenied, invalidArgument } from "../s3-error";
import {
  canonicalHeaderValue,
  canonicalQuery,
  canonicalUri,
  hmac,
  sha256Hex,
  signingKey,
  type QueryParam,
} from "./canonical";

export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
/** S3 caps presigned URLs at 7 days. */
const MAX_PRESIGNED_EXPIRES_SECONDS = 604_800;
const SERVICE = "s3";
const TERMINATOR = "aws4_request";

/** The parts of an incoming request a SigV4 signature covers, as received (path still percent-encoded). */
export interface SignedRequest {
  method: string;
  rawPath: string;
  query: readonly QueryParam[];
  /** Lower-case header name → every value received for it, in order. */
  headers: ReadonlyMap<string, readonly string[]>;
}

export interface SigV4Settings {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  now: Date;
}

export interface VerifiedRequest {
  kind: "header" | "presigned";
  /** The payload hash the signature covers: hex SHA-256, `UNSIGNED-PAYLOAD` or a `STREAMING-*` marker. */
  payloadHash: string;
  signedHeaders: readonly string[];
}

interface ParsedAuth {
  kind: "header" | "presigned";
  accessKeyId: string;
  scopeDate: string;
  scopeRegion: string;
  scopeService: string;
  scopeTerminator: string;
  signedHeaders: string[];
  signature: string;
  amzDate: string;
  /** Seconds; presigned only. */
  expires?: number;
  payloadHash: string;
}

/**
 * Verifies a request's AWS Signature Version 4 the way S3 does: recomputes the canonical request from what
 * was received (method, path, query, only the headers listed in SignedHeaders, declared payload hash),
 * signs it with the configured secret and compares in constant time. Also applies S3's time rules:
 * header-signed requests within 15 minutes of server time, presigned ones before X-Amz-Date + X-Amz-Expires.
 * Throws an S3Error shaped like S3's refusal; returns what the caller still has to enforce on the body.
 */
export function verifySigV4(request: SignedRequest, settings: SigV4Settings): VerifiedRequest {
  const auth = parseAuth(request);
  const malformed = (message: string, details?: Record<string, string>) =>
    auth.kind === "header"
      ? new S3Error(400, "AuthorizationHeaderMalformed", `The authorization header is malformed; ${message}`, details)
      : new S3Error(400, "AuthorizationQueryParametersError", message, details);

  if (auth.accessKeyId !== settings.credentials.accessKeyId) {
    throw new S3Error(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.", {
      AWSAccessKeyId: auth.accessKeyId,
    });
  }
  if (auth.scopeRegion !== settings.region) {
    throw malformed(`the region '${auth.scopeRegion}' is wrong; expecting '${settings.region}'`, {
      Region: settings.region,
    });
  }
  if (auth.scopeService !== SERVICE) {
    throw malformed(`incorrect service '${auth.scopeService}'. This endpoint belongs to '${SERVICE}'.`);
  }
  if (auth.scopeTerminator !== TERMINATOR) {
    throw malformed(`incorrect terminal '${auth.scopeTerminator}'. This endpoint uses '${TERMINATOR}'.`);
  }

  const signedAt = parseAmzDate(auth.amzDate);
  if (signedAt === undefined) {
    throw auth.kind === "header"
      ? accessDenied("AWS authentication requires a valid Date or x-amz-date header")
      : malformed(`X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd'T'HHmmss'Z'"`);
  }
  if (auth.scopeDate !== auth.amzDate.slice(0, 8)) {
    throw malformed("Invalid credential date. Date is not the same as X-Amz-Date.");
  }
  checkTime(auth, signedAt, settings.now);

  if (!auth.signedHeaders.includes("host")) {
    throw accessDenied("The host header must be signed.");
  }
  // S3 refuses x-amz-* headers the signature does not cover: they change what the request does.
  const unsigned = [...request.headers.keys()].filter((name) => name.startsWith("x-amz-") && !auth.signedHeaders.includes(name));
  if (unsigned.length > 0) {
    throw accessDenied("There were headers present in the request which were not signed", {
      HeadersNotSigned: unsigned.join(", "),
    });
  }

  const query = auth.kind === "presigned" ? request.query.filter((p) => p.name !== "X-Amz-Signature") : request.query;
  let uri: string;
  try {
    uri = canonicalUri(request.rawPath);
  } catch {
    throw new S3Error(400, "InvalidURI", "Couldn't parse the specified URI.");
  }
  const canonicalRequest = [
    request.method,
    uri,
    canonicalQuery(query),
    auth.signedHeaders.map((name) => `${name}:${canonicalHeaderValue(request.headers.get(name) ?? [])}\n`).join(""),
    auth.signedHeaders.join(";"),
    auth.payloadHash,
  ].join("\n");
  const scope = `${auth.scopeDate}/${auth.scopeRegion}/${auth.scopeService}/${auth.scopeTerminator}`;
  const stringToSign = [SIGV4_ALGORITHM, auth.amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = signingKey(settings.credentials.secretAccessKey, auth.scopeDate, auth.scopeRegion, auth.scopeService);
  const expected = hmac(key, stringToSign).toString("hex");

  if (!constantTimeEquals(expected, auth.signature.toLowerCase())) {
    throw new S3Error(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
      {
        AWSAccessKeyId: auth.accessKeyId,
        StringToSign: stringToSign,
        SignatureProvided: auth.signature,
        CanonicalRequest: canonicalRequest,
      },
    );
  }
  return { kind: auth.kind, payloadHash: auth.payloadHash, signedHeaders: auth.signedHeaders };
}

function constantTimeEquals(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  // Lengths are public (a SHA-256 HMAC is always 64 hex digits); only the contents must not leak via timing.
  return left.length === right.length && timingSafeEqual(left, right);
}

function checkTime(auth: ParsedAuth, signedAt: Date, now: Date): void {
  const serverTime = now.toISOString();
  if (auth.kind === "header") {
    if (Math.abs(now.getTime() - signedAt.getTime()) > MAX_CLOCK_SKEW_MS) {
      throw new S3Error(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.", {
        RequestTime: auth.amzDate,
        ServerTime: serverTime,
        MaxAllowedSkewMilliseconds: String(MAX_CLOCK_SKEW_MS),
      });
    }
    return;
  }
  const expiresAt = signedAt.getTime() + (auth.expires ?? 0) * 1000;
  if (now.getTime() > expiresAt) {
    throw accessDenied("Request has expired", {
      "X-Amz-Expires": String(auth.expires),
      Expires: new Date(expiresAt).toISOString(),
      ServerTime: serverTime,
    });
  }
  if (signedAt.getTime() - now.getTime() > MAX_CLOCK_SKEW_MS) {
    throw accessDenied("Request is not valid yet", { "X-Amz-Date": auth.amzDate, ServerTime: serverTime });
  }
}

function parseAuth(request: SignedRequest): ParsedAuth {
  const authorization = request.headers.get("authorization");
  const queryNames = new Set(request.query.map((p) => p.name));
  const presigned = queryNames.has("X-Amz-Algorithm") || queryNames.has("X-Amz-Signature") || queryNames.has("X-Amz-Credential");
  if (authorization !== undefined && presigned) {
    throw invalidArgument(
      "Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified",
    );
  }
  if (authorization !== undefined) return parseAuthorizationHeader(authorization, request);
  if (presigned) return parsePresignedQuery(request);
  if (queryNames.has("Signature") || queryNames.has("AWSAccessKeyId")) throw unsupportedMechanism();
  throw accessDenied();
}

const unsupportedMechanism = () =>
  new S3Error(
    400,
    "InvalidRequest",
    `The authorization mechanism you have provided is not supported. Please use ${SIGV4_ALGORITHM}.`,
  );

function parseAuthorizationHeader(values: readonly string[], request: SignedRequest): ParsedAuth {
  const malformed = (why: string) =>
    new S3Error(400, "AuthorizationHeaderMalformed", `The authorization header is malformed; ${why}`);
  const value = values.length === 1 ? values[0]!.trim() : "";
  if (!value.startsWith(`${SIGV4_ALGORITHM} `)) {
    if (/^AWS\s/.test(value) || value.startsWith("AWS4-")) throw unsupportedMechanism();
    throw invalidArgument("Unsupported Authorization Type");
  }
  const fields = new Map<string, string>();
  for (const part of value.slice(SIGV4_ALGORITHM.length).split(",")) {
    const eq = part.indexOf("=");
    if (eq !== -1) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get("Credential");
  const signedHeaders = fields.get("SignedHeaders");
  const signature = fields.get("Signature");
  if (!credential || !signedHeaders || !signature) {
    throw malformed("it must contain Credential, SignedHeaders and Signature.");
  }
  const scope = parseCredential(credential, malformed);

  const amzDate = single(request.headers.get("x-amz-date")) ?? httpDateToAmzDate(single(request.headers.get("date")));
  if (amzDate === undefined) throw accessDenied("AWS authentication requires a valid Date or x-amz-date header");

  const payloadHash = single(request.headers.get("x-amz-content-sha256"));
  if (payloadHash === undefined) {
    throw new S3Error(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
  }
  if (!isValidPayloadHash(payloadHash)) {
    throw invalidArgument(
      "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, a STREAMING-* value, or a valid sha256 value.",
      { ArgumentName: "x-amz-content-sha256", ArgumentValue: payloadHash },
    );
  }
  return {
    kind: "header",
    ...scope,
    signedHeaders: signedHeaders.split(";"),
    signature,
    amzDate,
    payloadHash,
  };
}

function parsePresignedQuery(request: SignedRequest): ParsedAuth {
  const param = (name: string) => {
    const matches = request.query.filter((p) => p.name === name);
    return matches.length === 1 ? matches[0]!.value : undefined;
  };
  const malformed = (message: string) => new S3Error(400, "AuthorizationQueryParametersError", message);
  const algorithm = param("X-Amz-Algorithm");
  const credential = param("X-Amz-Credential");
  const signature = param("X-Amz-Signature");
  const amzDate = param("X-Amz-Date");
  const signedHeaders = param("X-Amz-SignedHeaders");
  const expiresText = param("X-Amz-Expires");
  if (!algorithm || !credential || !signature || !amzDate || !signedHeaders || expiresText === undefined) {
    throw malformed(
      "Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.",
    );
  }
  if (algorithm !== SIGV4_ALGORITHM) {
    throw malformed(`X-Amz-Algorithm only supports "${SIGV4_ALGORITHM}"`);
  }
  if (!/^\d+$/.test(expiresText)) throw malformed("X-Amz-Expires should be a number");
  const expires = Number(expiresText);
  if (expires > MAX_PRESIGNED_EXPIRES_SECONDS) {
    throw malformed(`X-Amz-Expires must be less than a week (in seconds) that is ${MAX_PRESIGNED_EXPIRES_SECONDS}`);
  }
  const scope = parseCredential(credential, (why) => malformed(`Error parsing the X-Amz-Credential parameter; ${why}`));
  const signedHeaderList = signedHeaders.split(";");
  // A presigned URL normally covers an unsigned payload; a client may still pin a hash, by signed header or query.
  const headerHash = signedHeaderList.includes("x-amz-content-sha256")
    ? single(request.headers.get("x-amz-content-sha256"))
    : undefined;
  const queryHash = request.query.find((p) => p.name.toLowerCase() === "x-amz-content-sha256")?.value;
  const payloadHash = headerHash ?? queryHash ?? UNSIGNED_PAYLOAD;
  if (!isValidPayloadHash(payloadHash)) {
    throw invalidArgument("X-Amz-Content-Sha256 must be UNSIGNED-PAYLOAD or a valid sha256 value.");
  }
  return { kind: "presigned", ...scope, signedHeaders: signedHeaderList, signature, amzDate, expires, payloadHash };
}

function parseCredential(credential: string, malformed: (why: string) => S3Error) {
  const parts = credential.split("/");
  if (parts.length !== 5 || parts.some((p) => p === "")) {
    throw malformed("the Credential is mal-formed; expecting \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
  }
  const [accessKeyId, scopeDate, scopeRegion, scopeService, scopeTerminator] = parts as [string, string, string, string, string];
  return { accessKeyId, scopeDate, scopeRegion, scopeService, scopeTerminator };
}

export function isValidPayloadHash(value: string): boolean {
  return /^[0-9a-f]{64}$/i.test(value) || value === UNSIGNED_PAYLOAD || value.startsWith("STREAMING-");
}

function single(values: readonly string[] | undefined): string | undefined {
  return values?.length === 1 ? values[0] : undefined;
}

function parseAmzDate(text: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** SigV4 allows the HTTP `Date` header in place of x-amz-date; the string to sign then carries it in basic ISO form. */
function httpDateToAmzDate(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}
