import type { SNSEvent } from "aws-lambda";

/**
 * PLACEHOLDER written by the infrastructure branch so the stacks synthesize; the function's real
 * code (suppress bounced and complaining addresses) comes from the runtime branch of issue 16,
 * which overwrites this file.
 */
export async function handler(event: SNSEvent): Promise<void> {
  void event;
  throw new Error("ses-events: placeholder handler, not implemented in this branch");
}
