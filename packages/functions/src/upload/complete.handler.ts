import { Complete, InvalidPackageError, completeUpload, parseInput } from "@hangar/core";
import { getRuntime, onInspection } from "../composition/root";
import { linkBases } from "../composition/link-bases";
import { httpRoute, json } from "../middleware/http-route";
import { record } from "../observability";

onInspection((stats) => {
  record.extractionTime(stats.durationMs);
  record.bytesRead(stats.bytesRead);
});

export const handler = httpRoute({ auth: true, json: true }, async (event, context) => {
  const runtime = getRuntime();
  const input = parseInput(Complete, context.body);
  try {
    const result = await completeUpload(
      { ...runtime, settings: runtime.upload },
      context.apiKey!,
      input,
      linkBases(event, runtime.settings),
    );
    record.uploadCompleted();
    return json(200, result);
  } catch (error) {
    if (error instanceof InvalidPackageError) record.uploadRejected(error.reason);
    throw error;
  }
});
