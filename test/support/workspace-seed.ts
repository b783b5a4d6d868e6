import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { randomInt } from "node:crypto";
import type { Role } from "@hangar/core";
import { dash, type Browser } from "./accounts";
import { db, stack } from "./api";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The signed-in account's user id, as the account API answers it. */
export async function userIdOf(b: Browser): Promise<string> {
  const reply = await dash(b, "GET", "/api/account");
  if (reply.status !== 200) throw new Error(`GET /api/account: ${reply.status} ${reply.text}`);
  return reply.json.userId as string;
}

/**
 * A team workspace with these members, written straight into DynamoDB Local in the items'
 * format of docs/data-model.md (workspace `WORKSPACE#<id>` / `WORKSPACE`, member
 * `WORKSPACE#<id>` / `MEMBER#<userId>` with gsi1 `USER#<userId>` / `WORKSPACE#<id>`). For tests of
 * what a membership allows (the audit log's `audit.read`) independently of how people become
 * members: invitations have their own tests. The per-user workspace counter is not touched (a
 * test's users stay far below the limit).
 */
export async function seedWorkspace(members: { userId: string; role: Role }[], name = "Seeded team"): Promise<string> {
  const workspaceId = `ws_${Array.from({ length: 16 }, () => BASE62[randomInt(62)]).join("")}`;
  const at = new Date().toISOString();
  const pk = `WORKSPACE#${workspaceId}`;
  const items = [
    {
      pk,
      sk: "WORKSPACE",
      type: "workspace",
      workspaceId,
      name,
      personal: false,
      createdAt: at,
      createdBy: members.find((m) => m.role === "owner")?.userId ?? members[0]!.userId,
      memberCount: members.length,
      ownerCount: members.filter((m) => m.role === "owner").length,
      projectCount: 0,
    },
    ...members.map((m) => ({
      pk,
      sk: `MEMBER#${m.userId}`,
      type: "member",
      workspaceId,
      userId: m.userId,
      role: m.role,
      joinedAt: at,
      gsi1pk: `USER#${m.userId}`,
      gsi1sk: pk,
    })),
  ];
  for (let i = 0; i < items.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [stack().tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
  return workspaceId;
}
