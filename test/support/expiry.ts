import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, stack } from "./api";

/**
 * Moves a stored build's profile expiry to `expiresAt`, as if it had been signed with a profile
 * that expires then: the committed IPA fixtures' profiles expire in 2036, and a test that reads
 * the real clock (the dashboard's banner) needs one that expires within days. The file record
 * keeps its metadata as JSON text (file-repository.dynamo.ts), rewritten here as a whole.
 */
export async function setProfileExpiry(fileId: string, expiresAt: string): Promise<void> {
  const key = { pk: `FILE#${fileId}`, sk: "FILE" };
  const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: key, ConsistentRead: true }));
  const metadata = JSON.parse(String(Item!.metadata)) as { provisioning: { expiresAt: string } };
  metadata.provisioning.expiresAt = expiresAt;
  await db().send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: key,
      UpdateExpression: "SET metadata = :m",
      ExpressionAttributeValues: { ":m": JSON.stringify(metadata) },
    }),
  );
}
