import type { RouteKeyOf } from "../routes";
import { page, shareKey, type RouteInput } from "./rows";

/** The share function's routes (routes.ts). */
export const input = {
  "GET /share/{userKey}": page(shareKey),
  "HEAD /share/{userKey}": page(shareKey),
  // The password form is form-encoded, not JSON: the share function reads it itself.
  "POST /share/{userKey}": page(shareKey),
  "GET /share/{userKey}/manifest.plist": page(shareKey),
  "HEAD /share/{userKey}/manifest.plist": page(shareKey),
  "GET /share/{userKey}/qr.svg": page(shareKey),
  "HEAD /share/{userKey}/qr.svg": page(shareKey),
  "GET /share/{userKey}/icon.png": page(shareKey),
  "HEAD /share/{userKey}/icon.png": page(shareKey),
} as const satisfies Record<RouteKeyOf<"share">, RouteInput>;
