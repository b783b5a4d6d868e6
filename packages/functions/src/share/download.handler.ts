import { downloadShared } from "@hangar/core/links";
import { linkVisitDeps } from "../composition/links";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";
import { errorPage } from "./error-page";
import { downloadResult, isHead, shareBase, visitOf } from "./share-access";

/**
 * The stable download link handed out at complete. What is counted and what is refused is core's
 * (links/visit-link.ts, downloadShared); here only its answers: a counted download redirects to
 * the package's signed GET, a HEAD describes it, a link-preview bot gets a page that points to the
 * share page, a refusal is an error (410, 429) the envelope maps.
 */
async function serve(event: HttpEvent): Promise<HttpResult> {
  const download = await downloadShared(linkVisitDeps(), { ...visitOf(event), headOnly: isHead(event) });
  return downloadResult(download, (preview) => ({ href: `${shareBase(event)}/share/${preview.userKey}`, label: "Go to the install page" }));
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
