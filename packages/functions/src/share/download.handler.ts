import { packageLocation } from "@hangar/core";
import { isPreviewBot, utcDay } from "@hangar/core/links";
import { getRuntime } from "../composition/root";
import { getLinkRuntime } from "../links/link-runtime";
import { header, type HangarContext, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";
import { record } from "../observability/metrics";
import { gate, goneResult } from "./share-access";

/**
 * The stable link handed out at complete: always answers with a fresh short-lived presigned GET,
 * so the link itself never expires and the bucket stays private. Each GET from a person (not HEAD,
 * not a link-preview bot) is counted once, atomically, and only below the link's cap: a download
 * the cap refuses gets a 410, never a signed URL.
 */
async function serve(event: HttpEvent, context: HangarContext): Promise<HttpResult> {
  const runtime = getRuntime();
  const now = runtime.clock.now();
  const gated = await gate(event, context.requestId, now);
  if (!gated.ok) return gated.result;
  const { link } = gated;
  if (event.requestContext.http.method === "GET" && !isPreviewBot(header(event, "user-agent"))) {
    const counted = await getLinkRuntime().links.countDownload(link.userKey, utcDay(now));
    if (counted !== "counted") return goneResult(event, context.requestId, counted);
    record.download();
  }
  const location = await packageLocation({ storage: runtime.signer }, link, runtime.upload.downloadExpiresSeconds);
  return { statusCode: 302, headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }, body: "" };
}

export const handler = httpFunction("download", {
  "GET /download/{userKey}": { handler: serve },
  "HEAD /download/{userKey}": { handler: serve },
});
