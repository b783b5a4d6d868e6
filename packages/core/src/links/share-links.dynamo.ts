import { TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { cancelledConditions, conditionalWrite, dynamoFailure, getItem, isConditionFailure } from "../adapters/dynamo/dynamo-errors";
import { keys } from "../adapters/dynamo/table-keys";
import { DynamoFileRepository } from "../adapters/dynamo/file-repository.dynamo";
import { endedLinkItem, endedOf } from "../adapters/dynamo/ended-link.dynamo";
import { auditEntryItem } from "../adapters/dynamo/audit-log.dynamo";
import type { AuditEntryInput } from "../ports";
import type { DownloadCount, EndedLink, LinkOwner, ShareLink, ShareLinkChanges, ShareLinks } from "./share-link.port";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/** Per-day counters are top-level attributes (`dl_2026-11-24`, `in_…`): ADD creates them, no map to initialize. */
const DOWNLOADS_OF = "dl_";
const INSTALLS_OF = "in_";
/** Days older than the 30 shown are removed by the counting updates themselves, a window at a time. */
const KEEP_DAYS = 31;
const PRUNE_DAYS = 14;

function staleDays(day: string): string[] {
  const today = Date.parse(`${day}T00:00:00Z`);
  return Array.from({ length: PRUNE_DAYS }, (_, i) => new Date(today - (KEEP_DAYS + i) * 86_400_000).toISOString().slice(0, 10));
}

/** The SET/REMOVE expression of a change of settings; undefined when it changes nothing. */
function settingsChange(changes: ShareLinkChanges): { expression: string; values?: Record<string, unknown> } | undefined {
  const set: string[] = [];
  const remove: string[] = [];
  const values: Record<string, unknown> = {};
  const assign = (name: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null) remove.push(name);
    else {
      set.push(`${name} = :${name}`);
      values[`:${name}`] = value;
    }
  };
  assign("enabled", changes.enabled);
  assign("linkExpiresAt", changes.expiresAt);
  assign("maxDownloads", changes.maxDownloads);
  if (changes.password === null) remove.push("passwordHash");
  else if (changes.password) {
    assign("passwordHash", changes.password.hash);
    assign("tokenSecret", changes.password.tokenSecret);
  }
  if (set.length === 0 && remove.length === 0) return undefined;
  const expression = [set.length ? `SET ${set.join(", ")}` : "", remove.length ? `REMOVE ${remove.join(", ")}` : ""].join(" ").trim();
  return Object.keys(values).length ? { expression, values } : { expression };
}

/**
 * The share item (`SHARE#<userKey>`) carries the link's settings and counters, so one GetItem
 * serves the page and one conditional UpdateItem admits a download under the cap.
 */
