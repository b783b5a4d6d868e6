import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ConflictError, createApiKey, randomIds, systemClock, type CreateApiKey, type CreatedApiKey } from "@hangar/core";
import { emailProblem, normalizeEmail, randomAccountIds } from "@hangar/core/accounts";
import { DynamoApiKeyRepository, DynamoProjectRepository, DynamoUserRepository } from "@hangar/core/dynamo";
import type { LocalStackInfo } from "../local-stack";

/**
 * The owner of a minted key is a verified account: the operator who runs key:create vouches for
 * the address, so once its owner sets a password (password reset) they can sign in to the
 * dashboard. An existing account is left as it is. Without a password nobody can sign in to it.
 */
async function ensureVerifiedOwner(db: DynamoDBDocumentClient, tableName: string, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  // An invalid address is left to createApiKey, which refuses it with a field error.
  if (emailProblem(email) !== undefined) return;
  const users = new DynamoUserRepository(db, tableName);
  if (await users.findByEmail(email)) return;
  try {
    await users.create({ userId: randomAccountIds.userId(), email, emailVerified: true, createdAt: systemClock.now().toISOString() });
  } catch (error) {
    // Created concurrently by another key:create or a sign-up: that account stands.
    if (!(error instanceof ConflictError)) throw error;
  }
}

/** createApiKey wired to a table: the one way key:create, tests and benchmarks mint keys. */
export async function mintApiKey(db: DynamoDBDocumentClient, tableName: string, input: CreateApiKey): Promise<CreatedApiKey> {
  await ensureVerifiedOwner(db, tableName, input.email);
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
