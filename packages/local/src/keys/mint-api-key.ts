import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createApiKey, randomIds, systemClock, type CreateApiKey, type CreatedApiKey } from "@hangar/core";
import { DynamoApiKeyRepository, DynamoProjectRepository } from "@hangar/core/dynamo";
import type { LocalStackInfo } from "../local-stack";

/** createApiKey wired to a table: the one way key:create, tests and benchmarks mint keys. */
export function mintApiKey(db: DynamoDBDocumentClient, tableName: string, input: CreateApiKey): Promise<CreatedApiKey> {
  return createApiKey(
    {
      apiKeys: new DynamoApiKeyRepository(db, tableName),
      projects: new DynamoProjectRepository(db, tableName),
      clock: systemClock,
      ids: randomIds,
    },
    input,
  );
}

/** Mints a key on a running local stack (from its stack.json info). */
export async function mintLocalApiKey(
  info: Pick<LocalStackInfo, "dynamoEndpoint" | "region" | "credentials" | "tableName">,
  input: CreateApiKey,
): Promise<CreatedApiKey> {
  const client = new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials });
  try {
    const db = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    return await mintApiKey(db, info.tableName, input);
  } finally {
    client.destroy();
  }
}
