import type { IncomingMessage, ServerResponse } from "node:http";

/** Methods a browser may use cross-origin: the dashboard PUTs packages to presigned URLs and reads them back. */
const ALLOWED_METHODS = ["GET", "PUT", "HEAD"];
const EXPOSED_HEADERS = [
  "ETag",
  "x-amz-request-id",
  "x-amz-id-2",
  "Content-Length",
  "Content-Range",
  "Content-Type",
  "Content-Disposition",
  "Last-Modified",
  "Accept-Ranges",
];

/** Headers every answer carries so a browser on any origin can read it (presigned URLs are the access control). */
export function setCorsResponseHeaders(res: ServerResponse): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS.join(", "));
}

export type PreflightResult =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; status: number; code: string; message: string };

/** Answers a CORS preflight (unauthenticated, as browsers send it) like a bucket whose CORS rule allows any origin. */
export function evaluatePreflight(req: IncomingMessage): PreflightResult {
  const origin = req.headers.origin;
  const method = req.headers["access-control-request-method"];
  if (!origin || typeof method !== "string") {
    return {
      allowed: false,
      status: 400,
      code: "BadRequest",
      message: "Insufficient information. Origin request header needed.",
    };
  }
  if (!ALLOWED_METHODS.includes(method.toUpperCase())) {
    return {
      allowed: false,
      status: 403,
      code: "AccessForbidden",
      message: "CORSResponse: This CORS request is not allowed. The request method is not allowed by the CORS rule.",
    };
  }
  const headers: Record<string, string> = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": ALLOWED_METHODS.join(", "),
    "Access-Control-Max-Age": "3000",
    Vary: "Origin, Access-Control-Request-Headers, Access-Control-Request-Method",
  };
  const requested = req.headers["access-control-request-headers"];
  if (typeof requested === "string" && requested.trim() !== "") headers["Access-Control-Allow-Headers"] = requested;
  return { allowed: true, headers };
}
