import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { DependencyError } from "../errors/domain-errors";
import { transact, type TransactItem } from "../adapters/dynamo/counted-limits.dynamo";
import { dynamoFailure, getItem, isConditionFailure, queryAll, untilProcessed } from "../adapters/dynamo/dynamo-errors";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import type { TesterGroupRef } from "../ports/tester-groups.port";
import { workspaceNotFound } from "../workspaces/access";
import { GroupConflictError, GroupNotFoundError } from "./tester-group-errors";
import type { JoinOutcome, StoredGroup, StoredInviteLink, StoredTester, TesterGroupStore } from "./tester-group-store";
import { GROUP_ID, type LastInstall } from "./tester-groups.schema";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/** gsi1 of a group item: finds a group (and so its workspace) by its id alone, as projects are found. */
const groupIndexKey = (groupId: string) => ({ gsi1pk: `GROUP#${groupId}`, gsi1sk: "GROUP" });

/** A transaction holds at most 100 items: 99 testers and their group's counter. */
const TESTERS_PER_TRANSACTION = 99;
/** Rounds of a chunk whose puts met testers added meanwhile (each round drops those). */
const ATTEMPTS = 8;

/**
 * Tester groups in the one table (docs/data-model.md, docs/testers.md "Groups"):
 *
 * - the group `WORKSPACE#<ws>` / `GROUP#<grp>` (gsi1 `GROUP#<grp>` / `GROUP` finds it by id) with
 *   `testerCount` and its live `inviteLink`; its name's `WORKSPACE#<ws>` / `GROUPNAME#<lower>` item;
 * - its testers `GROUP#<grp>` / `TESTER#<email>` (gsi1 `TESTER#<email>` / `GROUP#<grp>`);
 * - its invite link's `JOINLINK#<sha256(token)>` item.
 *
 * The caps are counters checked in the transaction that changes them, as counted-limits does for
 * projects and keys: `groupCount` on the workspace item (`ADD 1` while `< 100`), `testerCount` on
 * the group (`ADD n` while `<= 1000 - n`), so concurrent requests take exactly the free places.
 * Groups are new with this counter, so an absent `groupCount` means no group: nothing to initialise
 * from a listing. A delete first marks the group `deleting` (every add and join is conditioned on
 * its absence), removes its testers, then the group, name and link with the count: a delete that
 * failed half-way is resumed by the next one, and no tester is added behind it.
 */
