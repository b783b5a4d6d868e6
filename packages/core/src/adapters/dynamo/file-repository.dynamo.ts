import { DeleteCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DependencyError } from "../../errors/domain-errors";
import type { CompletedFile, FileRecord, FileRepository, PackageMetadata, SharedFile, UploadCounts } from "../../ports";
import { transact, type TransactItem } from "./counted-limits.dynamo";
import { projectUploadCount } from "./project-catalog.dynamo";
import { usageUploadCount } from "./usage.dynamo";
import { conditionalWrite, dynamoFailure, getItem } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/**
 * Metadata is stored as a JSON string, not a DynamoDB map: extractor output has keys DynamoDB
 * maps cannot hold (the default label's locale is ""), and it is only ever read whole.
 */
const encodeMetadata = (m: PackageMetadata) => JSON.stringify(m);
const decodeMetadata = (s: unknown) => (typeof s === "string" ? (JSON.parse(s) as PackageMetadata) : undefined);

/** A file item as a record (also read by the dashboard's file catalog). */
export function toRecord(item: Record<string, unknown>): FileRecord {
  const record: FileRecord = {
    fileId: item.fileId as string,
    key: item.key as string,
    projectId: item.projectId as string,
    clientId: item.clientId as string,
    fileName: item.fileName as string,
    fileType: item.fileType as string,
    fileSize: item.fileSize as number,
    status: item.status as FileRecord["status"],
    createdAt: item.createdAt as string,
  };
  if (typeof item.workspaceId === "string") record.workspaceId = item.workspaceId;
  if (typeof item.ttl === "number") record.expiresAt = item.ttl;
  if (item.completedAt) record.completedAt = item.completedAt as string;
  if (item.userKey) record.userKey = item.userKey as string;
  if (typeof item.versionId === "string") record.versionId = item.versionId;
  if (typeof item.uploadId === "string") record.uploadId = item.uploadId;
  if (typeof item.partSize === "number") record.partSize = item.partSize;
  if (item.checksumAlgorithm === "CRC32") record.checksumAlgorithm = "CRC32";
  const metadata = decodeMetadata(item.metadata);
  if (metadata) record.metadata = metadata;
  if (item.iconKey) record.iconKey = item.iconKey as string;
  if (typeof item.iconVersionId === "string") record.iconVersionId = item.iconVersionId;
  if (item.rejection) record.rejection = item.rejection as FileRecord["rejection"];
  if (item.buildContext && typeof item.buildContext === "object") record.buildContext = item.buildContext as FileRecord["buildContext"];
  if (item.pinned === true) record.pinned = true;
  if (Array.isArray(item.provisionedUdids)) record.provisionedUdids = item.provisionedUdids.filter((u): u is string => typeof u === "string");
  if (typeof item.diff === "string") {
    record.diff = JSON.parse(item.diff) as FileRecord["diff"];
    record.diffSeverity = typeof item.diffSeverity === "string" ? (item.diffSeverity as FileRecord["diffSeverity"]) : null;
  }
  return record;
}

