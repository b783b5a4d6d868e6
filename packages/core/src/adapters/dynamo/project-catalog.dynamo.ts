import { DeleteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createCountedProject, deleteCountedProject } from "./counted-limits.dynamo";
import { ConflictError } from "../../errors/domain-errors";
import type { Project, ProjectCatalog, ProjectChanges, ProjectView } from "../../ports";
import type { RetentionPolicy } from "../../releases/retention";
import { cancelledConditions, conditionalWrite, dynamoFailure, getItem, isConditionFailure, queryAll } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

function toView(item: Record<string, any>): ProjectView {
  const view: ProjectView = {
    projectId: item.projectId,
    workspaceId: item.workspaceId,
    userId: item.userId,
    name: item.name,
    description: item.description ?? "",
    color: item.color,
    createdAt: item.createdAt,
    status: item.status === "deleting" ? "deleting" : "active",
    fileCount: Math.max(0, Number(item.fileCount ?? 0)),
  };
  if (item.lastUploadAt) view.lastUploadAt = item.lastUploadAt;
  const retention = retentionOf(item.retention);
  if (retention) view.retention = retention;
  // An ADD on an old project creates the attribute with that one build's bytes: only a counted
  // project's number is its storage.
  if (item.storageCounted === true && typeof item.storageBytes === "number") view.storageBytes = Math.max(0, item.storageBytes);
  return view;
}

/** The stored policy (a map of the numbers it names), or undefined. */
function retentionOf(value: unknown): RetentionPolicy | undefined {
  if (!value || typeof value !== "object") return undefined;
  const { keepLatest, maxAgeDays } = value as Record<string, unknown>;
  const policy: RetentionPolicy = {};
  if (typeof keepLatest === "number") policy.keepLatest = keepLatest;
  if (typeof maxAgeDays === "number") policy.maxAgeDays = maxAgeDays;
  return policy.keepLatest === undefined && policy.maxAgeDays === undefined ? undefined : policy;
}

/**
 * A completed upload counted on its project (`fileCount`, `storageBytes`, `lastUploadAt`), never
 * recreating a project deleted meanwhile: an item of complete's transaction (file-repository.dynamo.ts).
 */
export function projectUploadCount(tableName: string, workspaceId: string, projectId: string, at: string, bytes: number) {
  return {
    TableName: tableName,
    Key: keys.project(workspaceId, projectId),
    UpdateExpression: "ADD fileCount :one, storageBytes :bytes SET lastUploadAt = :at",
    ConditionExpression: "attribute_exists(pk)",
    ExpressionAttributeValues: { ":one": 1, ":bytes": bytes, ":at": at } as Record<string, unknown>,
  };
}

/**
 * Projects live in their workspace (`WORKSPACE#<workspaceId>` / `PROJECT#<projectId>`), so every
 * read is scoped by the workspace's id: another workspace's project id simply is not found there.
 * A project found by its id alone (gsi1 `PROJECT#<projectId>` / `PROJECT`) names its workspace,
 * whose membership then decides who may see it (core's projectAccess).
 */
