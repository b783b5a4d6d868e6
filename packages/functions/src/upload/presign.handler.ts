import { Presign, parseInput, presignUpload } from "@hangar/core";
import { presignDeps } from "../composition/presign";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";

async function presign(_event: HttpEvent, context: ContextFor<"apiKey">): Promise<HttpResult> {
  const input = parseInput(Presign, context.body);
  return json(200, await presignUpload(presignDeps(), context.apiKey, input));
}

export const handler = httpFunction(
  "presign",
  { "POST /api/upload/api-key/presign": { json: true, handler: presign } },
  { apiKey: apiKeyAuth(getRuntime) },
);
