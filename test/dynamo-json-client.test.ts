import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { DynamoJsonClient, type DocumentClient } from "@hangar/core/dynamo";
import { cancelledConditions, dynamoFailure, DynamoRequestRejected, isConditionFailure } from "../packages/core/src/adapters/dynamo/dynamo-errors";
import { DependencyError } from "@hangar/core";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { db, stack } from "./support/api";

/**
 * The functions speak DynamoDB through DynamoJsonClient (the JSON protocol signed by hand), tests
 * and tools through the SDK's document client. Every command the repositories send is sent both
 * ways to DynamoDB Local here, and the answers must be the same documents, failures the same
 * names and fields dynamo-errors.ts reads.
 */
let lean: DynamoJsonClient;
let table: string;
const run = `djc-${Date.now().toString(36)}`;

/** An answer without the SDK's request metadata (ours carries none on success). */
const plain = (answer: Record<string, unknown>) => {
  const { $metadata: _, ...rest } = answer;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
};

/** Sends the same command through both clients (second one on a fresh copy of its input). */
async function both<T extends { input: unknown }>(make: () => T): Promise<[Record<string, unknown>, Record<string, unknown>]> {
  const sdk = (await db().send(make() as never)) as Record<string, unknown>;
  const ours = (await lean.send(make() as never)) as Record<string, unknown>;
  return [plain(sdk), plain(ours)];
}

