import { Complete, InvalidPackageError, completeUpload, parseInput } from "@hangar/core";
import { getPackageAccess } from "../composition/inspector";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { httpRoute, json } from "../middleware/http-route";
import { record } from "../observability";

export const handler = httpRoute({ auth: true, json: true }, async (event, context) => {
  const runtime = getRuntime();
  const { store, inspector } = getPackageAccess((stats) => {
    record.extractionTime(stats.durationMs);
    record.bytesRead(stats.bytesRead);
  });
  const input = parseInput(Complete, context.body);
  try {
    const result = await completeUpload(
      { ...runtime, storage: store, inspector, settings: runtime.upload },
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
