import { contentDisposition, GENERIC_MEDIA_TYPE } from "@hangar/core";
import { downloadShared } from "@hangar/core/links";
import { linkVisitDeps } from "../composition/links";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";
import { record } from "../observability/metrics";
import { errorPage } from "./error-page";
import { htmlResult, isHead, shareBase, visitOf } from "./share-access";
import { renderNoticePage } from "./share-page";

const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/**
 * The stable download link handed out at complete. What is counted and what is refused is core's
 * (links/visit-link.ts, downloadShared); here only its answers: a counted download redirects to
 * the package's signed GET, a HEAD describes it, a link-preview bot gets a page that points to the
 * share page, a refusal is an error (410, 429) the envelope maps.
 */
async function serve(event: HttpEvent): Promise<HttpResult> {
  const download = await downloadShared(linkVisitDeps(), { ...visitOf(event), headOnly: isHead(event) });
  switch (download.kind) {
    case "described":
      // What the GET would deliver: S3 serves every package as octet-stream.
      return {
        statusCode: 200,
        headers: {
          "Content-Type": GENERIC_MEDIA_TYPE,
          "Content-Length": String(download.fileSize),
          "Content-Disposition": contentDisposition(download.fileName),
          "X-Content-Type-Options": "nosniff",
          ...NO_STORE,
        },
        body: "",
      };
    case "preview":
      return htmlResult(
        403,
        renderNoticePage("Open this link on your phone", "This is the download of a test build: it installs on a phone, not in a preview.", {
          href: `${shareBase(event)}/share/${download.userKey}`,
          label: "Go to the install page",
        }),
      );
    case "counted":
      record.download();
      return { statusCode: 302, headers: { Location: download.location, ...NO_STORE }, body: "" };
  }
}

export const handler = httpFunction(
  "download",
  {
    "GET /download/{userKey}": { handler: serve },
    "HEAD /download/{userKey}": { handler: serve },
  },
  {},
  { errorPage },
);
