import type { BackgroundTasks, PurgeTask } from "@hangar/core";
import { logger } from "../observability/logger";

/** The payload of a background invocation; the handler tells it from an HTTP event by this key. */
export interface PurgeEvent {
  hangarPurge: PurgeTask;
}

const ID = /^[A-Za-z0-9_]{1,64}$/;

/** Only a well-formed task is ever run; anything else is not ours. */
export function purgeEventOf(event: unknown): PurgeTask | undefined {
  const task = (event as Partial<PurgeEvent> | null)?.hangarPurge;
  if (!task || task.kind !== "project" || typeof task.userId !== "string" || typeof task.projectId !== "string") return undefined;
  return ID.test(task.userId) && ID.test(task.projectId) ? { kind: "project", userId: task.userId, projectId: task.projectId } : undefined;
}

/**
 * Where the rest of a long delete runs. On Lambda (`functionName` is AWS_LAMBDA_FUNCTION_NAME): an asynchronous invocation (InvocationType
 * Event) of this same function, which Lambda queues and retries twice on failure, and which gets
 * the function's whole timeout instead of what is left of an HTTP request. On the local stack
 * (no Lambda service): the same work in this long-lived process after the answer is sent, which
 * is what an async invocation amounts to there. Every step is idempotent, so a repeated or
 * overlapping run is harmless.
 */
export function backgroundTasks(functionName: string | undefined, run: (task: PurgeTask) => Promise<void>): BackgroundTasks {
  if (functionName) {
    return {
      schedule: async (task) => {
        // Loaded on the first long delete only: no other request pays for the Lambda SDK at cold start.
        const payload: PurgeEvent = { hangarPurge: task };
        await (await import("./self-invoke")).invokeAsync(functionName, payload);
      },
    };
  }
  return {
    schedule: async (task) => {
      setImmediate(() => {
        run(task).catch((error: unknown) => logger.error("background purge failed", { error: error as Error, projectId: task.projectId }));
      });
    },
  };
}
