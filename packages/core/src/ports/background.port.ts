/** A purge left to finish outside the request that started it: a project, in its workspace. */
export type PurgeTask = { kind: "project"; workspaceId: string; projectId: string };

/**
 * Runs a task after the current request answered: an asynchronous invocation of the same
 * function on AWS, the same process after the answer on the local stack
 * (functions/src/composition/background.ts). Project purges and the accounts' mails use it.
 */
export interface BackgroundTasks<Task = PurgeTask> {
  schedule(task: Task): Promise<void>;
}
