import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { randomInt } from "node:crypto";
import { db, stack } from "./api";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A tester group with its testers, written straight into DynamoDB Local in the items' format of
 * docs/data-model.md (`group`, `groupName`, `groupTester` with gsi1 `TESTER#<email>`). For tests
 * of what distribution does with groups independently of how groups are managed (the groups API
 * has its own tests).
 */
export async function seedGroup(workspaceId: string, name: string, emails: string[]): Promise<string> {
  const groupId = `grp_${Array.from({ length: 16 }, () => BASE62[randomInt(62)]).join("")}`;
  const at = new Date().toISOString();
  const items: Record<string, unknown>[] = [
    { pk: `WORKSPACE#${workspaceId}`, sk: `GROUP#${groupId}`, type: "group", groupId, workspaceId, name, testerCount: emails.length, createdAt: at, createdBy: "usr_seed" },
    { pk: `WORKSPACE#${workspaceId}`, sk: `GROUPNAME#${name.toLowerCase()}`, type: "groupName", groupId, workspaceId },
    ...emails.map((email) => ({
      pk: `GROUP#${groupId}`,
      sk: `TESTER#${email}`,
      type: "groupTester",
      groupId,
      workspaceId,
      email,
      addedAt: at,
      source: "added",
      addedBy: "usr_seed",
      gsi1pk: `TESTER#${email}`,
      gsi1sk: `GROUP#${groupId}`,
    })),
  ];
  for (let i = 0; i < items.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [stack().tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
  return groupId;
}
