import { DeleteCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { StageSecret } from "../ports";
import { transact } from "../adapters/dynamo/counted-limits.dynamo";
import { dynamoFailure, getItem, isConditionFailure, queryAll } from "../adapters/dynamo/dynamo-errors";
import { ENDED_LINK_SECONDS } from "../adapters/dynamo/ended-link.dynamo";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import { batchWrite } from "../adapters/dynamo/usage.dynamo";
import { installLinkHash, installLinkToken } from "../testers/install-link";
import type { FoundInstallLink, InstallEvent, InstallRecord, InstallRecords } from "./install-records.port";
import type { DeviceFamily } from "./installs.schema";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/** The trace a deleted build's personal link leaves: the key, the reason and a TTL, nothing of the tester. */
export const ENDED_INSTALL_LINK_TYPE = "installLink-ended";

export function endedInstallLinkItem(tokenHash: string, now: Date) {
  return { ...keys.installLink(tokenHash), type: ENDED_INSTALL_LINK_TYPE, ended: "removed", ttl: Math.floor(now.getTime() / 1000) + ENDED_LINK_SECONDS };
}

/** gsi1 sort key of an install item: a tester's builds per workspace, by their latest use. */
const historyKey = (workspaceId: string, lastAt: string, fileId: string) => `INSTALL#${workspaceId}#${lastAt}#${fileId}`;

const FAMILIES: readonly DeviceFamily[] = ["iPhone", "iPad", "Android", "desktop", "other"];
const strOrNull = (v: unknown) => (typeof v === "string" ? v : null);
const num = (v: unknown) => (typeof v === "number" ? v : 0);

function toInstallRecord(item: Record<string, unknown>): InstallRecord {
  return {
    email: String(item.email),
    fileId: String(item.fileId),
    projectId: String(item.projectId),
    workspaceId: String(item.workspaceId),
    firstAt: String(item.firstAt),
    lastAt: String(item.lastAt),
    downloads: num(item.downloads),
    installStarts: num(item.installStarts),
    deviceFamily: FAMILIES.includes(item.deviceFamily as DeviceFamily) ? (item.deviceFamily as DeviceFamily) : "other",
    via: item.via === "portal" ? "portal" : "link",
    platform: strOrNull(item.platform),
    version: strOrNull(item.version),
    build: strOrNull(item.build),
  };
}

/** Epoch milliseconds of an `expiresAt` stored as an ISO time or as epoch seconds; NaN otherwise. */
const expiryOf = (value: unknown) => (typeof value === "number" ? value * 1000 : typeof value === "string" ? Date.parse(value) : Number.NaN);

/**
 * Install links and install records in the table (docs/data-model.md): `INSTALLLINK#<hash>`,
 * `FILE#<fileId>` / `INSTALL#<email>` (gsi1 `TESTER#<email>` / `INSTALL#<workspaceId>#<lastAt>#<fileId>`)
 * and `WORKSPACE#<workspaceId>` / `LASTINSTALL#<email>`.
 */
export class DynamoInstallRecords implements InstallRecords {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async findLink(tokenHash: string): Promise<FoundInstallLink> {
    const item = await getItem(this.db, this.tableName, keys.installLink(tokenHash), "install link", { consistent: true });
    if (!item) return undefined;
    if (item.type === ENDED_INSTALL_LINK_TYPE) return "removed";
    if (typeof item.email !== "string" || typeof item.fileId !== "string") return undefined;
    return { email: item.email, fileId: item.fileId, projectId: String(item.projectId), workspaceId: String(item.workspaceId) };
  }

  async testerSession(email: string, sessionId: string, now: Date): Promise<boolean> {
    const item = await getItem(this.db, this.tableName, keys.testerSession(email, sessionId), "tester session", { consistent: true });
    // TTL deletes lazily: an item past its expiry is already no session.
    return item !== undefined && item.email === email && expiryOf(item.expiresAt) > now.getTime();
  }

  async record(event: InstallEvent): Promise<boolean> {
    const { target, at } = event;
    const t = this.tableName;
    const failed = await transact(this.db, "record install", [
      {
        ConditionCheck: {
          TableName: t,
          Key: keys.file(target.fileId),
          ConditionExpression: "attribute_exists(pk) AND #status = :completed",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":completed": "completed" },
        },
      },
      {
        Update: {
          TableName: t,
          Key: keys.install(target.fileId, target.email),
          UpdateExpression:
            "SET #type = :type, email = :email, fileId = :fileId, projectId = :projectId, workspaceId = :workspaceId, " +
            "firstAt = if_not_exists(firstAt, :at), lastAt = :at, deviceFamily = :family, platform = :platform, version = :version, #build = :build, " +
            `gsi1pk = :gsi1pk, gsi1sk = :gsi1sk, via = ${event.via === "portal" ? ":via" : "if_not_exists(via, :via)"} ` +
            "ADD downloads :downloads, installStarts :starts",
          ExpressionAttributeNames: { "#type": "type", "#build": "build" },
          ExpressionAttributeValues: {
            ":type": "install",
            ":email": target.email,
            ":fileId": target.fileId,
            ":projectId": target.projectId,
            ":workspaceId": target.workspaceId,
            ":at": at,
            ":family": event.deviceFamily,
            ":platform": event.build.platform,
            ":version": event.build.version,
            ":build": event.build.build,
            ":gsi1pk": gsi1.tester(target.email),
            ":gsi1sk": historyKey(target.workspaceId, at, target.fileId),
            ":via": event.via,
            ":downloads": event.kind === "download" ? 1 : 0,
            ":starts": event.kind === "installStart" ? 1 : 0,
          },
        },
      },
      {
        Put: {
          TableName: t,
          Item: {
            ...keys.lastInstall(target.workspaceId, target.email),
            type: "lastInstall",
            email: target.email,
            fileId: target.fileId,
            projectId: target.projectId,
            ...event.build,
            at,
          },
        },
      },
    ]);
    return failed === undefined;
  }

  async listByFile(fileId: string): Promise<InstallRecord[]> {
    const items = await this.queryAll("installs of build", {
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": keys.file(fileId).pk, ":prefix": "INSTALL#" },
      ConsistentRead: true,
    });
    return items.map(toInstallRecord).sort((a, b) => b.lastAt.localeCompare(a.lastAt));
  }

  async listByTester(workspaceId: string, email: string, limit: number): Promise<InstallRecord[]> {
    const items = await this.queryAll(
      "installs of tester",
      {
        IndexName: gsi1.name,
        KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
        ExpressionAttributeValues: { ":pk": gsi1.tester(email), ":prefix": `INSTALL#${workspaceId}#` },
        ScanIndexForward: false,
      },
      limit,
    );
    return items.map(toInstallRecord);
  }

  private queryAll(what: string, input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey" | "Limit">, limit = Infinity) {
    return queryAll(this.db, { ...input, TableName: this.tableName }, what, limit);
  }
}

