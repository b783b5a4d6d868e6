import type { ApiKey, ApiKeyRepository } from "../../ports";
import { keyWorkspaceId } from "../../ports/api-key-repository.port";
import { createCountedKey } from "./counted-limits.dynamo";
import { getItem } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: string): Promise<ApiKey | undefined> {
    const item = await getItem(this.db, this.tableName, keys.apiKey(clientId), "api key");
    if (!item) return undefined;
    const { secretHash, name, projectId, userId, workspaceId, status, createdAt } = item;
    return { clientId, secretHash, name, projectId, userId, ...(typeof workspaceId === "string" ? { workspaceId } : {}), status, createdAt };
  }

  /** Within its project's limit of active keys, counted exactly (see counted-limits.dynamo.ts). */
  async create(key: ApiKey): Promise<void> {
    await createCountedKey(this.db, this.tableName, { workspaceId: keyWorkspaceId(key), projectId: key.projectId }, {
      ...keys.apiKey(key.clientId),
      type: "apiKey",
      gsi1pk: gsi1.project(key.projectId),
      gsi1sk: `APIKEY#${key.createdAt}#${key.clientId}`,
      ...key,
    });
  }
}