async function failureOf(client: DocumentClient, command: unknown): Promise<Error & Record<string, unknown>> {
  try {
    await client.send(command as never);
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("the call succeeded");
}

beforeAll(() => {
  const s = stack();
  lean = new DynamoJsonClient({ region: s.region, endpoint: s.dynamoEndpoint, credentials: s.credentials });
  table = s.tableName;
});

describe("DynamoJsonClient answers as the SDK's document client does", () => {
  it("Put, Get (found and missing), Update with ADD and sets, Delete with ReturnValues", async () => {
    const Key = { pk: `${run}#a`, sk: "A" };
    const Item = { ...Key, name: "Zoë <x>", n: 12.5, big: 2 ** 52, flag: true, none: null, list: [1, "two", { three: 3 }], tags: new Set(["x", "y"]), nested: { deep: { v: "w" } }, skip: undefined };
    await lean.send(new PutCommand({ TableName: table, Item }));
    const [sdkGet, ourGet] = await both(() => new GetCommand({ TableName: table, Key }));
    expect(ourGet).toEqual(sdkGet);
    expect(ourGet.Item).toMatchObject({ name: "Zoë <x>", n: 12.5, big: 2 ** 52, none: null, list: [1, "two", { three: 3 }] });
    expect(ourGet.Item).not.toHaveProperty("skip");
    // Sets come back as Sets from both (compared above as JSON, so check the type here).
    const got = await lean.send(new GetCommand({ TableName: table, Key }));
    expect(got.Item?.tags).toEqual(new Set(["x", "y"]));

    const [sdkMissing, ourMissing] = await both(() => new GetCommand({ TableName: table, Key: { pk: `${run}#nothing`, sk: "A" } }));
    expect(ourMissing).toEqual(sdkMissing);
    expect(ourMissing.Item).toBeUndefined();

    const update = () =>
      new UpdateCommand({
        TableName: table,
        Key,
        UpdateExpression: "ADD #c :one, tags :z SET #at = :at",
        ExpressionAttributeNames: { "#c": "count", "#at": "at" },
        ExpressionAttributeValues: { ":one": 1, ":z": new Set(["z"]), ":at": "2026-11-26" },
        ReturnValues: "ALL_NEW",
      });
    const [sdkUpdated, ourUpdated] = await both(update);
    expect((sdkUpdated.Attributes as Record<string, unknown>).count).toBe(1);
    expect((ourUpdated.Attributes as Record<string, unknown>).count).toBe(2);
    expect({ ...(ourUpdated.Attributes as object), count: 1 }).toEqual(sdkUpdated.Attributes);

    const deleted = await lean.send(new DeleteCommand({ TableName: table, Key, ReturnValues: "ALL_OLD" }));
    expect(deleted.Attributes).toMatchObject({ name: "Zoë <x>", count: 2 });
  });

  it("Query and Scan page alike, LastEvaluatedKey handed back as the next ExclusiveStartKey", async () => {
    const pk = `${run}#q`;
    await lean.send(
      new BatchWriteCommand({ RequestItems: { [table]: Array.from({ length: 7 }, (_, i) => ({ PutRequest: { Item: { pk, sk: `S#${i}`, i } } })) } }),
    );
    const query = (start?: Record<string, unknown>) => () =>
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :s)",
        ExpressionAttributeValues: { ":pk": pk, ":s": "S#" },
        Limit: 3,
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
    const [sdkFirst, ourFirst] = await both(query());
    expect(ourFirst).toEqual(sdkFirst);
    expect(ourFirst.LastEvaluatedKey).toEqual({ pk, sk: "S#2" });
    const [sdkSecond, ourSecond] = await both(query(ourFirst.LastEvaluatedKey as Record<string, unknown>));
    expect(ourSecond).toEqual(sdkSecond);
    expect((ourSecond.Items as { i: number }[]).map((x) => x.i)).toEqual([3, 4, 5]);

    const scan = () =>
      new ScanCommand({ TableName: table, FilterExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, ProjectionExpression: "sk, i" });
    const [sdkScan, ourScan] = await both(scan);
    const sorted = (a: Record<string, unknown>) => (a.Items as { sk: string }[]).map((x) => x.sk).sort();
    expect(sorted(ourScan)).toEqual(sorted(sdkScan));
  });

  it("BatchGet, BatchWrite deletes, TransactGet and TransactWrite (Put, Update, Delete, ConditionCheck)", async () => {
    const pk = `${run}#b`;
    const keys = [0, 1, 2].map((i) => ({ pk, sk: `B#${i}` }));
    await lean.send(new BatchWriteCommand({ RequestItems: { [table]: keys.map((k, i) => ({ PutRequest: { Item: { ...k, i } } })) } }));
    const [sdkBatch, ourBatch] = await both(() => new BatchGetCommand({ RequestItems: { [table]: { Keys: [...keys, { pk, sk: "B#9" }] } } }));
    const items = (a: Record<string, unknown>) => ((a.Responses as Record<string, { sk: string }[]>)[table] ?? []).map((x) => x.sk).sort();
    expect(items(ourBatch)).toEqual(["B#0", "B#1", "B#2"]);
    expect(items(ourBatch)).toEqual(items(sdkBatch));

    await lean.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: table, Key: keys[0]!, ConditionExpression: "i = :zero", ExpressionAttributeValues: { ":zero": 0 } } },
          { Put: { TableName: table, Item: { pk, sk: "B#3", i: 3 }, ConditionExpression: "attribute_not_exists(pk)" } },
          { Update: { TableName: table, Key: keys[1]!, UpdateExpression: "SET i = i + :ten", ExpressionAttributeValues: { ":ten": 10 } } },
          { Delete: { TableName: table, Key: keys[2]! } },
        ],
      }),
    );
    const [sdkTx, ourTx] = await both(() => new TransactGetCommand({ TransactItems: [{ Get: { TableName: table, Key: keys[1]! } }, { Get: { TableName: table, Key: keys[2]! } }, { Get: { TableName: table, Key: { pk, sk: "B#3" } } }] }));
    expect(ourTx).toEqual(sdkTx);
    expect((ourTx.Responses as { Item?: { i: number } }[]).map((r) => r.Item?.i)).toEqual([11, undefined, 3]);

    const deleted = await lean.send(new BatchWriteCommand({ RequestItems: { [table]: [{ DeleteRequest: { Key: keys[0]! } }] } }));
    expect(deleted.UnprocessedItems ?? {}).toEqual({});
    expect((await lean.send(new GetCommand({ TableName: table, Key: keys[0]! }))).Item).toBeUndefined();
  });

  it("a failed condition is a ConditionalCheckFailedException carrying the item DynamoDB returned, as the SDK's", async () => {
    const Key = { pk: `${run}#c`, sk: "C" };
    await lean.send(new PutCommand({ TableName: table, Item: { ...Key, v: 1 } }));
    const command = () =>
      new UpdateCommand({
        TableName: table,
        Key,
        UpdateExpression: "SET v = :two",
        ConditionExpression: "v = :zero",
        ExpressionAttributeValues: { ":two": 2, ":zero": 0 },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      });
    const sdk = await failureOf(db(), command());
    const ours = await failureOf(lean, command());
    expect(ours.name).toBe("ConditionalCheckFailedException");
    expect(ours.name).toBe(sdk.name);
    expect(isConditionFailure(ours)).toBe(true);
    // Not unmarshalled, by the SDK nor by us: the API-key gate reads it with util-dynamodb's unmarshall.
    expect(ours.Item).toEqual(sdk.Item);
    expect(ours.Item).toEqual({ pk: { S: Key.pk }, sk: { S: "C" }, v: { N: "1" } });
  });

  it("a cancelled transaction names each item's reason as the SDK does", async () => {
    const pk = `${run}#t`;
    await lean.send(new PutCommand({ TableName: table, Item: { pk, sk: "T" } }));
    const command = () =>
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table, Item: { pk, sk: "T" }, ConditionExpression: "attribute_not_exists(pk)" } },
          { Put: { TableName: table, Item: { pk, sk: "T2" } } },
        ],
      });
    const sdk = await failureOf(db(), command());
    const ours = await failureOf(lean, command());
    expect(ours.name).toBe("TransactionCanceledException");
    expect(cancelledConditions(ours)).toEqual([true, false]);
    expect(cancelledConditions(ours)).toEqual(cancelledConditions(sdk));
  });

  it("a malformed request is a ValidationException (a bug of ours, not an outage); an outage is a DependencyError", async () => {
    const ours = await failureOf(lean, new UpdateCommand({ TableName: table, Key: { pk: `${run}#v`, sk: "V" }, UpdateExpression: "SET = oops" }));
    expect(ours.name).toBe("ValidationException");
    expect(dynamoFailure("UpdateItem", ours)).toBeInstanceOf(DynamoRequestRejected);

    // A DynamoDB that answers 500 three times: retried, then an outage (503 to the caller).
    let calls = 0;
    const down = createServer((req, res) => {
      calls++;
      req.resume();
      req.on("end", () => {
        res.writeHead(500, { "content-type": "application/x-amz-json-1.0" });
        res.end(JSON.stringify({ __type: "com.amazonaws.dynamodb.v20120810#InternalServerError", message: "down" }));
      });
    });
    await new Promise<void>((r) => down.listen(0, "127.0.0.1", r));
    try {
      const { port } = down.address() as AddressInfo;
      const broken = new DynamoJsonClient({ region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: stack().credentials });
      const failure = await failureOf(broken, new GetCommand({ TableName: table, Key: { pk: "x", sk: "y" } }));
      expect(failure.name).toBe("InternalServerError");
      expect(calls).toBe(3);
      expect(dynamoFailure("GetItem", failure)).toBeInstanceOf(DependencyError);
      broken.destroy();
    } finally {
      down.close();
    }
  });

  it("retries throttling (400 ProvisionedThroughputExceededException) as the SDK does, and then answers", async () => {
    let calls = 0;
    const framing: string[] = [];
    const throttled = createServer((req, res) => {
      calls++;
      // Sent as the SDK sends it: a signed Content-Length, not a chunked body.
      framing.push(`${req.headers["content-length"] ?? "-"} ${req.headers["transfer-encoding"] ?? "-"} ${/content-length/.test(String(req.headers.authorization))}`);
      req.resume();
      req.on("end", () => {
        res.writeHead(calls < 3 ? 400 : 200, { "content-type": "application/x-amz-json-1.0" });
        res.end(
          calls < 3
            ? JSON.stringify({ __type: "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", message: "slow down" })
            : JSON.stringify({ Item: { pk: { S: "x" }, sk: { S: "y" }, n: { N: "7" } } }),
        );
      });
    });
    await new Promise<void>((r) => throttled.listen(0, "127.0.0.1", r));
    try {
      const { port } = throttled.address() as AddressInfo;
      const client = new DynamoJsonClient({ region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: stack().credentials });
      const answer = await client.send(new GetCommand({ TableName: table, Key: { pk: "x", sk: "y" } }));
      expect(answer.Item).toEqual({ pk: "x", sk: "y", n: 7 });
      expect(calls).toBe(3);
      expect(new Set(framing)).toEqual(new Set([`${JSON.stringify({ TableName: table, Key: { pk: { S: "x" }, sk: { S: "y" } } }).length} - true`]));
      client.destroy();
    } finally {
      throttled.close();
    }
  });

  it("refuses what it would send wrong: a command it does not know, a binary attribute", async () => {
    const unknown = await failureOf(lean, new DescribeTableCommand({ TableName: table }));
    expect(unknown.message).toMatch(/cannot send DescribeTableCommand/);
    const binary = await failureOf(lean, new PutCommand({ TableName: table, Item: { pk: `${run}#bin`, sk: "B", data: new Uint8Array([1, 2]) } }));
    expect(binary.message).toMatch(/binary attribute/);
    expect((await lean.send(new GetCommand({ TableName: table, Key: { pk: `${run}#bin`, sk: "B" } }))).Item).toBeUndefined();
  });
});