/**
 * Removes what testers left of deleted builds (docs/testers.md): every item of the builds'
 * `FILE#<fileId>` partitions but the file record itself (distributions, recipients, installs),
 * each named tester's personal link (replaced by its trace, so it answers 410, not 404), and their
 * `lastInstall` of the workspace while it still names one of these builds. The addresses come from
 * the recipient and install items; the link keys are their HMAC tokens (testers/install-link.ts),
 * so the stage secret is read only when a build was sent to someone. Idempotent: run before the
 * file records go (a purge that stops half way finds the builds again) and once more after them
 * (a request counted between the two reads, which the record's condition refuses from then on).
 */
export async function removeTesterItems(
  db: DocumentClient,
  tableName: string,
  installLinkSecret: StageSecret,
  fileIds: readonly string[],
  now: Date,
): Promise<void> {
  const found = await Promise.all(fileIds.map((fileId) => partitionExtras(db, tableName, fileId)));
  const items = found.flat();
  if (items.length === 0) return;
  const addressed = items.filter((item) => typeof item.email === "string" && /^(RECIPIENT|INSTALL)#/.test(String(item.sk)));
  const secret = addressed.length > 0 ? await installLinkSecret.bytes() : undefined;
  const links = new Map<string, ReturnType<typeof endedInstallLinkItem>>();
  const lastInstalls = new Map<string, { workspaceId: string; email: string; fileId: string }>();
  for (const item of addressed) {
    const fileId = String(item.pk).slice("FILE#".length);
    const email = String(item.email);
    const hash = installLinkHash(installLinkToken(secret!, fileId, email));
    links.set(hash, endedInstallLinkItem(hash, now));
    if (String(item.sk).startsWith("INSTALL#") && typeof item.workspaceId === "string") lastInstalls.set(`${item.workspaceId}\n${email}\n${fileId}`, { workspaceId: item.workspaceId, email, fileId });
  }
  try {
    await batchWrite(db, tableName, [
      ...[...links.values()].map((Item) => ({ PutRequest: { Item } })),
      ...items.map((item) => ({ DeleteRequest: { Key: { pk: String(item.pk), sk: String(item.sk) } } })),
    ]);
  } catch (error) {
    throw dynamoFailure("BatchWriteItem(tester items of builds)", error);
  }
  // The group page's "last installed" no longer names a build that is gone; a later one stays.
  await Promise.all(
    [...lastInstalls.values()].map(async ({ workspaceId, email, fileId }) => {
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.lastInstall(workspaceId, email),
            ConditionExpression: "fileId = :fileId",
            ExpressionAttributeValues: { ":fileId": fileId },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw dynamoFailure("DeleteItem(last install)", error);
      }
    }),
  );
}

/** Every item of a build's partition but its file record, strongly consistent. */
async function partitionExtras(db: DocumentClient, tableName: string, fileId: string): Promise<Record<string, unknown>[]> {
  const items = await queryAll(
    db,
    { TableName: tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": keys.file(fileId).pk }, ProjectionExpression: "pk, sk, email, workspaceId", ConsistentRead: true },
    "build partition",
  );
  return items.filter((item) => item.sk !== keys.file(fileId).sk);
}