export class DynamoFileRepository implements FileRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async createPending(record: FileRecord): Promise<void> {
    const { expiresAt, metadata: _unused, ...rest } = record;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.file(record.fileId),
            type: "file",
            gsi1pk: gsi1.project(record.projectId),
            gsi1sk: `FILE#${record.createdAt}#${record.fileId}`,
            ...rest,
            ...(expiresAt !== undefined ? { ttl: expiresAt } : {}),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      throw dynamoFailure("PutItem(file)", error);
    }
  }

  async get(fileId: string): Promise<FileRecord | undefined> {
    // Strongly consistent: complete re-reads right after a concurrent writer won.
    const item = await getItem(this.db, this.tableName, keys.file(fileId), "file", { consistent: true });
    return item ? toRecord(item) : undefined;
  }

  async complete(file: CompletedFile, counts?: UploadCounts): Promise<boolean> {
    const shared: SharedFile = {
      userKey: file.userKey,
      fileId: file.fileId,
      projectId: file.projectId,
      key: file.key,
      fileName: file.fileName,
      fileSize: file.fileSize,
      metadata: file.metadata,
      completedAt: file.completedAt,
      ...(file.versionId ? { versionId: file.versionId } : {}),
      ...(file.iconKey ? { iconKey: file.iconKey } : {}),
      ...(file.iconVersionId ? { iconVersionId: file.iconVersionId } : {}),
      ...(file.buildContext ? { buildContext: file.buildContext } : {}),
      // For the share page's iOS verdict without a read of the file item (docs/devices.md). At most
      // MAX_PROVISIONED_UDIDS (1,000, extraction's bound) of 40 characters: ~45 KB, as on the record.
      ...(file.workspaceId ? { workspaceId: file.workspaceId } : {}),
      ...(file.provisionedUdids ? { provisionedUdids: file.provisionedUdids } : {}),
    };
    // Optional attributes the completed record carries, written only when present.
    const optional = {
      ...(file.versionId ? { versionId: file.versionId } : {}),
      ...(file.iconKey ? { iconKey: file.iconKey } : {}),
      ...(file.iconVersionId ? { iconVersionId: file.iconVersionId } : {}),
      ...(file.buildContext ? { buildContext: file.buildContext } : {}),
      // The profile's UDIDs (docs/devices.md): on the file record, and copied to the share item above.
      ...(file.provisionedUdids ? { provisionedUdids: file.provisionedUdids } : {}),
      // A JSON string like metadata (read whole, never queried); "null" for a first build. Its
      // severity is a plain attribute beside it, what a file list reads.
      ...(file.diff !== undefined ? { diff: JSON.stringify(file.diff) } : {}),
      ...(file.diffSeverity ? { diffSeverity: file.diffSeverity } : {}),
    };
    const optionalNames = Object.keys(optional);
    // One JSON string for both items (the same metadata, stringified once).
    const metadata = encodeMetadata(file.metadata);
    const completing: TransactItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.file(file.fileId),
          // Completed records are kept: removing ttl stops DynamoDB from deleting them.
          UpdateExpression:
            "SET #status = :completed, userKey = :userKey, metadata = :metadata, completedAt = :at" +
            optionalNames.map((name) => `, ${name} = :${name}`).join("") +
            " REMOVE #ttl",
          ConditionExpression: "#status = :pending",
          ExpressionAttributeNames: { "#status": "status", "#ttl": "ttl" },
          ExpressionAttributeValues: {
            ":completed": "completed",
            ":pending": "pending",
            ":userKey": file.userKey,
            ":metadata": metadata,
            ":at": file.completedAt,
            ...Object.fromEntries(Object.entries(optional).map(([name, value]) => [`:${name}`, value])),
          },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.share(file.userKey), type: "share", ...shared, metadata },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      // In the same transaction, so a completed pinned version always gets sealed.
      ...(file.versionId && file.sealAt !== undefined
        ? [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.seal(file.fileId), type: "seal", key: file.key, versionId: file.versionId, ttl: file.sealAt },
              },
            },
          ]
        : []),
    ];
    // Counted in the same transaction (docs/data-model.md "Complete's round trips"): the project
    // item is shared by every complete of the project, so concurrent ones may conflict; `transact`
    // retries those with a jittered wait.
    const counting: TransactItem[] = counts
      ? [
          { Update: projectUploadCount(this.tableName, counts.workspaceId, file.projectId, file.completedAt, file.fileSize) },
          ...(counts.clientId ? [{ Update: usageUploadCount(this.tableName, counts.clientId, new Date(file.completedAt), file.fileSize) }] : []),
        ]
      : [];
    const failed = await transact(this.db, "complete", [...completing, ...counting]);
    if (!failed) return true;
    // No longer pending: another complete won, and nothing was written.
    if (failed[0]) return false;
    // The project is gone (deleted while this upload finished): the build is stored uncounted,
    // as the counter update alone would have left it.
    if (counts && failed[completing.length]) return this.complete(file);
    throw new DependencyError("dynamodb", `TransactWriteItems(complete): ${failed[1] ? "the share key is taken" : "a condition failed"}`);
  }

  reject(fileId: string, rejection: { reason: string; message: string }, at: string): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(reject)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.file(fileId),
        UpdateExpression: "SET #status = :rejected, rejection = :rejection, rejectedAt = :at REMOVE #ttl",
        ConditionExpression: "#status = :pending",
        ExpressionAttributeNames: { "#status": "status", "#ttl": "ttl" },
        ExpressionAttributeValues: { ":rejected": "rejected", ":pending": "pending", ":rejection": rejection, ":at": at },
      }),
    );
  }

  deletePending(fileId: string): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "DeleteItem(pending file)",
      new DeleteCommand({
        TableName: this.tableName,
        Key: keys.file(fileId),
        ConditionExpression: "#status = :pending",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":pending": "pending" },
      }),
    );
  }

  /** `read`: the share item already fetched (the link adapter reads it with its settings). */
  async getShared(userKey: string, read?: Record<string, any>): Promise<SharedFile | undefined> {
    const item = read ?? (await getItem(this.db, this.tableName, keys.share(userKey), "share"));
    // A deleted build's or replaced link's trace shares the key and serves nothing.
    if (!item || item.type !== "share") return undefined;
    const { fileId, projectId, key, fileName, fileSize, completedAt, iconKey, versionId, iconVersionId } = item;
    const shared: SharedFile = { userKey, fileId, projectId, key, fileName, fileSize, metadata: decodeMetadata(item.metadata)!, completedAt };
    if (typeof versionId === "string") shared.versionId = versionId;
    if (iconKey) shared.iconKey = iconKey;
    if (typeof iconVersionId === "string") shared.iconVersionId = iconVersionId;
    if (item.buildContext && typeof item.buildContext === "object") shared.buildContext = item.buildContext as SharedFile["buildContext"];
    if (typeof item.workspaceId === "string") shared.workspaceId = item.workspaceId;
    if (Array.isArray(item.provisionedUdids)) shared.provisionedUdids = item.provisionedUdids.filter((u): u is string => typeof u === "string");
    return shared;
  }
}
