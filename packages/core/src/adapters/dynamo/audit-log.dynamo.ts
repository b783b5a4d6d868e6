import { PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { randomBytes } from "node:crypto";
import type { AuditEntryInput, AuditLog } from "../../ports";
import { dynamoFailure } from "./dynamo-errors";
import { keys } from "./table-keys";

/** Audit entries are kept 400 days (docs/teams.md), then DynamoDB's TTL removes them. */
export const AUDIT_RETENTION_DAYS = 400;

/**
 * The audit log as `AUDIT#<workspaceId>` / `<ISO time>#<entryId>` items (docs/data-model.md):
 * one partition per workspace, sorted by time, so a page of the newest entries is one Query.
 * Append-only: entries are only ever put (never updated) and expire by TTL.
 */
export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date,
  ) {}

  async record(entry: AuditEntryInput): Promise<void> {
    const at = this.now();
    const entryId = randomBytes(8).toString("hex");
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.auditEntry(entry.workspaceId, at.toISOString(), entryId),
            type: "audit",
            entryId,
            at: at.toISOString(),
            workspaceId: entry.workspaceId,
            action: entry.action,
            actor: entry.actor,
            ...(entry.target ? { target: entry.target } : {}),
            ...(entry.details ? { details: entry.details } : {}),
            ttl: Math.floor(at.getTime() / 1000) + AUDIT_RETENTION_DAYS * 86_400,
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      throw dynamoFailure("PutItem(audit)", error);
    }
  }
}
