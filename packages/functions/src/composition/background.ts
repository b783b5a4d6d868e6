import { personalWorkspaceId, WORKSPACE_ID, type BackgroundTasks, type PurgeTask } from "@hangar/core";
import { logger } from "../observability/logger";
import { loadSettings } from "./settings.schema";

/**
 * One mechanism for work that runs after the answer, used by the projects function (the rest of
 * a long delete) and the accounts function (the mail side of sign-up, resend and reset).
 *
 * On Lambda (`functionName` is AWS_LAMBDA_FUNCTION_NAME): an asynchronous invocation
 * (InvocationType Event) of this same function with `{ [payloadKey]: task }`, which Lambda
 * queues and retries twice on failure (then hands to the function's on-failure destination),
 * and which gets the function's whole timeout instead of what is left of an HTTP request. On
 * the local stack (no Lambda service): the same work in this long-lived process after the answer
 * is sent, which is what an async invocation amounts to there. Tasks must be idempotent or
 * harmless to repeat: a retried run does them again.
 */
export function backgroundTasks<Task>(
  functionName: string | undefined,
  payloadKey: string,
  run: (task: Task) => Promise<void>,
  describe: (task: Task) => Record<string, string> = () => ({}),
): BackgroundTasks<Task> {
  if (functionName) {
    return {
      schedule: async (task) => {
        // Loaded on the first background task only: no other request pays for the Lambda SDK at cold start.
        // The region as every setting: from loadSettings(), the one reader of the environment.
        await (await import("./self-invoke")).invokeAsync(functionName, { [payloadKey]: task }, { region: loadSettings().AWS_REGION });
      },
    };
  }
  return {
    schedule: async (task) => {
      setImmediate(() => {
        run(task).catch((error: unknown) => logger.error(`background ${payloadKey} failed`, { error: error as Error, ...describe(task) }));
      });
    },
  };
}

/**
 * The task of a background invocation, or undefined for anything else (an HTTP event). API
 * Gateway never sends this shape, and only the function's own role may invoke it; the task is
 * still checked by `parse` like any input.
 */
export function backgroundTaskOf<Task>(event: unknown, payloadKey: string, parse: (raw: unknown) => Task | undefined): Task | undefined {
  if (!event || typeof event !== "object" || !(payloadKey in event)) return undefined;
  return parse((event as Record<string, unknown>)[payloadKey]);
}

/** The payload of a project purge's invocation. */
export const PURGE_KEY = "hangarPurge";
export interface PurgeEvent {
  hangarPurge: PurgeTask;
}

const ID = /^[A-Za-z0-9_]{1,64}$/;

/**
 * A purge names its project and the project's workspace (or only the workspace, for a whole
 * workspace's delete). An invocation sent before workspaces
 * existed (in flight during the deploy that brought them) names the user instead: the project
 * is then in that user's personal workspace, where the migration moved it.
 */
function parsePurgeTask(raw: unknown): PurgeTask | undefined {
  const task = raw as { kind?: unknown; workspaceId?: unknown; projectId?: unknown; userId?: unknown } | null;
  // A whole workspace's delete (purge.ts purgeWorkspace) names the workspace only.
  if (task?.kind === "workspace") {
    return typeof task.workspaceId === "string" && WORKSPACE_ID.test(task.workspaceId) ? { kind: "workspace", workspaceId: task.workspaceId } : undefined;
  }
  if (!task || task.kind !== "project" || typeof task.projectId !== "string" || !ID.test(task.projectId)) return undefined;
  if (typeof task.workspaceId === "string") {
    return WORKSPACE_ID.test(task.workspaceId) ? { kind: "project", workspaceId: task.workspaceId, projectId: task.projectId } : undefined;
  }
  return typeof task.userId === "string" && ID.test(task.userId)
    ? { kind: "project", workspaceId: personalWorkspaceId(task.userId), projectId: task.projectId }
    : undefined;
}

/** Only a well-formed purge is ever run; anything else is not ours. */
export const purgeEventOf = (event: unknown): PurgeTask | undefined => backgroundTaskOf(event, PURGE_KEY, parsePurgeTask);