export class DynamoTesterGroups implements TesterGroupStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  // ---- groups ----

  async create(group: StoredGroup, maxGroups: number): Promise<void> {
    const failed = await transact(this.db, "create group", [
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.group(group.workspaceId, group.groupId), ...groupIndexKey(group.groupId), type: "group", ...group },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: this.nameItem(group.workspaceId, group.name, group.groupId),
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.workspace(group.workspaceId),
          UpdateExpression: "ADD #count :one",
          // Never into a workspace whose delete has started (its purge may have listed it already).
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(deleting) AND (attribute_not_exists(#count) OR #count < :max)",
          ExpressionAttributeNames: { "#count": "groupCount" },
          ExpressionAttributeValues: { ":one": 1, ":max": maxGroups },
        },
      },
    ]);
    if (!failed) return;
    if (failed[1]) throw nameTaken();
    if (failed[0]) throw new DependencyError("dynamodb", "create group: the id was taken; retry");
    const workspace = await getItem(this.db, this.tableName, keys.workspace(group.workspaceId), "workspace", { consistent: true });
    if (!workspace || workspace.deleting === true) throw workspaceNotFound();
    throw new GroupConflictError("limit_reached", `A workspace can have at most ${maxGroups} tester groups; delete one to create another`, {
      limit: "groups",
      max: maxGroups,
    });
  }

  async get(workspaceId: string, groupId: string, options: { evenDeleting?: boolean } = {}): Promise<StoredGroup | undefined> {
    const item = await getItem(this.db, this.tableName, keys.group(workspaceId, groupId), "group", { consistent: true });
    return item && item.type === "group" && (options.evenDeleting || item.deleting !== true) ? groupOf(item) : undefined;
  }

  async workspaceOf(groupId: string): Promise<string | undefined> {
    try {
      const { Items } = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: gsi1.name,
          KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
          ExpressionAttributeValues: { ":pk": groupIndexKey(groupId).gsi1pk, ":sk": "GROUP" },
        }),
      );
      const workspaceId = Items?.[0]?.workspaceId;
      return typeof workspaceId === "string" ? workspaceId : undefined;
    } catch (error) {
      throw dynamoFailure("Query(group by id)", error);
    }
  }

  async list(workspaceId: string): Promise<StoredGroup[]> {
    // `GROUP#` is not a prefix of `GROUPNAME#`: the name items stay out.
    const items = await this.queryAll("groups", { ":pk": keys.workspace(workspaceId).pk, ":prefix": "GROUP#" });
    return items.filter((i) => i.type === "group" && i.deleting !== true).map(groupOf);
  }

  async rename(group: StoredGroup, name: string): Promise<StoredGroup | undefined> {
    const update: TransactItem = {
      Update: {
        TableName: this.tableName,
        Key: keys.group(group.workspaceId, group.groupId),
        UpdateExpression: "SET #name = :name",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(deleting) AND #name = :old",
        ExpressionAttributeNames: { "#name": "name" },
        ExpressionAttributeValues: { ":name": name, ":old": group.name },
      },
    };
    const sameKey = name.toLowerCase() === group.name.toLowerCase();
    const items: TransactItem[] = sameKey
      ? [update]
      : [
          update,
          { Put: { TableName: this.tableName, Item: this.nameItem(group.workspaceId, name, group.groupId), ConditionExpression: "attribute_not_exists(pk)" } },
          {
            Delete: {
              TableName: this.tableName,
              Key: keys.groupName(group.workspaceId, group.name),
              ConditionExpression: "groupId = :id",
              ExpressionAttributeValues: { ":id": group.groupId },
            },
          },
        ];
    const failed = await transact(this.db, "rename group", items);
    if (!failed) return { ...group, name };
    if (failed[1]) throw nameTaken();
    // Deleted or renamed meanwhile: the caller reads it again.
    return undefined;
  }

  async delete(group: StoredGroup): Promise<void> {
    // 1. Mark it: from here no add or join can succeed, and readers see no group.
    let marked: StoredGroup;
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.group(group.workspaceId, group.groupId),
          UpdateExpression: "SET deleting = :true",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":true": true },
          ReturnValues: "ALL_NEW",
        }),
      );
      marked = groupOf(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) return;
      throw dynamoFailure("UpdateItem(group deleting)", error);
    }
    // 2. Its testers (at most 1,000: 40 batches).
    const testers = await this.queryAll("group testers", { ":pk": `GROUP#${group.groupId}`, ":prefix": "TESTER#" }, "pk, sk");
    for (let i = 0; i < testers.length; i += 25) {
      const chunk = testers.slice(i, i + 25).map((t) => ({ DeleteRequest: { Key: { pk: t.pk, sk: t.sk } } }));
      try {
        await untilProcessed(chunk, async (pending) => {
          const out = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
          return (out.UnprocessedItems?.[this.tableName] ?? []) as typeof pending;
        });
      } catch (error) {
        throw dynamoFailure("BatchWriteItem(group testers)", error);
      }
    }
    // 3. The group, its name, its link and its place in the workspace's count, together.
    const items: TransactItem[] = [
      { Delete: { TableName: this.tableName, Key: keys.group(group.workspaceId, group.groupId), ConditionExpression: "attribute_exists(pk)" } },
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.groupName(group.workspaceId, marked.name),
          ConditionExpression: "attribute_not_exists(pk) OR groupId = :id",
          ExpressionAttributeValues: { ":id": group.groupId },
        },
      },
      ...(marked.inviteLink ? [{ Delete: { TableName: this.tableName, Key: keys.groupInviteLink(marked.inviteLink.tokenHash) } }] : []),
      {
        Update: {
          TableName: this.tableName,
          Key: keys.workspace(group.workspaceId),
          UpdateExpression: "ADD #count :minusOne",
          ConditionExpression: "attribute_exists(#count)",
          ExpressionAttributeNames: { "#count": "groupCount" },
          ExpressionAttributeValues: { ":minusOne": -1 },
        },
      },
    ];
    const failed = await transact(this.db, "delete group", items);
    // Only a concurrent delete that finished first fails here (its group is gone): nothing left to do.
    if (failed && !failed[0]) throw new DependencyError("dynamodb", "delete group: the workspace's count is missing");
  }

  // ---- testers ----

  async testers(groupId: string): Promise<StoredTester[]> {
    const items = await this.queryAll("group testers", { ":pk": `GROUP#${groupId}`, ":prefix": "TESTER#" });
    return items.map(testerOf);
  }

  async addTesters(group: StoredGroup, testers: StoredTester[], maxTesters: number): Promise<{ added: string[]; already: string[] }> {
    const present = await this.present(group.groupId, testers.map((t) => t.email));
    const already = testers.filter((t) => present.has(t.email)).map((t) => t.email);
    const fresh = testers.filter((t) => !present.has(t.email));
    const added: string[] = [];
    // Checked first from the caller's consistent read, so a list that cannot fit adds nothing.
    if (fresh.length > maxTesters - group.testerCount) throw testerLimit(maxTesters, group.testerCount, added);
    for (let i = 0; i < fresh.length; i += TESTERS_PER_TRANSACTION) {
      let chunk = fresh.slice(i, i + TESTERS_PER_TRANSACTION);
      for (let attempt = 0; chunk.length > 0; attempt++) {
        if (attempt >= ATTEMPTS) throw new DependencyError("dynamodb", "add testers: the group kept changing; retry");
        const failed = await transact(this.db, "add testers", [
          ...chunk.map((t) => ({ Put: { TableName: this.tableName, Item: this.testerItem(t), ConditionExpression: "attribute_not_exists(pk)" } })),
          {
            Update: {
              TableName: this.tableName,
              Key: keys.group(group.workspaceId, group.groupId),
              UpdateExpression: "ADD testerCount :n",
              ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(deleting) AND testerCount <= :room",
              ExpressionAttributeValues: { ":n": chunk.length, ":room": maxTesters - chunk.length },
            },
          },
        ]);
        if (!failed) {
          added.push(...chunk.map((t) => t.email));
          break;
        }
        const taken = chunk.filter((_, index) => failed[index]);
        if (taken.length > 0) {
          // Added meanwhile by another request: theirs now, retry the rest.
          already.push(...taken.map((t) => t.email));
          chunk = chunk.filter((_, index) => !failed[index]);
          continue;
        }
        const now = await this.get(group.workspaceId, group.groupId);
        if (!now) throw new GroupNotFoundError();
        throw testerLimit(maxTesters, now.testerCount, added);
      }
    }
    return { added, already };
  }

  async removeTester(group: StoredGroup, email: string): Promise<boolean> {
    const failed = await transact(this.db, "remove tester", [
      { Delete: { TableName: this.tableName, Key: keys.groupTester(group.groupId, email), ConditionExpression: "attribute_exists(pk)" } },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.group(group.workspaceId, group.groupId),
          UpdateExpression: "ADD testerCount :minusOne",
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(deleting)",
          ExpressionAttributeValues: { ":minusOne": -1 },
        },
      },
    ]);
    return !failed;
  }

  // ---- invite links ----

  async setInviteLink(group: StoredGroup, link: StoredInviteLink): Promise<StoredGroup | undefined> {
    const previous = group.inviteLink;
    const failed = await transact(this.db, "set invite link", [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.group(group.workspaceId, group.groupId),
          UpdateExpression: "SET inviteLink = :link",
          // Replaces exactly the link the caller read: two concurrent replacements cannot both leave an item.
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleting) AND ${previous ? "inviteLink.linkId = :previous" : "attribute_not_exists(inviteLink)"}`,
          ExpressionAttributeValues: { ":link": link, ...(previous ? { ":previous": previous.linkId } : {}) },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.groupInviteLink(link.tokenHash), type: "groupInviteLink", groupId: group.groupId, workspaceId: group.workspaceId, linkId: link.linkId },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      ...(previous ? [{ Delete: { TableName: this.tableName, Key: keys.groupInviteLink(previous.tokenHash) } }] : []),
    ]);
    if (!failed) return { ...group, inviteLink: link };
    if (failed[1]) throw new DependencyError("dynamodb", "create invite link: the link id was taken; retry");
    return undefined;
  }

  async removeInviteLink(group: StoredGroup): Promise<boolean> {
    const link = group.inviteLink;
    if (!link) return false;
    const failed = await transact(this.db, "revoke invite link", [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.group(group.workspaceId, group.groupId),
          UpdateExpression: "REMOVE inviteLink",
          ConditionExpression: "inviteLink.linkId = :id",
          ExpressionAttributeValues: { ":id": link.linkId },
        },
      },
      { Delete: { TableName: this.tableName, Key: keys.groupInviteLink(link.tokenHash) } },
    ]);
    return !failed;
  }

  async inviteLinkOf(tokenHash: string): Promise<{ groupId: string; workspaceId: string; linkId: string } | undefined> {
    const item = await getItem(this.db, this.tableName, keys.groupInviteLink(tokenHash), "invite link", { consistent: true });
    return item && typeof item.groupId === "string" ? { groupId: item.groupId, workspaceId: item.workspaceId, linkId: item.linkId } : undefined;
  }

  async join(group: StoredGroup, linkId: string, tester: StoredTester, now: string, maxTesters: number): Promise<JoinOutcome> {
    const failed = await transact(this.db, "join group", [
      { Put: { TableName: this.tableName, Item: this.testerItem(tester), ConditionExpression: "attribute_not_exists(pk)" } },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.group(group.workspaceId, group.groupId),
          UpdateExpression: "SET #link.joinedCount = #link.joinedCount + :one ADD testerCount :one",
          // The link's every rule, in the write that counts the join: live, unexpired, under both caps.
          ConditionExpression: [
            "attribute_exists(pk) AND attribute_not_exists(deleting)",
            "#link.linkId = :linkId",
            "(attribute_type(#link.expiresAt, :nullType) OR #link.expiresAt > :now)",
            "(attribute_type(#link.maxMembers, :nullType) OR #link.joinedCount < #link.maxMembers)",
            "testerCount < :max",
          ].join(" AND "),
          ExpressionAttributeNames: { "#link": "inviteLink" },
          ExpressionAttributeValues: { ":one": 1, ":linkId": linkId, ":nullType": "NULL", ":now": now, ":max": maxTesters },
        },
      },
    ]);
    if (!failed) return "joined";
    return failed[0] ? "already" : "gone";
  }

  // ---- the directory (distribution) and the installs' last build ----

  async resolve(workspaceId: string, refs: readonly string[]): Promise<{ groups: TesterGroupRef[]; missing: string[] }> {
    const found = await Promise.all(
      refs.map(async (ref) => {
        const trimmed = ref.trim();
        let groupId: string | undefined = trimmed;
        if (!GROUP_ID.test(trimmed)) {
          // A name, any case; a name this service could not have stored names nothing (no read).
          const name = trimmed.normalize("NFC");
          if (name.length === 0 || name.length > 240) return undefined;
          const item = await getItem(this.db, this.tableName, keys.groupName(workspaceId, name), "group name", { consistent: true });
          groupId = typeof item?.groupId === "string" ? item.groupId : undefined;
        }
        return groupId ? this.get(workspaceId, groupId) : undefined;
      }),
    );
    const groups = new Map<string, TesterGroupRef>();
    const missing: string[] = [];
    found.forEach((group, index) => {
      if (!group) missing.push(refs[index]!);
      else groups.set(group.groupId, { groupId: group.groupId, workspaceId: group.workspaceId, name: group.name });
    });
    return { groups: [...groups.values()], missing };
  }

  async addresses(groupId: string): Promise<string[]> {
    const items = await this.queryAll("group addresses", { ":pk": `GROUP#${groupId}`, ":prefix": "TESTER#" }, "email");
    return items.map((i) => String(i.email));
  }

  async lastInstalls(workspaceId: string, emails: readonly string[]): Promise<Map<string, LastInstall>> {
    const out = new Map<string, LastInstall>();
    const distinct = [...new Set(emails)];
    for (let i = 0; i < distinct.length; i += 100) {
      const chunk = distinct.slice(i, i + 100).map((email) => keys.lastInstall(workspaceId, email));
      try {
        await untilProcessed(chunk, async (pending) => {
          const answer = await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending } } }));
          for (const item of answer.Responses?.[this.tableName] ?? []) {
            const email = String(item.sk).slice("LASTINSTALL#".length);
            out.set(email, {
              fileId: String(item.fileId),
              projectId: String(item.projectId),
              platform: String(item.platform),
              version: String(item.version ?? ""),
              build: String(item.build ?? ""),
              at: String(item.at),
            });
          }
          return (answer.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as typeof pending;
        });
      } catch (error) {
        throw dynamoFailure("BatchGetItem(last installs)", error);
      }
    }
    return out;
  }

  // ---- helpers ----

  private nameItem(workspaceId: string, name: string, groupId: string) {
    return { ...keys.groupName(workspaceId, name), type: "groupName", groupId, workspaceId };
  }

  private testerItem(t: StoredTester) {
    return { ...keys.groupTester(t.groupId, t.email), type: "groupTester", gsi1pk: gsi1.tester(t.email), gsi1sk: `GROUP#${t.groupId}`, ...t };
  }

  /** Which of these addresses are testers of the group (strongly consistent; 100 keys a batch). */
  private async present(groupId: string, emails: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < emails.length; i += 100) {
      const chunk = emails.slice(i, i + 100).map((email) => keys.groupTester(groupId, email));
      try {
        await untilProcessed(chunk, async (pending) => {
          const answer = await this.db.send(
            new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true, ProjectionExpression: "email" } } }),
          );
          for (const item of answer.Responses?.[this.tableName] ?? []) out.add(String(item.email));
          return (answer.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as typeof pending;
        });
      } catch (error) {
        throw dynamoFailure("BatchGetItem(group testers)", error);
      }
    }
    return out;
  }

  /** Every item of a partition under a sort-key prefix, strongly consistent. */
  private queryAll(what: string, values: { ":pk": string; ":prefix": string }, projection?: string): Promise<Record<string, any>[]> {
    return queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: values,
        ConsistentRead: true,
        ...(projection ? { ProjectionExpression: projection } : {}),
      },
      what,
    );
  }
}

