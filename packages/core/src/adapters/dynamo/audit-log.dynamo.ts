import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { randomBytes } from "node:crypto";
import { AUDIT_ACTIONS, type AuditActor, type AuditEntry, type AuditEntryInput, type AuditLog, type AuditLogReader, type AuditPage, type AuditPageQuery } from "../../ports";
import { dynamoFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/** Audit entries are kept 400 days (docs/audit-log.md), then DynamoDB's TTL removes them. */
export const AUDIT_RETENTION_DAYS = 400;

/**
 * How far one filtered page reads: a filter (actor, action) is applied by DynamoDB after the
 * read, so a page of rare entries could otherwise scan a whole year of log in one request. Up
 * to FILTERED_QUERIES queries of FILTERED_READ entries each (≤ 1,250 entries, a few hundred KB),
 * then the page answers what it found with a cursor to go on from there.
 */
const FILTERED_QUERIES = 5;
const FILTERED_READ = 250;

const ACTION_SET: ReadonlySet<string> = new Set(AUDIT_ACTIONS);

/** The actor as stored: only the fields that have a value (an absent address is no attribute, not `null`). */
function storedActor(actor: AuditActor): AuditActor {
  return {
    userId: actor.userId,
    ...(actor.email ? { email: actor.email } : {}),
    ...(actor.ip ? { ip: actor.ip } : {}),
    ...(actor.userAgentFamily ? { userAgentFamily: actor.userAgentFamily } : {}),
  };
}

const sortKeyOf = (entry: Pick<AuditEntry, "at" | "entryId">) => `${entry.at}#${entry.entryId}`;

function toEntry(item: Record<string, unknown>): AuditEntry | undefined {
  const actor = item.actor as Record<string, unknown> | undefined;
  if (typeof item.entryId !== "string" || typeof item.at !== "string" || typeof item.action !== "string" || !ACTION_SET.has(item.action)) return undefined;
  if (!actor || typeof actor.userId !== "string") return undefined;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    entryId: item.entryId,
    at: item.at,
    workspaceId: String(item.workspaceId),
    action: item.action as AuditEntry["action"],
    actor: storedActor({ userId: actor.userId, email: str(actor.email), ip: str(actor.ip), userAgentFamily: str(actor.userAgentFamily) }),
    ...(item.target ? { target: item.target as AuditEntry["target"] } : {}),
    ...(item.details ? { details: item.details as AuditEntry["details"] } : {}),
  };
}

/**
 * An entry's item as of `at` (with a new entry id): what record() puts, and what an adapter that
 * writes the entry in the same transaction as the change it records puts (share-links.dynamo.ts,
 * whose settings change must stay within its round trips).
 */
export function auditEntryItem(entry: AuditEntryInput, at: Date): Record<string, unknown> {
  const entryId = randomBytes(8).toString("hex");
  return {
    ...keys.auditEntry(entry.workspaceId, at.toISOString(), entryId),
    type: "audit",
    entryId,
    at: at.toISOString(),
    workspaceId: entry.workspaceId,
    action: entry.action,
    // Stripped here rather than trusted to the client's removeUndefinedValues: a document
    // client without it refuses the whole put, and the change it records already happened.
    actor: storedActor(entry.actor),
    ...(entry.target ? { target: entry.target } : {}),
    ...(entry.details ? { details: entry.details } : {}),
    ttl: Math.floor(at.getTime() / 1000) + AUDIT_RETENTION_DAYS * 86_400,
  };
}

/**
 * The audit log as `AUDIT#<workspaceId>` / `<ISO time>#<entryId>` items (docs/data-model.md):
 * one partition per workspace, sorted by time, so a page of the newest entries is one Query.
 * Append-only: entries are only ever put (never updated) and expire by TTL.
 */
export class DynamoAuditLog implements AuditLog, AuditLogReader {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date,
  ) {}

  async record(entry: AuditEntryInput): Promise<void> {
    try {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: auditEntryItem(entry, this.now()), ConditionExpression: "attribute_not_exists(pk)" }));
    } catch (error) {
      throw dynamoFailure("PutItem(audit)", error);
    }
  }

  /**
   * Newest first. Each query asks for one entry more than the page still needs, so a full page
   * knows whether anything follows (no cursor to an empty last page). Filters are DynamoDB
   * FilterExpressions on the same partition: see FILTERED_QUERIES for how far a page reads.
   */
  async list(workspaceId: string, query: AuditPageQuery): Promise<AuditPage> {
    const pk = `AUDIT#${workspaceId}`;
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ":pk": pk };
    if (query.actor !== undefined) {
      filters.push("actor.userId = :actor");
      values[":actor"] = query.actor;
    }
    if (query.action !== undefined) {
      // ACTION is one of DynamoDB's reserved words.
      filters.push("#action = :action");
      names["#action"] = "action";
      values[":action"] = query.action;
    }
    const filtered = filters.length > 0;
    const items: AuditEntry[] = [];
    let after = query.after;
    for (let round = 0; round < (filtered ? FILTERED_QUERIES : FILTERED_QUERIES + 1); round++) {
      const wanted = query.limit - items.length + 1;
      let out;
      try {
        out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk",
            ...(filtered ? { FilterExpression: filters.join(" AND ") } : {}),
            ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
            ExpressionAttributeValues: values,
            ScanIndexForward: false,
            Limit: filtered ? Math.max(wanted, FILTERED_READ) : wanted,
            ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
          }),
        );
      } catch (error) {
        throw dynamoFailure("Query(audit of workspace)", error);
      }
      for (const item of out.Items ?? []) {
        const entry = toEntry(item);
        if (entry) items.push(entry);
      }
      if (items.length > query.limit) {
        const page = items.slice(0, query.limit);
        return { items: page, after: sortKeyOf(page[page.length - 1]!) };
      }
      if (!out.LastEvaluatedKey) return { items };
      after = String(out.LastEvaluatedKey.sk);
    }
    // Read as far as one page may: what was found, and where to go on.
    return { items, after };
  }
}