export class DynamoShareLinks implements ShareLinks {
  private readonly files: DynamoFileRepository;

  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
    /** When a regenerated link's trace expires is counted from this. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.files = new DynamoFileRepository(db, tableName);
  }

  async get(userKey: string): Promise<ShareLink | undefined> {
    const found = await this.find(userKey);
    return found && !("ended" in found) ? found : undefined;
  }

  async find(userKey: string): Promise<ShareLink | EndedLink | undefined> {
    const item = await getItem(this.db, this.tableName, keys.share(userKey), "share", { consistent: true });
    if (!item) return undefined;
    const ended = endedOf(item);
    if (ended) return { userKey, ended };
    const shared = await this.files.getShared(userKey, item);
    if (!shared) return undefined;
    const days: ShareLink["days"] = {};
    for (const [name, value] of Object.entries(item)) {
      const prefix = name.slice(0, 3);
      if ((prefix !== DOWNLOADS_OF && prefix !== INSTALLS_OF) || typeof value !== "number") continue;
      const entry = (days[name.slice(3)] ??= { downloads: 0, installs: 0 });
      if (prefix === DOWNLOADS_OF) entry.downloads = value;
      else entry.installs = value;
    }
    return {
      ...shared,
      enabled: item.enabled !== false,
      ...(typeof item.linkExpiresAt === "string" ? { expiresAt: item.linkExpiresAt } : {}),
      ...(typeof item.passwordHash === "string" ? { passwordHash: item.passwordHash } : {}),
      ...(typeof item.tokenSecret === "string" ? { tokenSecret: item.tokenSecret } : {}),
      ...(typeof item.maxDownloads === "number" ? { maxDownloads: item.maxDownloads } : {}),
      downloads: typeof item.downloads === "number" ? item.downloads : 0,
      installs: typeof item.installs === "number" ? item.installs : 0,
      days,
    };
  }

  async update(userKey: string, changes: ShareLinkChanges): Promise<boolean> {
    const change = settingsChange(changes);
    if (!change) return (await this.get(userKey)) !== undefined;
    return conditionalWrite(
      this.db,
      "UpdateItem(share settings)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.share(userKey),
        UpdateExpression: change.expression,
        // A live share item only: a trace (deleted build, replaced link) has no fileId.
        ConditionExpression: "attribute_exists(fileId)",
        ...(change.values ? { ExpressionAttributeValues: change.values } : {}),
      }),
    );
  }

  /**
   * One TransactWriteItems: a condition on the project item (it exists in the workspace's
   * partition, so it is still that workspace's, and is not being deleted: what the project
   * catalog reads as active), the settings update conditioned on the share item still naming the
   * file (a trace has no fileId; a regenerated link's old key names no file), a condition on the
   * caller's member item (a role that may manage links: a removal or demotion counts at once), and
   * the audit entry of the change. With nothing to change, the condition checks answer the same
   * question and nothing is logged.
   */
  async updateOwned(owner: LinkOwner, changes: ShareLinkChanges, audit: AuditEntryInput): Promise<boolean> {
    const change = settingsChange(changes);
    const share = { TableName: this.tableName, Key: keys.share(owner.userKey), ConditionExpression: "fileId = :fileId" };
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.tableName,
                Key: keys.project(owner.workspaceId, owner.projectId),
                ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(#status) OR #status <> :deleting)",
                ExpressionAttributeNames: { "#status": "status" },
                ExpressionAttributeValues: { ":deleting": "deleting" },
              },
            },
            change
              ? { Update: { ...share, UpdateExpression: change.expression, ExpressionAttributeValues: { ...change.values, ":fileId": owner.fileId } } }
              : { ConditionCheck: { ...share, ExpressionAttributeValues: { ":fileId": owner.fileId } } },
            {
              ConditionCheck: {
                TableName: this.tableName,
                Key: keys.member(owner.workspaceId, owner.member.userId),
                ConditionExpression: `#role IN (${owner.member.roles.map((_, i) => `:role${i}`).join(", ")})`,
                ExpressionAttributeNames: { "#role": "role" },
                ExpressionAttributeValues: Object.fromEntries(owner.member.roles.map((role, i) => [`:role${i}`, role])),
              },
            },
            ...(change ? [{ Put: { TableName: this.tableName, Item: auditEntryItem(audit, this.now()), ConditionExpression: "attribute_not_exists(pk)" } }] : []),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (cancelledConditions(error)?.some(Boolean)) return false;
      throw dynamoFailure("TransactWriteItems(share settings)", error);
    }
  }

  async regenerate(link: ShareLink, newUserKey: string, tokenSecret: string): Promise<boolean> {
    const item = await getItem(this.db, this.tableName, keys.share(link.userKey), "share", { consistent: true });
    if (!item) return false;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...item, ...keys.share(newUserKey), userKey: newUserKey, tokenSecret },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: endedLinkItem(link.userKey, "replaced", this.now()),
                ConditionExpression: "attribute_exists(fileId)",
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: keys.file(link.fileId),
                UpdateExpression: "SET userKey = :new",
                ConditionExpression: "userKey = :old",
                ExpressionAttributeValues: { ":new": newUserKey, ":old": link.userKey },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (cancelledConditions(error)?.some(Boolean)) return false;
      throw dynamoFailure("TransactWriteItems(regenerate link)", error);
    }
  }

  private counterUpdate(userKey: string, day: string, counter: "downloads" | "installs", prefix: string, cap: boolean, uncapped = false) {
    const stale = staleDays(day);
    return new UpdateCommand({
      TableName: this.tableName,
      Key: keys.share(userKey),
      UpdateExpression: `ADD ${counter} :one, #today :one REMOVE ${stale.map((_, i) => `#old${i}`).join(", ")}`,
      // The live item must still exist (an ADD would otherwise create a ghost share or count on a
      // deleted build's trace, which has no fileId), the link must be on,
      // and for downloads the count must be below the cap: DynamoDB serializes updates of one item,
      // so under any concurrency exactly maxDownloads downloads are admitted.
      // A visit through the project's app page (core's app-pages) counts on the live build whatever its link's switch and cap.
      ConditionExpression: uncapped
        ? "attribute_exists(fileId)"
        : "attribute_exists(fileId) AND (attribute_not_exists(enabled) OR enabled = :on)" +
        (cap ? " AND (attribute_not_exists(maxDownloads) OR (attribute_not_exists(downloads) AND maxDownloads > :zero) OR downloads < maxDownloads)" : ""),
      ExpressionAttributeNames: {
        "#today": `${prefix}${day}`,
        ...Object.fromEntries(stale.map((d, i) => [`#old${i}`, `${prefix}${d}`])),
      },
      ExpressionAttributeValues: { ":one": 1, ...(uncapped ? {} : { ":on": true }), ...(cap ? { ":zero": 0 } : {}) },
    });
  }

  async countDownload(userKey: string, day: string): Promise<DownloadCount> {
    try {
      await this.db.send(this.counterUpdate(userKey, day, "downloads", DOWNLOADS_OF, true));
      return "counted";
    } catch (error) {
      if (!isConditionFailure(error)) throw dynamoFailure("UpdateItem(count download)", error);
    }
    // Refused: say why, as of now (the owner may have acted between the page's read and this update).
    const now = await this.find(userKey);
    if (!now) return "removed";
    if ("ended" in now) return now.ended;
    return now.enabled ? "capped" : "disabled";
  }

  async countInstall(userKey: string, day: string): Promise<void> {
    try {
      await this.db.send(this.counterUpdate(userKey, day, "installs", INSTALLS_OF, false));
    } catch (error) {
      // A link disabled or deleted between the read and the count: nothing to count.
      if (!isConditionFailure(error)) throw dynamoFailure("UpdateItem(count install)", error);
    }
  }

  /**
   * One download or install start through the project's app page (core's app-pages/visit-app-page.ts):
   * on the build's counts, without its link's cap or switch. Nothing is counted once the build is gone.
   */
  async countUncapped(userKey: string, day: string, counter: "downloads" | "installs"): Promise<void> {
    try {
      await this.db.send(this.counterUpdate(userKey, day, counter, counter === "downloads" ? DOWNLOADS_OF : INSTALLS_OF, false, true));
    } catch (error) {
      if (!isConditionFailure(error)) throw dynamoFailure(`UpdateItem(count ${counter} via app page)`, error);
    }
  }
}
