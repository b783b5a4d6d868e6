import { Presign, parseInput, presignUpload } from "@hangar/core";
import { getRuntime } from "../composition/root";
import { httpRoute, json } from "../middleware/http-route";

export const handler = httpRoute({ auth: true, json: true }, async (_event, context) => {
  const runtime = getRuntime();
  const input = parseInput(Presign, context.body);
  return json(200, await presignUpload({ ...runtime, storage: runtime.signer, settings: runtime.upload }, context.apiKey!, input));
});
