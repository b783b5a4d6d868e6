import type { Context } from "aws-lambda";
import {
  budgetOf,
  createProject,
  deleteProject,
  deleteWorkspace,
  getProject,
  listProjectFiles,
  listProjects,
  previewRetention,
  updateProject,
} from "@hangar/core";
import { actorOf } from "../middleware/actor";
import { purgeEventOf } from "../composition/background";
import { continuePurge, dashboardDeps, inlineBudget, workspaceDeleteDeps } from "../composition/dashboard";
import { dashboardFunction } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { hangarContext, json } from "../middleware/http-function";
import { logger } from "../observability/logger";
import { deleted } from "./answers";
import { deleteAccountEndpoint } from "./delete-account";

const http = dashboardFunction("projects", {
  "POST /api/projects": { handler: async (_e, c) => json(201, await createProject(dashboardDeps(), actorOf(c), c.body)) },
  "GET /api/projects": {
    handler: async (_e, c) => json(200, { items: await listProjects(dashboardDeps(), actorOf(c), c.query), nextCursor: null }),
  },
  "GET /api/projects/{projectId}": { handler: async (_e, c) => json(200, await getProject(dashboardDeps(), actorOf(c), c.params)) },
  "PATCH /api/projects/{projectId}": {
    handler: async (_e, c) => json(200, await updateProject(dashboardDeps(), actorOf(c), { ...c.params, ...c.body })),
  },
  "DELETE /api/projects/{projectId}": {
    handler: async (_e, c) => deleted((await deleteProject(dashboardDeps(), actorOf(c), { ...c.params, ...c.body }, inlineBudget())).status),
  },
  "GET /api/projects/{projectId}/files": {
    handler: async (e, c) =>
      json(200, await listProjectFiles(dashboardDeps(), actorOf(c), { ...c.params, ...c.query }, linkBases(e, getRuntime().settings))),
  },
  // Exactly what tonight's run would remove, at this moment (docs/release-safety.md "Retention").
  "GET /api/projects/{projectId}/retention/preview": { handler: async (_e, c) => json(200, await previewRetention(dashboardDeps(), actorOf(c), { ...c.params, ...c.query })) },
  "DELETE /api/account": deleteAccountEndpoint,
  // Here, not in the workspaces function: deleting a workspace purges its projects (S3 deletes,
  // the background self-invocation), this function's rights. 200 with the status either way.
  "DELETE /api/workspaces/{workspaceId}": {
    handler: async (_e, c) => json(200, await deleteWorkspace(workspaceDeleteDeps(), actorOf(c), { ...c.params, ...c.body }, inlineBudget())),
  },
});

/** Seconds kept back from a background run so it stops cleanly before the function's timeout. */
const MARGIN_MS = 4000;

/**
 * HTTP requests from API Gateway, and the asynchronous invocations this function sends itself
 * to finish long deletes (see composition/background.ts). Only this function's own role may
 * invoke it that way; API Gateway never sends this shape.
 */
export async function handler(event: HttpEvent | unknown, context: Context): Promise<HttpResult | void> {
  const task = purgeEventOf(event);
  if (!task) return http(event as HttpEvent, hangarContext(context));
  const remaining = Math.max(1000, context.getRemainingTimeInMillis() - MARGIN_MS);
  try {
    await continuePurge(task, budgetOf(getRuntime().clock, remaining));
  } catch (error) {
    // Thrown on: Lambda retries the async invocation, and every purge step is idempotent.
    logger.error("background purge failed", { error: error as Error, ...(task.kind === "project" ? { projectId: task.projectId } : { workspaceId: task.workspaceId }) });
    throw error;
  }
}
