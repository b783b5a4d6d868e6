import { randomBytes } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { StageSecret } from "../../ports";
import { dynamoFailure, getItem, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/**
 * The stage's secret, kept in its own table (`SECRET#<name>`): every function of the stage and the
 * local stack find the same one with no setting, no Secrets Manager call and no deploy step. Whoever
 * can read the table can read everything a cursor points at anyway. The first reader writes it with
 * `attribute_not_exists`; a concurrent first reader loses that race and reads the winner's. Cached
 * per process: it never changes.
 */
export class DynamoStageSecret implements StageSecret {
  private cached: Promise<Uint8Array> | undefined;

  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
    private readonly name: string,
  ) {}

  bytes(): Promise<Uint8Array> {
    this.cached ??= this.load().catch((error: unknown) => {
      this.cached = undefined;
      throw error;
    });
    return this.cached;
  }

  private async load(): Promise<Uint8Array> {
    const read = async () => {
      const item = await getItem(this.db, this.tableName, keys.stageSecret(this.name), "stage secret", { consistent: true });
      return typeof item?.secret === "string" ? new Uint8Array(Buffer.from(item.secret, "base64url")) : undefined;
    };
    const existing = await read();
    if (existing) return existing;
    const secret = randomBytes(32);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.stageSecret(this.name), type: "stageSecret", secret: secret.toString("base64url") },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      return new Uint8Array(secret);
    } catch (error) {
      if (!isConditionFailure(error)) throw dynamoFailure("PutItem(stage secret)", error);
    }
    const winner = await read();
    if (!winner) throw dynamoFailure("GetItem(stage secret)", new Error("the stage secret vanished"));
    return winner;
  }
}
