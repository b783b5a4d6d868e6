/** A purge left to finish outside the request that started it. */
export type PurgeTask = { kind: "project"; userId: string; projectId: string };

/** Runs a task after the current request answered (an async invocation on AWS). */
export interface BackgroundTasks {
  schedule(task: PurgeTask): Promise<void>;
}
