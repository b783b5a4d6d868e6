import { BatchGetCommand, DeleteCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { dynamoFailure, getItem, queryAll, untilProcessed } from "../adapters/dynamo/dynamo-errors";
import { toRecord } from "../adapters/dynamo/file-repository.dynamo";
import { DynamoFileCatalog } from "../adapters/dynamo/file-catalog.dynamo";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import type { FileRecord } from "../ports";
import type { KnownTesters, SentBuild, TesterPortalReader, TesterSessionRecord, TesterSessionStore } from "./tester-access-deps";
import type { DocumentClient } from "../adapters/dynamo/document-client";

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

/**
 * The most builds the portal reads for one tester: a year of daily builds of a couple of apps. A
 * tester past it sees the newest this many (recipient items are read newest first).
 */
export const MAX_SENT_BUILDS = 1000;

/**
 * Tester sessions as `TESTER#<email>` / `SESSION#<sha256(token)>` items with `ttl` = their end
 * (DynamoDB deletes them lazily; authenticateTester checks the end itself).
 */
export class DynamoTesterSessions implements TesterSessionStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async create(session: TesterSessionRecord): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.testerSession(session.email, session.sessionId), type: "testerSession", ...session, ttl: Math.floor(Date.parse(session.expiresAt) / 1000) },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      throw dynamoFailure("PutItem(testerSession)", error);
    }
  }

  async get(email: string, sessionId: string): Promise<TesterSessionRecord | undefined> {
    // Strongly consistent: a signed-out session fails on the very next request.
    const item = await getItem(this.db, this.tableName, keys.testerSession(email, sessionId), "testerSession", { consistent: true });
    if (!item) return undefined;
    return { sessionId: item.sessionId, email: item.email, createdAt: item.createdAt, expiresAt: item.expiresAt };
  }

  async delete(email: string, sessionId: string): Promise<void> {
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.testerSession(email, sessionId) }));
    } catch (error) {
      throw dynamoFailure("DeleteItem(testerSession)", error);
    }
  }
}

/** Every item of these keys that exists (BatchGetItem, 100 keys a call, unprocessed keys retried). */
async function batchGet(db: DocumentClient, tableName: string, wanted: Key[], what: string): Promise<Item[]> {
  const unique = [...new Map(wanted.map((k) => [`${k.pk}\n${k.sk}`, k])).values()];
  const found: Item[] = [];
  try {
    for (let i = 0; i < unique.length; i += 100) {
      await untilProcessed<Record<string, unknown>>(unique.slice(i, i + 100), async (batch) => {
        const out = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: batch } } }));
        found.push(...(out.Responses?.[tableName] ?? []));
        return out.UnprocessedKeys?.[tableName]?.Keys ?? [];
      });
    }
  } catch (error) {
    throw dynamoFailure(`BatchGetItem(${what})`, error);
  }
  return found;
}

/**
 * Who is a tester, and what was sent to them, read from gsi1 `TESTER#<email>`: groupTester items
 * (`GROUP#…`) and recipient items (`BUILD#<at>#<fileId>`), both written by their owners
 * (tester-groups, distribution) with the tester's normalized address.
 */
export class DynamoTesterDirectory implements KnownTesters, TesterPortalReader {
  private readonly files: DynamoFileCatalog;

  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {
    this.files = new DynamoFileCatalog(db, tableName);
  }

  /** One Query with Limit 1: any group membership or any build sent makes an address a tester. */
  async isKnown(email: string): Promise<boolean> {
    try {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: gsi1.name,
          KeyConditionExpression: "gsi1pk = :pk",
          ExpressionAttributeValues: { ":pk": gsi1.tester(email) },
          Limit: 1,
        }),
      );
      return (out.Items?.length ?? 0) > 0;
    } catch (error) {
      throw dynamoFailure("Query(tester)", error);
    }
  }

  /** The tester's recipient items, newest first, at most MAX_SENT_BUILDS. */
  private recipients(email: string): Promise<Item[]> {
    return queryAll(
      this.db,
      {
        TableName: this.tableName,
        IndexName: gsi1.name,
        KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
        ExpressionAttributeValues: { ":pk": gsi1.tester(email), ":prefix": "BUILD#" },
        ScanIndexForward: false,
      },
      "builds of tester",
      MAX_SENT_BUILDS,
    );
  }

  /**
   * Recipient items joined with their file, project, workspace and first distribution (one
   * BatchGetItem each), and the share links' expiry (one more). Rows whose file, project or
   * workspace item is gone are left out: the build (or its project) was deleted.
   */
  async sentBuilds(email: string, projectId?: string): Promise<SentBuild[]> {
    const recipients = (await this.recipients(email)).filter(
      (r) => typeof r.fileId === "string" && typeof r.projectId === "string" && typeof r.workspaceId === "string" && (!projectId || r.projectId === projectId),
    );
    if (recipients.length === 0) return [];
    const str = (item: Item, name: string) => item[name] as string;
    const [fileItems, projectItems, workspaceItems, distributionItems] = await Promise.all([
      batchGet(this.db, this.tableName, recipients.map((r) => keys.file(str(r, "fileId"))), "files"),
      batchGet(this.db, this.tableName, recipients.map((r) => keys.project(str(r, "workspaceId"), str(r, "projectId"))), "projects"),
      batchGet(this.db, this.tableName, recipients.map((r) => keys.workspace(str(r, "workspaceId"))), "workspaces"),
      batchGet(
        this.db,
        this.tableName,
        recipients.filter((r) => typeof r.distributionId === "string").map((r) => keys.distribution(str(r, "fileId"), str(r, "distributionId"))),
        "distributions",
      ),
    ]);
    const files = new Map<string, FileRecord>(fileItems.map((i) => [str(i, "fileId"), toRecord(i)]));
    const projects = new Map(projectItems.map((i) => [str(i, "projectId"), i]));
    const workspaces = new Map(workspaceItems.map((i) => [str(i, "workspaceId"), i]));
    const messages = new Map(distributionItems.map((i) => [str(i, "distributionId"), typeof i.message === "string" ? i.message : null]));
    const userKeys = [...files.values()].flatMap((f) => (f.userKey ? [f.userKey] : []));
    const stats = userKeys.length ? await this.files.linkStats(userKeys) : new Map();

    const rows: SentBuild[] = [];
    for (const r of recipients) {
      const file = files.get(str(r, "fileId"));
      const project = projects.get(str(r, "projectId"));
      const workspace = workspaces.get(str(r, "workspaceId"));
      if (!file || !project || !workspace || file.projectId !== r.projectId) continue;
      const expiresAt = file.userKey ? stats.get(file.userKey)?.expiresAt : undefined;
      rows.push({
        sentAt: str(r, "createdAt"),
        file,
        project: { projectId: str(project, "projectId"), name: str(project, "name"), status: str(project, "status") },
        workspace: { workspaceId: str(workspace, "workspaceId"), name: str(workspace, "name") },
        message: typeof r.distributionId === "string" ? (messages.get(r.distributionId) ?? null) : null,
        ...(expiresAt ? { linkExpiresAt: expiresAt } : {}),
      });
    }
    return rows;
  }
}
