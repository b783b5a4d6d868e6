import { DeleteCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { transact, type TransactItem } from "../adapters/dynamo/counted-limits.dynamo";
import { conditionalWrite, dynamoFailure, getItem } from "../adapters/dynamo/dynamo-errors";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import type { AppPageProject, AppPageState, AppPageStore, UpdateTokenRecord, UpdateTokenStore } from "./app-page-store.port";
import type { DocumentClient } from "../adapters/dynamo/document-client";

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

function toState(value: unknown): AppPageState | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const slug = str(v.slug);
  if (!slug) return undefined;
  const passwordHash = str(v.passwordHash);
  const tokenSecret = str(v.tokenSecret);
  return { enabled: v.enabled === true, slug, ...(passwordHash ? { passwordHash } : {}), ...(tokenSecret ? { tokenSecret } : {}) };
}

function toProject(item: Record<string, unknown>): AppPageProject {
  const appPage = toState(item.appPage);
  return {
    projectId: String(item.projectId),
    workspaceId: String(item.workspaceId),
    name: String(item.name ?? ""),
    status: item.status === "deleting" ? "deleting" : "active",
    ...(appPage ? { appPage } : {}),
  };
}

/**
 * The app pages in the single table: the settings on the project item (`appPage`), and
 * `APPPAGE#<slug>` / `APPPAGE` naming the project, so a visit is two GetItems (the lookup, then
 * the project, strongly consistent: a page turned off or moved is gone on the next request).
 */
export class DynamoAppPages implements AppPageStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async project(workspaceId: string, projectId: string): Promise<AppPageProject | undefined> {
    const item = await getItem(this.db, this.tableName, keys.project(workspaceId, projectId), "project", { consistent: true });
    return item ? toProject(item) : undefined;
  }

  async bySlug(slug: string): Promise<AppPageProject | undefined> {
    const lookup = await getItem(this.db, this.tableName, keys.appPage(slug), "app page");
    const workspaceId = str(lookup?.workspaceId);
    const projectId = str(lookup?.projectId);
    if (!workspaceId || !projectId) return undefined;
    const project = await this.project(workspaceId, projectId);
    // A lookup left behind by a move that lost a race names a project whose slug is another.
    return project?.appPage?.slug === slug ? project : undefined;
  }

  async save(project: Pick<AppPageProject, "workspaceId" | "projectId">, next: AppPageState, previous: string | undefined): Promise<boolean> {
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.project(project.workspaceId, project.projectId),
          UpdateExpression: "SET appPage = :page",
          // Projects made before the status attribute (key:create's) are active without it.
          ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(#status) OR #status <> :deleting) AND ${previous ? "appPage.slug = :previous" : "attribute_not_exists(appPage)"}`,
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":page": next, ":deleting": "deleting", ...(previous ? { ":previous": previous } : {}) },
        },
      },
    ];
    if (next.slug !== previous) {
      items.push({
        Put: {
          TableName: this.tableName,
          Item: { ...keys.appPage(next.slug), type: "appPage", projectId: project.projectId, workspaceId: project.workspaceId },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      });
      if (previous) items.push({ Delete: { TableName: this.tableName, Key: keys.appPage(previous) } });
    }
    return (await transact(this.db, "app page", items)) === undefined;
  }

  /**
   * What a project's purge removes of its app page and update tokens (dashboard/purge.ts, before
   * the project item itself): the slug's lookup item and every token, so no address or token of a
   * deleted project is left behind. Idempotent: a purge that stopped half way runs it again.
   */
  async forgetProject(workspaceId: string, projectId: string): Promise<void> {
    const tokens = new DynamoUpdateTokens(this.db, this.tableName);
    const [project, owned] = await Promise.all([this.project(workspaceId, projectId), tokens.list(projectId)]);
    const doomed = [...(project?.appPage ? [keys.appPage(project.appPage.slug)] : []), ...owned.map((t) => keys.updateToken(t.tokenHash))];
    try {
      await Promise.all(doomed.map((Key) => this.db.send(new DeleteCommand({ TableName: this.tableName, Key }))));
    } catch (error) {
      throw dynamoFailure("DeleteItem(app page, update tokens)", error);
    }
  }
}

