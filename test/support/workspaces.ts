import { personalWorkspaceId, type Role } from "@hangar/core";
import { DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { expect } from "vitest";
import { dash, signedIn, type Browser } from "./accounts";
import { db, stack } from "./api";

/** A signed-in account with its user id and personal workspace id. */
export async function member(): Promise<{ b: Browser; email: string; userId: string; personal: string }> {
  const { b, email } = await signedIn();
  const account = await dash(b, "GET", "/api/account");
  expect(account.status, account.text).toBe(200);
  const userId = account.json.userId as string;
  return { b, email, userId, personal: personalWorkspaceId(userId) };
}

/** A team workspace made through the API by `b` (its owner). */
export async function newWorkspace(b: Browser, name = `Team ${Math.random().toString(36).slice(2, 8)}`) {
  const reply = await dash(b, "POST", "/api/workspaces", { name });
  expect(reply.status, reply.text).toBe(201);
  return reply.json as { workspaceId: string; name: string };
}

/**
 * Puts someone in a workspace with a role, straight through the workspace catalog on DynamoDB
 * Local: the same transaction (counters, limits) an invitation's accept runs, without the mail
 * round trip, for tests about what members may do rather than how they joined (the invitation
 * flows are tested in their own files).
 */
export async function addMember(workspaceId: string, userId: string, role: Role): Promise<void> {
  await new DynamoWorkspaceCatalog(db(), stack().tableName).addMember({ workspaceId, userId, role, joinedAt: new Date().toISOString() });
}
