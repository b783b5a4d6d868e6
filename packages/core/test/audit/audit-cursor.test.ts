import { describe, expect, it } from "vitest";
import { InvalidCursorError, decodeCursor, encodeCursor } from "../../src/dashboard/cursor";
import { listAudit, type AuditDeps } from "../../src/audit";
import type { AuditEntry, AuditPageQuery } from "../../src/ports";

const secret = new Uint8Array(32).fill(7);
const sortKey = "2026-11-26T00:10:00.123Z#0123456789abcdef";
const AUDIT_SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z#[0-9a-f]{16}$/;

describe("cursors of another shape than a file list's", () => {
  it("round-trip an audit sort key when the list names its shape", () => {
    const cursor = encodeCursor(secret, "audit-list", sortKey)!;
    expect(decodeCursor(secret, "audit-list", cursor, AUDIT_SORT_KEY)).toBe(sortKey);
  });

  it("still refuse a signed sort key of another shape, and keep the file lists' shape by default", () => {
    const fileKey = "FILE#2026-11-26T00:10:00.123Z#fil_1";
    expect(() => decodeCursor(secret, "audit-list", encodeCursor(secret, "audit-list", fileKey)!, AUDIT_SORT_KEY)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(secret, "audit-list", encodeCursor(secret, "audit-list", sortKey)!)).toThrow(InvalidCursorError);
    expect(decodeCursor(secret, "files", encodeCursor(secret, "files", fileKey)!)).toBe(fileKey);
  });
});

/** A log of `count` entries in memory, newest first; records the queries it was asked. */
function memoryDeps(role: "owner" | "admin" | "developer" | "viewer" | undefined, count = 120) {
  const entries: AuditEntry[] = Array.from({ length: count }, (_, i) => ({
    entryId: i.toString(16).padStart(16, "0"),
    at: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
    workspaceId: "ws_0123456789abcdef",
    action: i % 2 ? "key.created" : "key.revoked",
    actor: { userId: i % 3 ? "usr_a" : "usr_b" },
  }));
  const queries: AuditPageQuery[] = [];
  const deps: AuditDeps = {
    workspaces: { membership: async (workspaceId, userId) => (role ? { workspaceId, userId, role, joinedAt: "2026-01-01T00:00:00.000Z" } : undefined) },
    audit: {
      list: async (_ws, query) => {
        queries.push(query);
        const newest = [...entries].reverse().filter((e) => (!query.actor || e.actor.userId === query.actor) && (!query.action || e.action === query.action));
        const from = query.after ? newest.findIndex((e) => `${e.at}#${e.entryId}` === query.after) + 1 : 0;
        const items = newest.slice(from, from + query.limit);
        const last = items.at(-1);
        return from + query.limit < newest.length && last ? { items, after: `${last.at}#${last.entryId}` } : { items };
      },
    },
    users: { get: async (userId) => (userId === "usr_a" ? ({ userId, email: "a@example.com" } as never) : undefined) },
    cursorSecret: { bytes: async () => secret },
  };
  return { deps, queries };
}

const me = { userId: "usr_me" };
const workspaceId = "ws_0123456789abcdef";

describe("listAudit", () => {
  it("pages 50 at a time with cursors bound to the workspace and the filters", async () => {
    const { deps } = memoryDeps("admin");
    const first = await listAudit(deps, me, { workspaceId, actor: "usr_a" });
    expect(first.items).toHaveLength(50);
    expect(first.items.every((e) => e.actor.userId === "usr_a" && e.actor.email === "a@example.com")).toBe(true);
    const second = await listAudit(deps, me, { workspaceId, actor: "usr_a", cursor: first.nextCursor! });
    expect(second.items).toHaveLength(30);
    expect(second.nextCursor).toBeNull();
    // The same cursor under other filters, or in another workspace, is not a cursor of that list.
    await expect(listAudit(deps, me, { workspaceId, cursor: first.nextCursor! })).rejects.toBeInstanceOf(InvalidCursorError);
    await expect(listAudit(deps, me, { workspaceId, actor: "usr_a", action: "key.created", cursor: first.nextCursor! })).rejects.toBeInstanceOf(InvalidCursorError);
    await expect(listAudit(deps, me, { workspaceId: "ws_fedcba9876543210", actor: "usr_a", cursor: first.nextCursor! })).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it("answers an unknown account's email as null and treats empty filters as none", async () => {
    const { deps, queries } = memoryDeps("owner");
    const page = await listAudit(deps, me, { workspaceId, actor: "", action: "" });
    expect(queries.at(-1)).toEqual({ limit: 50 });
    expect(page.items.find((e) => e.actor.userId === "usr_b")!.actor).toEqual({ userId: "usr_b", email: null, ip: null, userAgentFamily: null });
  });

  it("reads nothing of the log for a developer, a viewer or a non-member", async () => {
    for (const role of ["developer", "viewer", undefined] as const) {
      const { deps, queries } = memoryDeps(role);
      const error = await listAudit(deps, me, { workspaceId }).catch((e: unknown) => e);
      expect(error).toMatchObject(role ? { code: "forbidden", permission: "audit.read" } : { code: "workspace_not_found" });
      expect(queries).toEqual([]);
    }
  });
});
