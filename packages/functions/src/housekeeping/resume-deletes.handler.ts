import type { ScheduledEvent } from "aws-lambda";

/**
 * PLACEHOLDER written by the infrastructure branch so the stacks synthesize; the function's real
 * code (finish projects and accounts left in "deleting") comes from the runtime branch of issue
 * 16, which overwrites this file.
 */
export async function handler(event: ScheduledEvent): Promise<void> {
  void event;
  throw new Error("resume-deletes: placeholder handler, not implemented in this branch");
}
