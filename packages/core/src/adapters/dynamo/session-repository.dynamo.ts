import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type { Session, SessionRepository } from "../../ports";
import { conditionalWrite, dynamoFailure, getItem, isConditionFailure, queryAll } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

const PREFIX = "SESSION#";

function toSession(item: Record<string, any>): Session {
  const session: Session = {
    sessionId: item.sessionId,
    userId: item.userId,
    secretHash: item.secretHash,
    createdAt: item.createdAt,
    lastSeenAt: item.lastSeenAt,
    idleExpiresAt: item.idleExpiresAt,
    absoluteExpiresAt: item.absoluteExpiresAt,
  };
  if (typeof item.userAgent === "string") session.userAgent = item.userAgent;
  if (typeof item.ip === "string") session.ip = item.ip;
  return session;
}

/**
 * Sessions as `USER#<userId>` / `SESSION#<sessionId>` items. `ttl` is the earlier of the idle
 * and the absolute expiry, so DynamoDB deletes dead sessions by itself (lazily: readers check
 * the expiry themselves).
 */
export class DynamoSessionRepository implements SessionRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async create(session: Session): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.session(session.userId, session.sessionId),
            type: "session",
            ...session,
            ttl: Math.min(session.idleExpiresAt, session.absoluteExpiresAt),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      throw dynamoFailure("PutItem(session)", error);
    }
  }

  async get(userId: string, sessionId: string): Promise<Session | undefined> {
    // Strongly consistent: a session ended a moment ago must not authenticate.
    const item = await getItem(this.db, this.tableName, keys.session(userId, sessionId), "session", { consistent: true });
    return item ? toSession(item) : undefined;
  }

  async touch(userId: string, sessionId: string, lastSeenAt: string, idleExpiresAt: number): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.session(userId, sessionId),
          UpdateExpression: "SET lastSeenAt = :seen, idleExpiresAt = :idle, #ttl = :idle",
          // Never resurrect a session ended meanwhile (an update without it would create one).
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#ttl": "ttl" },
          ExpressionAttributeValues: { ":seen": lastSeenAt, ":idle": idleExpiresAt },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return;
      throw dynamoFailure("UpdateItem(session)", error);
    }
  }

  delete(userId: string, sessionId: string): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "DeleteItem(session)",
      new DeleteCommand({ TableName: this.tableName, Key: keys.session(userId, sessionId), ConditionExpression: "attribute_exists(pk)" }),
    );
  }

  async list(userId: string): Promise<Session[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.user(userId).pk, ":prefix": PREFIX },
        ConsistentRead: true,
      },
      "sessions",
    );
    return items.map(toSession);
  }

  async deleteAll(userId: string, keep?: string): Promise<void> {
    const doomed = (await this.list(userId)).filter((s) => s.sessionId !== keep);
    for (let i = 0; i < doomed.length; i += 25) {
      let requests: Record<string, any>[] = doomed
        .slice(i, i + 25)
        .map((s) => ({ DeleteRequest: { Key: keys.session(userId, s.sessionId) } }));
      // BatchWriteItem may leave items unprocessed under throttling: retry those with backoff.
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
        if (attempt >= 6) throw dynamoFailure("BatchWriteItem(sessions)", Object.assign(new Error("unprocessed items"), { name: "ProvisionedThroughputExceededException" }));
        try {
          const { UnprocessedItems } = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: requests } }));
          requests = UnprocessedItems?.[this.tableName] ?? [];
        } catch (error) {
          throw dynamoFailure("BatchWriteItem(sessions)", error);
        }
      }
    }
  }
}