function toToken(item: Record<string, unknown>): UpdateTokenRecord {
  const lastUsedAt = str(item.lastUsedAt);
  return {
    tokenId: String(item.tokenId),
    tokenHash: String(item.pk).slice("UPDATETOKEN#".length),
    projectId: String(item.projectId),
    workspaceId: String(item.workspaceId),
    name: String(item.name ?? ""),
    createdAt: String(item.createdAt),
    createdBy: String(item.createdBy ?? ""),
    ...(lastUsedAt ? { lastUsedAt } : {}),
  };
}

/**
 * Update tokens: `UPDATETOKEN#<sha256>` / `UPDATETOKEN`, listed per project on gsi1
 * (`PROJECT#<id>` / `UPDATETOKEN#<createdAt>#<tokenId>`, beside the project's files and keys),
 * counted on the project item (`updateTokenCount`) so the cap holds under concurrent creates.
 */
export class DynamoUpdateTokens implements UpdateTokenStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async create(record: UpdateTokenRecord, cap: number): Promise<"created" | "limit_reached" | "project_gone"> {
    const failed = await transact(this.db, "update token", [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.project(record.workspaceId, record.projectId),
          UpdateExpression: "ADD updateTokenCount :one",
          ConditionExpression:
            "attribute_exists(pk) AND (attribute_not_exists(#status) OR #status <> :deleting) AND (attribute_not_exists(updateTokenCount) OR updateTokenCount < :cap)",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":one": 1, ":deleting": "deleting", ":cap": cap },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...keys.updateToken(record.tokenHash),
            type: "updateToken",
            tokenId: record.tokenId,
            projectId: record.projectId,
            workspaceId: record.workspaceId,
            name: record.name,
            createdAt: record.createdAt,
            createdBy: record.createdBy,
            gsi1pk: gsi1.project(record.projectId),
            gsi1sk: `UPDATETOKEN#${record.createdAt}#${record.tokenId}`,
          },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ]);
    if (!failed) return "created";
    const project = await getItem(this.db, this.tableName, keys.project(record.workspaceId, record.projectId), "project", { consistent: true });
    return project && project.status !== "deleting" ? "limit_reached" : "project_gone";
  }

  async list(projectId: string): Promise<UpdateTokenRecord[]> {
    try {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: gsi1.name,
          KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
          ExpressionAttributeValues: { ":pk": gsi1.project(projectId), ":prefix": "UPDATETOKEN#" },
          // The cap is 20; a page of 100 holds them all.
          Limit: 100,
        }),
      );
      return (out.Items ?? []).map(toToken);
    } catch (error) {
      throw dynamoFailure("Query(update tokens of project)", error);
    }
  }

  async revoke(record: UpdateTokenRecord): Promise<boolean> {
    const failed = await transact(this.db, "revoke update token", [
      { Delete: { TableName: this.tableName, Key: keys.updateToken(record.tokenHash), ConditionExpression: "attribute_exists(pk)" } },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.project(record.workspaceId, record.projectId),
          UpdateExpression: "ADD updateTokenCount :minus",
          ConditionExpression: "attribute_exists(pk) AND updateTokenCount > :zero",
          ExpressionAttributeValues: { ":minus": -1, ":zero": 0 },
        },
      },
    ]);
    if (!failed) return true;
    if (failed[0]) return false;
    // The project's count is gone (the project is being removed): the token goes all the same.
    return conditionalWrite(
      this.db,
      "DeleteItem(update token)",
      new DeleteCommand({ TableName: this.tableName, Key: keys.updateToken(record.tokenHash), ConditionExpression: "attribute_exists(pk)" }),
    );
  }

  async byHash(tokenHash: string): Promise<UpdateTokenRecord | undefined> {
    const item = await getItem(this.db, this.tableName, keys.updateToken(tokenHash), "update token", { consistent: true });
    return item ? toToken(item) : undefined;
  }

  async touch(tokenHash: string, at: string, since: string): Promise<void> {
    await conditionalWrite(
      this.db,
      "UpdateItem(update token used)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.updateToken(tokenHash),
        UpdateExpression: "SET lastUsedAt = :at",
        ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :since)",
        ExpressionAttributeValues: { ":at": at, ":since": since },
      }),
    );
  }
}
