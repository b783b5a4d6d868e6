import { iconLocation, resolveShare } from "@hangar/core";
import { getRuntime } from "../composition/root";
import { linkBases } from "../composition/link-bases";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";
import { renderSharePage } from "./share-page";

async function serve(event: HttpEvent): Promise<HttpResult> {
  const runtime = getRuntime();
  const shared = await resolveShare(runtime, event.pathParameters?.userKey);
  const icon = await iconLocation({ files: runtime.files, storage: runtime.signer }, shared, 3600);
  const { publicBaseUrl } = linkBases(event, runtime.settings);
  const html = renderSharePage(shared, {
    download: `${publicBaseUrl}/download/${shared.userKey}`,
    ...(icon ? { icon } : {}),
  });
  return {
    statusCode: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; img-src * data:; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
    body: html,
  };
}

export const handler = httpFunction("share", {
  "GET /share/{userKey}": { handler: serve },
  "HEAD /share/{userKey}": { handler: serve },
});
