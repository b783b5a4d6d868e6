import { PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors/domain-errors";
import type { ApiKey, ApiKeyRepository } from "../../ports";
import { dynamoFailure, getItem, isConditionFailure } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";

export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: string): Promise<ApiKey | undefined> {
    const item = await getItem(this.db, this.tableName, keys.apiKey(clientId), "api key");
    if (!item) return undefined;
    const { secretHash, name, projectId, userId, status, createdAt } = item;
    return { clientId, secretHash, name, projectId, userId, status, createdAt };
  }

  async create(key: ApiKey): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.apiKey(key.clientId),
            type: "apiKey",
            gsi1pk: gsi1.project(key.projectId),
            gsi1sk: `APIKEY#${key.createdAt}#${key.clientId}`,
            ...key,
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError("already_exists", "This client id exists already");
      throw dynamoFailure("PutItem(api key)", error);
    }
  }
}
