/** A purge left to finish outside the request that started it. */
export type PurgeTask = { kind: "project"; userId: string; projectId: string };

/**
 * Runs a task after the current request answered: an asynchronous invocation of the same
 * function on AWS, the same process after the answer on the local stack
 * (functions/src/composition/background.ts). Project purges and the accounts' mails use it.
 */
export interface BackgroundTasks<Task = PurgeTask> {
  schedule(task: Task): Promise<void>;
}