const nameTaken = () => new GroupConflictError("group_name_taken", "Another group of this workspace has this name (names are compared without case)");

function testerLimit(max: number, count: number, added: string[]) {
  return new GroupConflictError("limit_reached", `A group can have at most ${max} testers; it has ${count}. Remove some or use another group`, {
    limit: "testers",
    max,
    free: Math.max(0, max - count),
    added,
  });
}

function groupOf(item: Record<string, any>): StoredGroup {
  const link = item.inviteLink as Record<string, any> | undefined;
  return {
    groupId: item.groupId,
    workspaceId: item.workspaceId,
    name: item.name,
    testerCount: typeof item.testerCount === "number" ? item.testerCount : 0,
    createdAt: item.createdAt,
    createdBy: item.createdBy,
    ...(link
      ? {
          inviteLink: {
            linkId: link.linkId,
            tokenHash: link.tokenHash,
            createdAt: link.createdAt,
            expiresAt: link.expiresAt ?? null,
            maxMembers: link.maxMembers ?? null,
            joinedCount: typeof link.joinedCount === "number" ? link.joinedCount : 0,
          },
        }
      : {}),
    ...(item.deleting === true ? { deleting: true as const } : {}),
  };
}

function testerOf(item: Record<string, any>): StoredTester {
  return {
    groupId: item.groupId,
    workspaceId: item.workspaceId,
    email: item.email,
    addedAt: item.addedAt,
    source: item.source === "joined" ? "joined" : "added",
    addedBy: typeof item.addedBy === "string" ? item.addedBy : null,
  };
}
