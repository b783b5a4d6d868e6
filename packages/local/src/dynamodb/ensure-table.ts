import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from "@aws-sdk/client-dynamodb";
import { tableDefinition as t } from "@hangar/core";

/** Creates the single table as the stack does (same keys, GSI and TTL attribute), if missing. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if ((error as Error).name !== "ResourceNotFoundException") throw error;
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [t.partitionKey, t.sortKey, t.gsi1.partitionKey, t.gsi1.sortKey].map((name) => ({
          AttributeName: name,
          AttributeType: "S",
        })),
        KeySchema: [
          { AttributeName: t.partitionKey, KeyType: "HASH" },
          { AttributeName: t.sortKey, KeyType: "RANGE" },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: t.gsi1.name,
            KeySchema: [
              { AttributeName: t.gsi1.partitionKey, KeyType: "HASH" },
              { AttributeName: t.gsi1.sortKey, KeyType: "RANGE" },
            ],
            Projection: { ProjectionType: "ALL" },
          },
        ],
      }),
    );
  }
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== "ENABLED") {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: t.ttlAttribute, Enabled: true },
      }),
    );
  }
}