export class DynamoProjectCatalog implements ProjectCatalog {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async list(workspaceId: string): Promise<ProjectView[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk, ":prefix": "PROJECT#" },
      },
      "projects",
    );
    return items.map(toView);
  }

  async get(workspaceId: string, projectId: string): Promise<ProjectView | undefined> {
    const item = await getItem(this.db, this.tableName, keys.project(workspaceId, projectId), "project", { consistent: true });
    return item ? toView(item) : undefined;
  }

  /**
   * One Query of gsi1 (`PROJECT#<id>`, sort key exactly `PROJECT`: the project's files and keys
   * share that partition). The index is eventually consistent, so this only locates the project;
   * what it holds is read from the table (get). An item without `workspaceId` is one the
   * migration has not moved yet (it runs before the stage serves): not found.
   */
  async workspaceOf(projectId: string): Promise<string | undefined> {
    try {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: gsi1.name,
          KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
          ExpressionAttributeValues: { ":pk": gsi1.project(projectId), ":sk": "PROJECT" },
          Limit: 1,
        }),
      );
      const workspaceId = page.Items?.[0]?.workspaceId;
      return typeof workspaceId === "string" ? workspaceId : undefined;
    } catch (error) {
      throw dynamoFailure("Query(project by id)", error);
    }
  }

  async find(projectId: string): Promise<ProjectView | undefined> {
    const workspaceId = await this.workspaceOf(projectId);
    return workspaceId ? this.get(workspaceId, projectId) : undefined;
  }

  /** Within the workspace's limit, counted exactly (see counted-limits.dynamo.ts). */
  async create(project: Project): Promise<void> {
    await createCountedProject(this.db, this.tableName, project.workspaceId, {
      project: {
        ...keys.project(project.workspaceId, project.projectId),
        type: "project",
        gsi1pk: gsi1.project(project.projectId),
        gsi1sk: "PROJECT",
        ...project,
        status: "active",
        fileCount: 0,
        // Counted from the start: complete and removals ADD to it (docs/release-safety.md).
        storageBytes: 0,
        storageCounted: true,
      },
      name: { ...keys.projectName(project.workspaceId, project.name), type: "projectName", projectId: project.projectId },
    });
  }

  async update(current: ProjectView, changes: ProjectChanges): Promise<boolean> {
    const names: Record<string, string> = { "#status": "status" };
    const values: Record<string, unknown> = { ":active": "active" };
    const sets: string[] = [];
    const removes: string[] = [];
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      // null clears a setting (a retention policy turned off).
      if (value === null) {
        removes.push(`#${field}`);
        continue;
      }
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
    if (sets.length === 0 && removes.length === 0) return true;
    const update = {
      TableName: this.tableName,
      Key: keys.project(current.workspaceId, current.projectId),
      UpdateExpression: [sets.length ? `SET ${sets.join(", ")}` : "", removes.length ? `REMOVE ${removes.join(", ")}` : ""].filter(Boolean).join(" "),
      ConditionExpression: "attribute_exists(pk) AND #status = :active",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    const renamed = changes.name !== undefined && changes.name.toLowerCase() !== current.name.toLowerCase();
    // The daily run's work list follows the policy in the same transaction (withRetention).
    const listed =
      changes.retention === undefined
        ? []
        : changes.retention === null
          ? [{ Delete: { TableName: this.tableName, Key: keys.retentionPolicy(current.projectId) } }]
          : [{ Put: { TableName: this.tableName, Item: { ...keys.retentionPolicy(current.projectId), type: "retentionPolicy", workspaceId: current.workspaceId, projectId: current.projectId } } }];
    try {
      if (!renamed && listed.length === 0) {
        // A change of case only keeps the same name item.
        await this.db.send(new UpdateCommand(update));
        return true;
      }
      const rename = renamed
        ? [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.projectName(current.workspaceId, changes.name!), type: "projectName", projectId: current.projectId },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            { Delete: { TableName: this.tableName, Key: keys.projectName(current.workspaceId, current.name) } },
          ]
        : [];
      await this.db.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...listed, ...rename] }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      const failed = cancelledConditions(error);
      // The name item's Put comes after the project and the work list's item.
      if (renamed && failed?.[1 + listed.length]) throw new ConflictError("already_exists", "This project name is taken");
      if (failed?.[0]) return false;
      throw dynamoFailure("UpdateItem(project)", error);
    }
  }

  markDeleting(workspaceId: string, projectId: string): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(project deleting)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.project(workspaceId, projectId),
        UpdateExpression: "SET #status = :deleting",
        ConditionExpression: "attribute_exists(pk) AND #status = :active",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":deleting": "deleting", ":active": "active" },
      }),
    );
  }

  async remove(workspaceId: string, projectId: string, name: string): Promise<void> {
    try {
      // The name item first, and only while it still points at this project (a new project may
      // own the name by now); a rerun after a crash between the two deletes finishes the job.
      await this.db
        .send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: keys.projectName(workspaceId, name),
            ConditionExpression: "projectId = :projectId",
            ExpressionAttributeValues: { ":projectId": projectId },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
    } catch (error) {
      throw dynamoFailure("DeleteItem(project name)", error);
    }
    await deleteCountedProject(this.db, this.tableName, workspaceId, projectId);
  }

  async forgetUpload(workspaceId: string, projectId: string, bytes = 0): Promise<void> {
    await this.counter(workspaceId, projectId, "ADD fileCount :minusOne, storageBytes :bytes", { ":minusOne": -1, ":bytes": -bytes });
  }

  async withRetention(): Promise<{ workspaceId: string; projectId: string }[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.retentionPolicy("").pk },
      },
      "projects with retention",
    );
    return items.map((item) => ({ workspaceId: String(item.workspaceId), projectId: String(item.projectId) }));
  }

  async forgetRetention(projectId: string): Promise<void> {
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.retentionPolicy(projectId) }));
    } catch (error) {
      throw dynamoFailure("DeleteItem(retention policy)", error);
    }
  }

  /**
   * Why this is exact: complete writes the file record and ADDs to the counter in one
   * transaction, and a removal removes the record before it subtracts. So the counter is read first, the files
   * summed next, and the sum written only while the counter is unchanged: an ADD before the read
   * belongs to a file the sum sees (or no longer sees), an ADD after it makes the write fail.
   * `storageCounted` marks the result; until then an ADD's number is not the project's storage.
   */
  async countStorage(workspaceId: string, projectId: string, sum: () => Promise<number>): Promise<number | undefined> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const item = await getItem(this.db, this.tableName, keys.project(workspaceId, projectId), "project", { consistent: true });
      if (!item) return undefined;
      if (item.storageCounted === true && typeof item.storageBytes === "number") return Math.max(0, item.storageBytes);
      const seen = typeof item.storageBytes === "number" ? item.storageBytes : undefined;
      const bytes = await sum();
      const written = await conditionalWrite(
        this.db,
        "UpdateItem(project storage)",
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.project(workspaceId, projectId),
          UpdateExpression: "SET storageBytes = :bytes, storageCounted = :true",
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(storageCounted) AND ${seen === undefined ? "attribute_not_exists(storageBytes)" : "storageBytes = :seen"}`,
          ExpressionAttributeValues: { ":bytes": bytes, ":true": true, ...(seen === undefined ? {} : { ":seen": seen }) },
        }),
      );
      if (written) return bytes;
    }
    return undefined;
  }


  /** Counter updates never recreate a project that was deleted meanwhile. */
  private async counter(workspaceId: string, projectId: string, expression: string, values: Record<string, unknown>) {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.project(workspaceId, projectId),
          UpdateExpression: expression,
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return;
      throw dynamoFailure("UpdateItem(project counters)", error);
    }
  }
}
