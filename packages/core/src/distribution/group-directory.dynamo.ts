import { QueryCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { dynamoFailure, getItem } from "../adapters/dynamo/dynamo-errors";
import { keys } from "../adapters/dynamo/table-keys";
import type { TesterGroupDirectory, TesterGroupRef } from "../ports";

const GROUP_ID = /^grp_[A-Za-z0-9]{16}$/;

/**
 * A read-only TesterGroupDirectory over the group items of docs/data-model.md (`group`,
 * `groupName`, `groupTester`), for distribution. The tester-groups module owns those items and
 * its own implementation of the port; this one reads the same items so that distribution works
 * (and is tested) on its own. The composition uses the tester-groups one where it exists.
 */
export class DynamoGroupDirectory implements TesterGroupDirectory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async one(workspaceId: string, ref: string): Promise<TesterGroupRef | undefined> {
    let groupId = ref;
    if (!GROUP_ID.test(ref)) {
      const named = await getItem(this.db, this.tableName, keys.groupName(workspaceId, ref.trim()), "group name", { consistent: true });
      if (typeof named?.groupId !== "string") return undefined;
      groupId = named.groupId;
    }
    const group = await getItem(this.db, this.tableName, keys.group(workspaceId, groupId), "group", { consistent: true });
    return group && group.workspaceId === workspaceId ? { groupId, workspaceId, name: String(group.name) } : undefined;
  }

  async resolve(workspaceId: string, refs: readonly string[]): Promise<{ groups: TesterGroupRef[]; missing: string[] }> {
    const found = await Promise.all(refs.map(async (ref) => ({ ref, group: await this.one(workspaceId, ref) })));
    return {
      groups: found.flatMap((f) => (f.group ? [f.group] : [])),
      missing: found.filter((f) => !f.group).map((f) => f.ref),
    };
  }

  async addresses(groupId: string): Promise<string[]> {
    const emails: string[] = [];
    let start: Record<string, unknown> | undefined;
    try {
      do {
        const out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues: { ":pk": `GROUP#${groupId}`, ":prefix": "TESTER#" },
            ProjectionExpression: "email",
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of out.Items ?? []) if (typeof item.email === "string") emails.push(item.email);
        start = out.LastEvaluatedKey;
      } while (start);
    } catch (error) {
      throw dynamoFailure("Query(group testers)", error);
    }
    return emails;
  }
}
