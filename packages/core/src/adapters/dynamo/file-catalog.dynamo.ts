import { BatchGetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { FileCatalog, FilePage, FileRecord, LinkStats } from "../../ports";
import { DynamoFileRepository, toRecord } from "./file-repository.dynamo";
import { dynamoFailure, isConditionFailure, untilProcessed } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import { batchWrite } from "./usage.dynamo";
import { endedLinkItem } from "./ended-link.dynamo";
import { DynamoStageSecret } from "./stage-secret.dynamo";
import { removeTesterItems } from "../../installs/install-records.dynamo";
import { INSTALL_LINK_SECRET } from "../../testers/install-link";
import { diffSeverity } from "../../releases/build-diff";
import { rebasedDiffs } from "../../releases/compare-builds";
import type { DocumentClient } from "./document-client";

/**
 * A project's files on gsi1 (`PROJECT#<id>` / `FILE#<createdAt>#<fileId>`), newest first. A page
 * is one Query with Limit and ExclusiveStartKey, so its cost does not grow with the project.
 */
export class DynamoFileCatalog implements FileCatalog {
  private readonly records: DynamoFileRepository;
  /** Keys the personal install links of deleted builds' testers (removeTesterItems). */
  private readonly installLinkSecret: DynamoStageSecret;

  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
    /** When a deleted build's link trace expires is counted from this. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = new DynamoFileRepository(db, tableName);
    this.installLinkSecret = new DynamoStageSecret(db, tableName, INSTALL_LINK_SECRET);
  }

  get(fileId: string): Promise<FileRecord | undefined> {
    return this.records.get(fileId);
  }

  async page(projectId: string, limit: number, after?: string): Promise<FilePage> {
    const pk = gsi1.project(projectId);
    // The base table key of the item `after` names: its file id is the sort key's last part.
    const exclusiveStart = after
      ? { gsi1pk: pk, gsi1sk: after, ...keys.file(after.slice(after.lastIndexOf("#") + 1)) }
      : undefined;
    let out;
    try {
      out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: gsi1.name,
          KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
          ExpressionAttributeValues: { ":pk": pk, ":prefix": "FILE#" },
          ScanIndexForward: false,
          Limit: limit,
          ...(exclusiveStart ? { ExclusiveStartKey: exclusiveStart } : {}),
        }),
      );
    } catch (error) {
      throw dynamoFailure("Query(files of project)", error);
    }
    const items = (out.Items ?? []).map((item) => toRecord(item));
    const page: FilePage = { items };
    if (out.LastEvaluatedKey && items.length > 0) page.after = out.LastEvaluatedKey.gsi1sk as string;
    return page;
  }

  async linkStats(userKeys: string[]): Promise<Map<string, LinkStats>> {
    const stats = new Map<string, LinkStats>();
    const unique = [...new Set(userKeys)];
    try {
      for (let i = 0; i < unique.length; i += 100) {
        await untilProcessed<Record<string, unknown>>(unique.slice(i, i + 100).map((k) => keys.share(k)), async (wanted) => {
          const out = await this.db.send(
            new BatchGetCommand({
              RequestItems: {
                [this.tableName]: {
                  Keys: wanted,
                  // Only what the list shows; the password hash is read to say "protected" and goes no further.
                  ProjectionExpression: "pk, fileId, enabled, linkExpiresAt, maxDownloads, downloads, installs, passwordHash",
                },
              },
            }),
          );
          for (const item of out.Responses?.[this.tableName] ?? []) {
            // A trace (deleted build, replaced link) has no fileId and no stats.
            if (typeof item.fileId !== "string") continue;
            stats.set(String(item.pk).slice("SHARE#".length), {
              enabled: item.enabled !== false,
              ...(typeof item.linkExpiresAt === "string" ? { expiresAt: item.linkExpiresAt } : {}),
              ...(typeof item.maxDownloads === "number" ? { maxDownloads: item.maxDownloads } : {}),
              hasPassword: typeof item.passwordHash === "string",
              downloads: typeof item.downloads === "number" ? item.downloads : 0,
              installs: typeof item.installs === "number" ? item.installs : 0,
            });
          }
          return out.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
        });
      }
    } catch (error) {
      throw dynamoFailure("BatchGetItem(share links)", error);
    }
    return stats;
  }

  async remove(file: FileRecord): Promise<void> {
    await this.removeMany([file]);
    if (file.status === "completed") await this.rebaseDiffs(file);
  }

  /**
   * Later builds whose stored diff (docs/release-safety.md) named this one are compared again with
   * the build now before them, so nothing keeps naming a deleted build and the lists' danger
   * markers stay true. Each write is conditional on the diff it replaces (a concurrent rebase or
   * delete wins). Best effort: the build is already gone, and failing its delete now would only
   * make a retry answer 404; a diff left as it was still says what complete said.
   */
  private async rebaseDiffs(removed: FileRecord): Promise<void> {
    try {
      for (const { fileId, was, diff } of await rebasedDiffs(this, removed)) {
        const severity = diffSeverity(diff);
        await this.db
          .send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: keys.file(fileId),
              UpdateExpression: severity ? "SET diff = :diff, diffSeverity = :severity" : "SET diff = :diff REMOVE diffSeverity",
              ConditionExpression: "attribute_exists(pk) AND diff = :was",
              ExpressionAttributeValues: { ":diff": JSON.stringify(diff), ":was": JSON.stringify(was), ...(severity ? { ":severity": severity } : {}) },
            }),
          )
          .catch((error: unknown) => {
            if (!(error instanceof Error && error.name === "ConditionalCheckFailedException")) throw error;
          });
      }
    } catch {
      // See above: best effort.
    }
  }

  async removeMany(files: FileRecord[]): Promise<void> {
    const now = this.now();
    // What testers left of the builds (distributions, recipients, installs, personal links) goes
    // first, so a purge stopped after it finds the records again; and once more after the records,
    // for a download counted in between (recording needs the record from then on).
    const fileIds = files.map((f) => f.fileId);
    await removeTesterItems(this.db, this.tableName, this.installLinkSecret, fileIds, now);
    const requests = files.flatMap((f) => [
      { DeleteRequest: { Key: keys.file(f.fileId) } },
      // The share item gives way to the link's trace: its visitors learn the build was removed (410).
      ...(f.userKey ? [{ PutRequest: { Item: endedLinkItem(f.userKey, "removed", now) } }] : []),
      // The seal item complete writes for a pinned version (it expires by TTL otherwise, and then
      // seals an object that is gone). Deleting it here is not a TTL deletion, so it triggers nothing.
      { DeleteRequest: { Key: keys.seal(f.fileId) } },
    ]);
    try {
      await batchWrite(this.db, this.tableName, requests);
    } catch (error) {
      throw dynamoFailure("BatchWriteItem(files)", error);
    }
    await removeTesterItems(this.db, this.tableName, this.installLinkSecret, fileIds, now);
  }

  async setPinned(fileId: string, pinned: boolean): Promise<FileRecord | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.file(fileId),
          // Unpinned is the attribute's absence, like every record stored before pins.
          UpdateExpression: pinned ? "SET pinned = :true" : "REMOVE pinned",
          ConditionExpression: "attribute_exists(pk) AND #status = :completed",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":completed": "completed", ...(pinned ? { ":true": true } : {}) },
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toRecord(out.Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw dynamoFailure("UpdateItem(file pinned)", error);
    }
  }
}
