import { InvalidPackageError, completeMultipartUpload, completeUpload, keyWorkspaceId, type CompleteResult, type Uploader } from "@hangar/core";
import { distributeUpload, planUploadDistribution, type DistributionAnswer } from "@hangar/core/distribution";
import { completeDeps } from "../composition/complete";
import { distributionDeps } from "../composition/distribution";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { uploaderOf } from "../composition/dashboard-upload";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { logger, record } from "../observability";

type CompleteBody = ContextFor<"POST /api/upload/api-key/complete">["body"];

async function complete(event: HttpEvent, caller: Uploader, body: CompleteBody): Promise<HttpResult> {
  const deps = completeDeps();
  const links = linkBases(event, getRuntime().settings);
  // Hangar's extension (README "Send the build to testers"): the optional `distribute` and the
  // project's default groups, resolved BEFORE completing, so an unknown group fails the complete
  // (404 group_not_found) instead of leaving a completed build that reached nobody.
  const where = { workspaceId: keyWorkspaceId(caller), projectId: caller.projectId };
  const plan = await planUploadDistribution(distributionDeps(), where, body.input.distribute);
  // An uploadId made it a multipart complete (core's parseCompleteBody); without one, the spec's complete.
  try {
    const result: CompleteResult = body.multipart
      ? await completeMultipartUpload(deps, caller, body.input, links)
      : await completeUpload(deps, caller, body.input, links);
    record.uploadCompleted();
    return json(200, { ...result, distribution: plan ? await sendToTesters(caller, where, result, plan, links) : null });
  } catch (error) {
    if (error instanceof InvalidPackageError) record.uploadRejected(error.reason);
    throw error;
  }
}

/**
 * The completed build to the planned testers. The upload is stored whatever happens here: a
 * failure to queue the mails (the queue down) is logged and answered as `distribution: null`
 * rather than failing a complete that succeeded; the recipients written stay `queued` and the next
 * distribution of the build queues them again.
 */
async function sendToTesters(
  caller: Uploader,
  where: { workspaceId: string; projectId: string },
  result: CompleteResult,
  plan: NonNullable<Awaited<ReturnType<typeof planUploadDistribution>>>,
  links: { publicBaseUrl: string; shareBaseUrl: string },
): Promise<DistributionAnswer | null> {
  try {
    const fileName = typeof result.metadata.appName === "string" ? result.metadata.appName : result.fileId;
    return await distributeUpload(distributionDeps(), { ...where, clientId: caller.clientId, ...(caller.actor ? { actor: caller.actor } : {}) }, { fileId: result.fileId, fileName }, plan, links);
  } catch (error) {
    logger.warn("a completed upload could not be sent to its testers", { error: error as Error, fileId: result.fileId });
    return null;
  }
}

export const handler = httpFunction(
  "complete",
  {
    "POST /api/upload/api-key/complete": { handler: async (e, c) => complete(e, c.apiKey, c.body) },
    // The dashboard's browser upload (single or multipart body alike), for the session's own project.
    "POST /api/projects/{projectId}/uploads/complete": { handler: async (e, c) => complete(e, await uploaderOf(c), c.body) },
  },
  { apiKey: apiKeyAuth(getRuntime), ...dashboardRouteMiddlewares() },
);
