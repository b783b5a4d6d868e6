import { contentDisposition, GENERIC_MEDIA_TYPE, packageLocation } from "@hangar/core";
import { isPreviewBot, utcDay } from "@hangar/core/links";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { getLinkRuntime } from "../links/link-runtime";
import { header, type HangarContext, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";
import { record } from "../observability/metrics";
import { clientOf, limitedResult, perClient, retryAfterOf } from "./client-limits";
import { gate, goneResult, htmlResult } from "./share-access";
import { renderNoticePage } from "./share-page";

/**
 * The stable link handed out at complete. Only a counted request gets a usable package URL (a
 * fresh short-lived presigned GET, so the link itself never expires and the bucket stays
 * private): each GET from a person is counted once, atomically, and only below the link's cap
 * and the client's own share of it (`downloadPerLink`). What is not counted gets no signed URL:
 * HEAD answers the download's headers with 200, a link-preview bot gets a page that points to
 * the share page, a refused download a 410 or 429.
 */
async function serve(event: HttpEvent, context: HangarContext): Promise<HttpResult> {
  const runtime = getRuntime();
  const now = runtime.clock.now();
  const gated = await gate(event, context.requestId, now);
  if (!gated.ok) return gated.result;
  const { link } = gated;
  const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
  if (event.requestContext.http.method === "HEAD") {
    // What the GET would deliver, described: S3 serves every package as octet-stream.
    return {
      statusCode: 200,
      headers: {
        "Content-Type": GENERIC_MEDIA_TYPE,
        "Content-Length": String(link.fileSize),
        "Content-Disposition": contentDisposition(link.fileName),
        "X-Content-Type-Options": "nosniff",
        ...noStore,
      },
      body: "",
    };
  }
  if (isPreviewBot(header(event, "user-agent"))) {
    const sharePage = `${linkBases(event, runtime.settings).shareBaseUrl}/share/${link.userKey}`;
    return htmlResult(403, renderNoticePage("Open this link on your phone", "This is the download of a test build: it installs on a phone, not in a preview.", { href: sharePage, label: "Go to the install page" }));
  }
  const perLink = runtime.limits.rule("downloadPerLink");
  const subject = `${link.userKey}:${clientOf(event)}`;
  const allowance = await perLink.hit(subject, now);
  if (!allowance.allowed) {
    return limitedResult(event, context.requestId, retryAfterOf(allowance, now), "This build was downloaded from your network as often as one network may today.");
  }
  const counted = await getLinkRuntime().links.countDownload(link.userKey, utcDay(now));
  if (counted !== "counted") {
    await perLink.refund(subject, now);
    return goneResult(event, context.requestId, counted);
  }
  record.download();
  const location = await packageLocation({ storage: runtime.signer }, link, runtime.upload.downloadExpiresSeconds);
  return { statusCode: 302, headers: { Location: location, ...noStore }, body: "" };
}

export const handler = httpFunction("download", {
  "GET /download/{userKey}": { handler: perClient("download", serve) },
  "HEAD /download/{userKey}": { handler: perClient("download", serve) },
});
