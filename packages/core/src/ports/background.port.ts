/** A project's purge, in its workspace. */
export type ProjectPurgeTask = { kind: "project"; workspaceId: string; projectId: string };
/** A workspace's purge: its projects (each a project purge), then its own items (purge.ts). */
export type WorkspacePurgeTask = { kind: "workspace"; workspaceId: string };
/** A purge left to finish outside the request that started it. */
export type PurgeTask = ProjectPurgeTask | WorkspacePurgeTask;

/**
 * Runs a task after the current request answered: an asynchronous invocation of the same
 * function on AWS, the same process after the answer on the local stack
 * (functions/src/composition/background.ts). Project purges and the accounts' mails use it.
 */
export interface BackgroundTasks<Task = PurgeTask> {
  schedule(task: Task): Promise<void>;
}
