import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { ApiKey, KeyCatalog } from "../../ports";
import { DynamoApiKeyRepository } from "./api-key-repository.dynamo";
import { revokeCountedKey } from "./counted-limits.dynamo";
import { conditionalWrite, dynamoFailure, getItem, queryAll } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

const toKey = (item: Record<string, any>): ApiKey => {
  const { clientId, secretHash, name, projectId, userId, workspaceId, status, createdAt } = item;
  return { clientId, secretHash, name, projectId, userId, ...(typeof workspaceId === "string" ? { workspaceId } : {}), status, createdAt };
};

/**
 * Keys for the dashboard: listed per project on gsi1. A change is conditioned on the key still
 * being active and of the project it was read with; whether the caller may change it (keys.manage
 * in the key's workspace) was decided by the policy before, not by who created it.
 */
export class DynamoKeyCatalog extends DynamoApiKeyRepository implements KeyCatalog {
  constructor(
    private readonly client: DocumentClient,
    private readonly table: string,
  ) {
    super(client, table);
  }

  override async get(clientId: string): Promise<ApiKey | undefined> {
    const item = await getItem(this.client, this.table, keys.apiKey(clientId), "api key", { consistent: true });
    return item ? toKey(item) : undefined;
  }

  async listByProject(projectId: string): Promise<ApiKey[]> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: gsi1.name,
        KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
        ExpressionAttributeValues: { ":pk": gsi1.project(projectId), ":prefix": "APIKEY#" },
      },
      "keys of project",
    );
    return items.map(toKey);
  }

  /** Also takes the key off its project's count of active keys (counted-limits.dynamo.ts). */
  async revoke(workspaceId: string, key: Pick<ApiKey, "clientId" | "projectId">, at: string): Promise<boolean> {
    return revokeCountedKey(this.client, this.table, workspaceId, key, at);
  }

  async replaceSecret(key: Pick<ApiKey, "clientId" | "projectId">, secretHash: string): Promise<boolean> {
    return this.conditionalUpdate("regenerate", {
      Key: keys.apiKey(key.clientId),
      // A new secret starts a fresh rate window, as a new key would (api-key-gate.dynamo.ts).
      UpdateExpression: "SET secretHash = :hash REMOVE rateWindow, rateCount",
      ConditionExpression: "projectId = :projectId AND #status = :active",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":hash": secretHash, ":active": "active", ":projectId": key.projectId },
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
