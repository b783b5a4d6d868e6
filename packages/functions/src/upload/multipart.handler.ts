import { AbortMultipart, PartUrls, StartMultipart, abortMultipartUpload, parseInput, presignParts, startMultipartUpload } from "@hangar/core";
import { multipartDeps } from "../composition/multipart";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";

async function start(_event: HttpEvent, context: ContextFor<"apiKey">): Promise<HttpResult> {
  return json(200, await startMultipartUpload(multipartDeps(), context.apiKey, parseInput(StartMultipart, context.body)));
}

async function parts(_event: HttpEvent, context: ContextFor<"apiKey">): Promise<HttpResult> {
  return json(200, await presignParts(multipartDeps(), context.apiKey, parseInput(PartUrls, context.body)));
}

async function abort(_event: HttpEvent, context: ContextFor<"apiKey">): Promise<HttpResult> {
  await abortMultipartUpload(multipartDeps(), context.apiKey, parseInput(AbortMultipart, context.body));
  return { statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" };
}

export const handler = httpFunction(
  "multipart",
  {
    "POST /api/upload/api-key/multipart": { json: true, handler: start },
    "POST /api/upload/api-key/multipart/parts": { json: true, handler: parts },
    "DELETE /api/upload/api-key/multipart": { json: true, handler: abort },
  },
  { apiKey: apiKeyAuth(getRuntime) },
);
