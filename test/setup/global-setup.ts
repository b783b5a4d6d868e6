import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import type { LocalStackInfo } from "../../packages/local/src/local-stack";
import { startStackProcess } from "../support/local-stack-process";

declare module "vitest" {
  export interface ProvidedContext {
    stack: LocalStackInfo;
  }
}

/** One local stack (one DynamoDB Local, one object store) for the whole integration run. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), "hangar-it-"));
  // In-memory DynamoDB Local: same semantics, no SQLite fsync per write (test/local-stack.test.ts
  // covers the persistent mode and restarts).
  // The accounts tests name their client address in this header (test/support/accounts.ts), so
  // per-address rate limits can be exercised without one test's 429s spilling into another's.
  // The resume-deletes sweep every 2 s instead of every minute (test/delete-resume.test.ts).
  const stack = await startStackProcess(dataDir, {
    HANGAR_DYNAMODB_IN_MEMORY: "1",
    HANGAR_CLIENT_IP_HEADER: "x-hangar-test-client-ip",
    HANGAR_DELETE_SWEEP_SECONDS: "2",
    // Part URLs live 15 s instead of 15 min, so test/multipart-upload.test.ts can resume after expiry.
    HANGAR_PART_URL_EXPIRES_SECONDS: "15",
    // Webhooks to the tests' own receivers on 127.0.0.1, retried after 1 s instead of 5 s, 30 s, …
    // (test/webhooks.test.ts; packages/core/test/webhooks covers the refusals with this off too).
    HANGAR_WEBHOOK_ALLOW_LOOPBACK: "1",
    HANGAR_WEBHOOK_RETRY_SCHEDULE: "1,1",
  });
  project.provide("stack", stack.info);
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
