import { DeleteCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ApiKey, KeyCatalog } from "../../ports";
import { DynamoApiKeyRepository } from "./api-key-repository.dynamo";
import { revokeCountedKey } from "./counted-limits.dynamo";
import { conditionalWrite, dynamoFailure, getItem } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";

const toKey = (item: Record<string, any>): ApiKey => {
  const { clientId, secretHash, name, projectId, userId, status, createdAt } = item;
  return { clientId, secretHash, name, projectId, userId, status, createdAt };
};

/** Keys for the dashboard: listed per project on gsi1, changed only with the owner's id in the condition. */
export class DynamoKeyCatalog extends DynamoApiKeyRepository implements KeyCatalog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    super(client, table);
  }

  override async get(clientId: string): Promise<ApiKey | undefined> {
    const item = await getItem(this.client, this.table, keys.apiKey(clientId), "api key", { consistent: true });
    return item ? toKey(item) : undefined;
  }

  async listByProject(projectId: string): Promise<ApiKey[]> {
    const out: ApiKey[] = [];
    let start: Record<string, any> | undefined;
    try {
      do {
        const page = await this.client.send(
          new QueryCommand({
            TableName: this.table,
            IndexName: gsi1.name,
            KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
            ExpressionAttributeValues: { ":pk": gsi1.project(projectId), ":prefix": "APIKEY#" },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of page.Items ?? []) out.push(toKey(item));
        start = page.LastEvaluatedKey;
      } while (start);
    } catch (error) {
      throw dynamoFailure("Query(keys of project)", error);
    }
    return out;
  }

  /** Also takes the key off its project's count of active keys (counted-limits.dynamo.ts). */
  async revoke(userId: string, key: Pick<ApiKey, "clientId" | "projectId">, at: string): Promise<boolean> {
    return revokeCountedKey(this.client, this.table, userId, key, at);
  }

  async replaceSecret(userId: string, clientId: string, secretHash: string): Promise<boolean> {
    return this.conditionalUpdate("regenerate", {
      Key: keys.apiKey(clientId),
      UpdateExpression: "SET secretHash = :hash",
      ConditionExpression: "userId = :userId AND #status = :active",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":hash": secretHash, ":active": "active", ":userId": userId },
    });
  }

  async remove(clientId: string): Promise<void> {
    try {
      await this.client.send(new DeleteCommand({ TableName: this.table, Key: keys.apiKey(clientId) }));
    } catch (error) {
      throw dynamoFailure("DeleteItem(api key)", error);
    }
  }

  private conditionalUpdate(what: string, input: Omit<ConstructorParameters<typeof UpdateCommand>[0], "TableName">) {
    return conditionalWrite(this.client, `UpdateItem(${what} key)`, new UpdateCommand({ TableName: this.table, ...input }));
  }
}
