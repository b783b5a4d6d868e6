import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { AUDIT_ACTIONS, type AuditAction, type AuditEntryInput } from "@hangar/core";
import { DynamoAuditLog } from "@hangar/core/dynamo";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser } from "./support/accounts";
import { db, stack } from "./support/api";
import { seedWorkspace, userIdOf } from "./support/workspace-seed";

interface Person {
  b: Browser;
  email: string;
  userId: string;
}

const person = async (): Promise<Person> => {
  const { b, email } = await signedIn();
  return { b, email, userId: await userIdOf(b) };
};

/** The log as the use cases write it (the port's adapter), with a clock this test moves: one entry a second. */
function logAt(start: Date) {
  let tick = 0;
  return new DynamoAuditLog(db(), stack().tableName, () => new Date(start.getTime() + 1000 * tick++));
}

const audit = (b: Browser, workspaceId: string, query = "") => dash(b, "GET", `/api/workspaces/${workspaceId}/audit${query}`);

/** Every page of a log, following nextCursor until it is null. */
async function allPages(b: Browser, workspaceId: string, filters = "") {
  const pages: { items: { entryId: string; at: string; action: string; actor: { userId: string }; details: Record<string, unknown> }[]; nextCursor: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const reply = await audit(b, workspaceId, `?${filters}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(reply.status, reply.text).toBe(200);
    pages.push(reply.json);
    cursor = reply.json.nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

describe("the audit log of a workspace", () => {
  let owner: Person, admin: Person, developer: Person, viewer: Person, outsider: Person;
  let workspaceId: string;
  /** What was recorded, oldest first. */
  const recorded: (AuditEntryInput & { at: Date })[] = [];
  const start = new Date(Date.now() - 3_600_000);

  beforeAll(async () => {
    [owner, admin, developer, viewer, outsider] = await Promise.all([person(), person(), person(), person(), person()]);
    workspaceId = await seedWorkspace([
      { userId: owner.userId, role: "owner" },
      { userId: admin.userId, role: "admin" },
      { userId: developer.userId, role: "developer" },
      { userId: viewer.userId, role: "viewer" },
    ]);
    // 61 entries: more than a page (50). Actors take turns; actions go round AUDIT_ACTIONS.
    const log = logAt(start);
    const actors = [owner, admin, developer];
    for (let i = 0; i < 61; i++) {
      const who = actors[i % actors.length]!;
      const action = AUDIT_ACTIONS[i % AUDIT_ACTIONS.length]!;
      const entry: AuditEntryInput = {
        workspaceId,
        action,
        // The owner's entries keep their address of the time; the others' are looked up. Absent
        // fields arrive as undefined, as a use case without a client would pass them.
        actor: { userId: who.userId, email: who === owner ? "owner-at-the-time@hangar.test" : undefined, ip: `10.0.0.${i}`, userAgentFamily: i % 2 ? "Chrome" : undefined },
        target: { type: "key", id: `hgr_${i}`, label: `Key ${i}` },
        details: { n: i },
      };
      await log.record(entry);
      recorded.push({ ...entry, at: new Date(start.getTime() + 1000 * i) });
    }
  });

  it("answers every entry newest first, 50 a page, each exactly once, then nextCursor null", async () => {
    const pages = await allPages(owner.b, workspaceId);
    expect(pages.map((p) => p.items.length)).toEqual([50, 11]);
    expect(pages[1]!.nextCursor).toBeNull();
    const items = pages.flatMap((p) => p.items);
    expect(items.map((e) => e.at)).toEqual(recorded.map((r) => r.at.toISOString()).reverse());
    expect(new Set(items.map((e) => e.entryId)).size).toBe(61);
    expect(items.map((e) => e.action)).toEqual(recorded.map((r) => r.action).reverse());
  });

  it("answers who, from where (address and user agent family only), what and details, per the contract", async () => {
    const reply = await audit(admin.b, workspaceId);
    expect(reply.status, reply.text).toBe(200);
    const [newest, second] = reply.json.items;
    // Entry 60: the owner (60 % 3 = 0), with the address of the time, no user agent recorded.
    expect(newest).toEqual({
      entryId: expect.stringMatching(/^[0-9a-f]{16}$/),
      at: new Date(start.getTime() + 60_000).toISOString(),
      action: AUDIT_ACTIONS[60 % AUDIT_ACTIONS.length],
      actor: { userId: owner.userId, email: "owner-at-the-time@hangar.test", ip: "10.0.0.60", userAgentFamily: null },
      target: { type: "key", id: "hgr_60", label: "Key 60" },
      details: { n: 60 },
    });
    // Entry 59: the developer, recorded without an address: their current one.
    expect(second.actor).toEqual({ userId: developer.userId, email: developer.email, ip: "10.0.0.59", userAgentFamily: "Chrome" });
  });

  it("keeps each entry 400 days: its TTL is its time + 400 days, and undefined actor fields are not stored", async () => {
    const reply = await audit(owner.b, workspaceId);
    const { entryId, at } = reply.json.items[0];
    const stored = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `AUDIT#${workspaceId}`, sk: `${at}#${entryId}` } }));
    expect(stored.Item).toMatchObject({ type: "audit", workspaceId, entryId, at });
    expect(stored.Item!.ttl).toBe(Math.floor(Date.parse(at) / 1000) + 400 * 86_400);
    expect(Object.keys(stored.Item!.actor).sort()).toEqual(["email", "ip", "userId"]);
  });

  it("filters by actor, by action and by both, across pages", async () => {
    const byAdmin = (await allPages(owner.b, workspaceId, `actor=${admin.userId}`)).flatMap((p) => p.items);
    expect(byAdmin.map((e) => e.at)).toEqual(recorded.filter((r) => r.actor.userId === admin.userId).map((r) => r.at.toISOString()).reverse());

    const action: AuditAction = "key.created";
    const created = (await allPages(owner.b, workspaceId, `action=${action}`)).flatMap((p) => p.items);
    expect(created.length).toBeGreaterThan(1);
    expect(created.map((e) => e.at)).toEqual(recorded.filter((r) => r.action === action).map((r) => r.at.toISOString()).reverse());

    const both = (await allPages(owner.b, workspaceId, `actor=${developer.userId}&action=${action}`)).flatMap((p) => p.items);
    expect(both.map((e) => e.at)).toEqual(
      recorded.filter((r) => r.action === action && r.actor.userId === developer.userId).map((r) => r.at.toISOString()).reverse(),
    );

    // An empty value is no filter; an unknown action or a malformed user id is a 400 naming the field.
    expect((await audit(owner.b, workspaceId, "?actor=&action=")).json.items).toHaveLength(50);
    const badAction = await audit(owner.b, workspaceId, "?action=key.stolen");
    expect(badAction.status).toBe(400);
    expect(badAction.json.error.fields).toEqual([{ field: "action", message: "is not an action of the audit log (docs/audit-log.md lists them)" }]);
    const badActor = await audit(owner.b, workspaceId, "?actor=alice");
    expect(badActor.status).toBe(400);
    expect(badActor.json.error.fields).toEqual([{ field: "actor", message: "is not a user id" }]);
  });

  it("refuses a tampered cursor, and one of other filters or another workspace, with 400 invalid_cursor", async () => {
    const cursor: string = (await audit(owner.b, workspaceId)).json.nextCursor;
    const [sortKey, mac] = cursor.split(".") as [string, string];
    const earlier = Buffer.from(Buffer.from(sortKey, "base64url").toString().replace(/^\d{4}/, "2020")).toString("base64url");
    // The first character: the last one of a base64url MAC carries padding bits, and changing only
    // those would decode to the same bytes.
    const flipped = `${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
    const otherWorkspace = await seedWorkspace([{ userId: owner.userId, role: "owner" }]);
    const refusals = [
      await audit(owner.b, workspaceId, `?cursor=${earlier}.${mac}`),
      await audit(owner.b, workspaceId, `?cursor=${sortKey}.${flipped}`),
      await audit(owner.b, workspaceId, "?cursor=garbage"),
      await audit(owner.b, workspaceId, `?cursor=${encodeURIComponent(cursor)}&action=key.created`),
      await audit(owner.b, otherWorkspace, `?cursor=${encodeURIComponent(cursor)}`),
    ];
    for (const reply of refusals) {
      expect(reply.status, reply.text).toBe(400);
      expect(reply.json.error).toMatchObject({ code: "invalid_cursor", fields: [{ field: "cursor", message: "is not a cursor of this list" }] });
    }
    expect((await audit(owner.b, workspaceId, `?cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it("reads a bounded part of the log per filtered page: rare entries come after short pages that carry a cursor", async () => {
    const busy = await seedWorkspace([{ userId: owner.userId, role: "owner" }]);
    const log = logAt(new Date(Date.now() - 7_200_000));
    // Two renames, then 1,300 newer key creations: more than one page reads (5 queries of 250).
    for (const n of [1, 2]) await log.record({ workspaceId: busy, action: "workspace.renamed", actor: { userId: owner.userId }, details: { n } });
    for (let i = 0; i < 1300; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => log.record({ workspaceId: busy, action: "key.created", actor: { userId: owner.userId } })));
    }
    const pages = await allPages(owner.b, busy, "action=workspace.renamed");
    expect(pages[0]!.items).toEqual([]);
    expect(pages[0]!.nextCursor).not.toBeNull();
    expect(pages.at(-1)!.nextCursor).toBeNull();
    expect(pages.flatMap((p) => p.items).map((e) => e.details.n)).toEqual([2, 1]);
  });

  it("answers an actor whose account is gone with email null", async () => {
    const gone = `usr_${"Z".repeat(16)}`;
    const single = await seedWorkspace([{ userId: owner.userId, role: "owner" }]);
    await logAt(new Date()).record({ workspaceId: single, action: "member.left", actor: { userId: gone, ip: "10.1.1.1" } });
    const reply = await audit(owner.b, single);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({
      items: [expect.objectContaining({ action: "member.left", actor: { userId: gone, email: null, ip: "10.1.1.1", userAgentFamily: null }, target: null, details: {} })],
      nextCursor: null,
    });
  });

  it("is for owners and admins: developers and viewers get 403 forbidden (audit.read), non-members 404", async () => {
    for (const p of [owner, admin]) expect((await audit(p.b, workspaceId)).status).toBe(200);
    for (const [p, role] of [[developer, "developer"], [viewer, "viewer"]] as const) {
      const reply = await audit(p.b, workspaceId);
      expect(reply.status, reply.text).toBe(403);
      expect(reply.json.error).toMatchObject({ code: "forbidden", permission: "audit.read", role });
      // Refused before anything of the log is read: not one entry in the answer.
      expect(reply.text).not.toContain("hgr_");
    }
    for (const id of [workspaceId, `ws_${"0".repeat(16)}`, "ws_short", "not-a-workspace"]) {
      const reply = await audit(outsider.b, id);
      expect(reply.status, reply.text).toBe(404);
      expect(reply.json.error.code).toBe("workspace_not_found");
      expect(reply.text).not.toContain("hgr_");
    }
    // Without a session: 401, as every dashboard route.
    expect((await audit({ ip: outsider.b.ip }, workspaceId)).status).toBe(401);
  });
});
