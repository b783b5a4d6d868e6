import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ACTIONS, MAX_WORKSPACES_PER_USER, permissionsOf } from "@hangar/core";
import { describe, expect, it } from "vitest";
import { dash } from "./support/accounts";
import { db, stack } from "./support/api";
import { addMember, member, newWorkspace } from "./support/workspaces";

/** The audit actions recorded in a workspace's log, oldest first (read straight from the table). */
async function auditActions(workspaceId: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: stack().tableName,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": `AUDIT#${workspaceId}` },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((item) => item.action as string);
}

describe("workspaces API", () => {
  it("gives every new account its personal workspace, owned, listed first", async () => {
    const me = await member();
    const list = await dash(me.b, "GET", "/api/workspaces");
    expect(list.status, list.text).toBe(200);
    expect(list.json.items).toEqual([
      {
        workspaceId: me.personal,
        name: `${me.email.split("@")[0]}'s workspace`,
        personal: true,
        role: "owner",
        permissions: [...ACTIONS],
        memberCount: 1,
        createdAt: expect.any(String),
      },
    ]);
  });

  it("creates, lists (personal first, then by name), reads, renames and deletes a workspace", async () => {
    const me = await member();
    const zeta = await newWorkspace(me.b, "Zeta team");
    const alpha = await newWorkspace(me.b, "Alpha team");
    expect(zeta).toMatchObject({ name: "Zeta team", personal: false, role: "owner", memberCount: 1, permissions: [...ACTIONS] });
    const list = await dash(me.b, "GET", "/api/workspaces");
    expect(list.json.items.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([me.personal, alpha.workspaceId, zeta.workspaceId]);

    const renamed = await dash(me.b, "PATCH", `/api/workspaces/${zeta.workspaceId}`, { name: "  Omega team " });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ workspaceId: zeta.workspaceId, name: "Omega team" });
    expect((await dash(me.b, "GET", `/api/workspaces/${zeta.workspaceId}`)).json.name).toBe("Omega team");

    const wrongName = await dash(me.b, "DELETE", `/api/workspaces/${zeta.workspaceId}`, { confirmName: "Zeta team" });
    expect(wrongName.status).toBe(400);
    expect(wrongName.json.error.fields).toEqual([{ field: "confirmName", message: "does not match the workspace's name" }]);
    expect(await auditActions(zeta.workspaceId)).toEqual(["workspace.created", "workspace.renamed"]);
    const deleted = await dash(me.b, "DELETE", `/api/workspaces/${zeta.workspaceId}`, { confirmName: "omega TEAM" });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({ status: "deleted" });
    expect((await dash(me.b, "GET", `/api/workspaces/${zeta.workspaceId}`)).json.error.code).toBe("workspace_not_found");
    expect((await dash(me.b, "GET", "/api/workspaces")).json.items).toHaveLength(2);
    // Its audit log goes with it: nobody could read it any more, and it holds addresses and IPs.
    expect(await auditActions(zeta.workspaceId)).toEqual([]);
  });

  it("never deletes a personal workspace", async () => {
    const me = await member();
    const name = (await dash(me.b, "GET", `/api/workspaces/${me.personal}`)).json.name;
    const reply = await dash(me.b, "DELETE", `/api/workspaces/${me.personal}`, { confirmName: name });
    expect(reply.status).toBe(409);
    expect(reply.json.error.code).toBe("personal_workspace");
  });

  it("answers a non-member 404 exactly as an unknown id, on every workspace route", async () => {
    const owner = await member();
    const stranger = await member();
    const team = await newWorkspace(owner.b, "Private team");
    const unknown = "ws_0000000000000000";
    for (const id of [team.workspaceId, unknown, "not-a-workspace"]) {
      for (const [method, path, body] of [
        ["GET", `/api/workspaces/${id}`],
        ["PATCH", `/api/workspaces/${id}`, { name: "Mine now" }],
        ["DELETE", `/api/workspaces/${id}`, { confirmName: "Private team" }],
        ["GET", `/api/workspaces/${id}/members`],
        ["PATCH", `/api/workspaces/${id}/members/${owner.userId}`, { role: "viewer" }],
        ["DELETE", `/api/workspaces/${id}/members/${owner.userId}`],
        ["POST", `/api/workspaces/${id}/transfer`, { userId: stranger.userId }],
      ] as const) {
        const reply = await dash(stranger.b, method, path, body);
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(reply.json.error.code, `${method} ${path}`).toBe("workspace_not_found");
      }
    }
    expect((await dash(stranger.b, "GET", "/api/workspaces")).json.items.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([
      stranger.personal,
    ]);
  });

  it("lets a viewer read the workspace and its members, and answers 403 naming the permission for anything else", async () => {
    const owner = await member();
    const viewer = await member();
    const team = await newWorkspace(owner.b, "Readers");
    await addMember(team.workspaceId, viewer.userId, "viewer");

    const seen = await dash(viewer.b, "GET", `/api/workspaces/${team.workspaceId}`);
    expect(seen.json).toMatchObject({ role: "viewer", permissions: permissionsOf("viewer"), memberCount: 2 });
    const members = await dash(viewer.b, "GET", `/api/workspaces/${team.workspaceId}/members`);
    expect(members.status, members.text).toBe(200);
    expect(members.json.items).toEqual([
      // The owner has not opened the workspace since making it; the viewer just did.
      { userId: owner.userId, email: owner.email, displayName: null, role: "owner", joinedAt: expect.any(String), lastActiveAt: null, you: false },
      { userId: viewer.userId, email: viewer.email, displayName: null, role: "viewer", joinedAt: expect.any(String), lastActiveAt: expect.any(String), you: true },
    ]);

    for (const [method, path, body, permission] of [
      ["PATCH", `/api/workspaces/${team.workspaceId}`, { name: "Mine" }, "workspace.update"],
      ["DELETE", `/api/workspaces/${team.workspaceId}`, { confirmName: "Readers" }, "workspace.delete"],
      ["PATCH", `/api/workspaces/${team.workspaceId}/members/${owner.userId}`, { role: "viewer" }, "members.manage"],
      ["DELETE", `/api/workspaces/${team.workspaceId}/members/${owner.userId}`, undefined, "members.manage"],
      ["POST", `/api/workspaces/${team.workspaceId}/transfer`, { userId: viewer.userId }, "owners.manage"],
    ] as const) {
      const reply = await dash(viewer.b, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.json.error, `${method} ${path}`).toMatchObject({ code: "forbidden", permission, role: "viewer" });
    }
    expect((await dash(owner.b, "GET", `/api/workspaces/${team.workspaceId}`)).json.name).toBe("Readers");
  });

  it("lets an admin manage non-owners but not make, unmake or remove owners", async () => {
    const owner = await member();
    const admin = await member();
    const dev = await member();
    const team = await newWorkspace(owner.b);
    await addMember(team.workspaceId, admin.userId, "admin");
    await addMember(team.workspaceId, dev.userId, "developer");

    const promoted = await dash(admin.b, "PATCH", `/api/workspaces/${team.workspaceId}/members/${dev.userId}`, { role: "admin" });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.json).toMatchObject({ userId: dev.userId, email: dev.email, role: "admin", you: false });
    for (const [method, path, body] of [
      ["PATCH", `/api/workspaces/${team.workspaceId}/members/${dev.userId}`, { role: "owner" }],
      ["PATCH", `/api/workspaces/${team.workspaceId}/members/${owner.userId}`, { role: "admin" }],
      ["DELETE", `/api/workspaces/${team.workspaceId}/members/${owner.userId}`],
    ] as const) {
      const reply = await dash(admin.b, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.json.error).toMatchObject({ code: "forbidden", permission: "owners.manage", role: "admin" });
    }
    const unknownMember = await dash(admin.b, "DELETE", `/api/workspaces/${team.workspaceId}/members/usr_0000000000000000`);
    expect(unknownMember.status).toBe(404);
    expect(unknownMember.json.error.code).toBe("member_not_found");
    expect(await auditActions(team.workspaceId)).toEqual(["workspace.created", "member.role_changed"]);
  });

  it("takes a removed member's access away from their next request, and lets members leave", async () => {
    const owner = await member();
    const dev = await member();
    const viewer = await member();
    const team = await newWorkspace(owner.b);
    await addMember(team.workspaceId, dev.userId, "developer");
    await addMember(team.workspaceId, viewer.userId, "viewer");
    expect((await dash(dev.b, "GET", `/api/workspaces/${team.workspaceId}`)).status).toBe(200);

    const removed = await dash(owner.b, "DELETE", `/api/workspaces/${team.workspaceId}/members/${dev.userId}`);
    expect(removed.status, removed.text).toBe(204);
    const after = await dash(dev.b, "GET", `/api/workspaces/${team.workspaceId}`);
    expect(after.status).toBe(404);
    expect(after.json.error.code).toBe("workspace_not_found");
    expect((await dash(dev.b, "GET", "/api/workspaces")).json.items.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([dev.personal]);

    const left = await dash(viewer.b, "DELETE", `/api/workspaces/${team.workspaceId}/members/${viewer.userId}`);
    expect(left.status, left.text).toBe(204);
    expect((await dash(viewer.b, "GET", `/api/workspaces/${team.workspaceId}`)).status).toBe(404);
    expect((await dash(owner.b, "GET", `/api/workspaces/${team.workspaceId}`)).json.memberCount).toBe(1);
    expect(await auditActions(team.workspaceId)).toEqual(["workspace.created", "member.removed", "member.left"]);
  });

  it("keeps a last owner: it cannot leave, be removed or be demoted (409 last_owner)", async () => {
    const owner = await member();
    const admin = await member();
    const team = await newWorkspace(owner.b);
    await addMember(team.workspaceId, admin.userId, "admin");
    for (const [method, path, body] of [
      ["DELETE", `/api/workspaces/${team.workspaceId}/members/${owner.userId}`],
      ["PATCH", `/api/workspaces/${team.workspaceId}/members/${owner.userId}`, { role: "admin" }],
      ["DELETE", `/api/workspaces/${owner.personal}/members/${owner.userId}`],
    ] as const) {
      const reply = await dash(owner.b, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(409);
      expect(reply.json.error.code).toBe("last_owner");
    }
    expect((await dash(owner.b, "GET", `/api/workspaces/${team.workspaceId}`)).json.role).toBe("owner");
  });

  it("lets exactly one of two owners demote the other when both try at once", async () => {
    for (let round = 0; round < 3; round++) {
      const a = await member();
      const b = await member();
      const team = await newWorkspace(a.b);
      await addMember(team.workspaceId, b.userId, "owner");
      const replies = await Promise.all([
        dash(a.b, "PATCH", `/api/workspaces/${team.workspaceId}/members/${b.userId}`, { role: "admin" }),
        dash(b.b, "PATCH", `/api/workspaces/${team.workspaceId}/members/${a.userId}`, { role: "admin" }),
      ]);
      const statuses = replies.map((r) => r.status).sort();
      // The loser either found its own role gone (403: an admin may not unmake owners) or the other
      // transaction committed first at the counter (409 last_owner): never both demoted.
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const members = (await dash(a.b, "GET", `/api/workspaces/${team.workspaceId}/members`)).json.items as { role: string }[];
      expect(members.filter((m) => m.role === "owner")).toHaveLength(1);
    }
  });

  it("transfers ownership: the member becomes owner, the caller admin", async () => {
    const owner = await member();
    const dev = await member();
    const team = await newWorkspace(owner.b, "Handover");
    await addMember(team.workspaceId, dev.userId, "developer");
    const self = await dash(owner.b, "POST", `/api/workspaces/${team.workspaceId}/transfer`, { userId: owner.userId });
    expect(self.status).toBe(400);
    const stranger = await dash(owner.b, "POST", `/api/workspaces/${team.workspaceId}/transfer`, { userId: "usr_0000000000000000" });
    expect(stranger.status).toBe(404);
    expect(stranger.json.error.code).toBe("member_not_found");

    const moved = await dash(owner.b, "POST", `/api/workspaces/${team.workspaceId}/transfer`, { userId: dev.userId });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toMatchObject({ workspaceId: team.workspaceId, role: "admin", permissions: permissionsOf("admin") });
    expect((await dash(dev.b, "GET", `/api/workspaces/${team.workspaceId}`)).json.role).toBe("owner");
    // The former owner is an admin now: deleting the workspace is the new owner's.
    const denied = await dash(owner.b, "DELETE", `/api/workspaces/${team.workspaceId}`, { confirmName: "Handover" });
    expect(denied.json.error).toMatchObject({ code: "forbidden", permission: "workspace.delete" });
    expect((await auditActions(team.workspaceId)).at(-1)).toBe("ownership.transferred");
  });

  it("holds the per-account workspace limit under concurrent creates", async () => {
    const me = await member();
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `USER#${me.userId}`, sk: "USER" },
        UpdateExpression: "SET workspaceCount = :n",
        ExpressionAttributeValues: { ":n": MAX_WORKSPACES_PER_USER - 1 },
      }),
    );
    const replies = await Promise.all(["One", "Two", "Three"].map((name) => dash(me.b, "POST", "/api/workspaces", { name })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of replies.filter((r) => r.status === 409)) expect(r.json.error).toMatchObject({ code: "limit_reached", limit: "workspaces" });
  });

  it("validates names", async () => {
    const me = await member();
    for (const name of ["", "   ", "x".repeat(81), "a\u202eb"]) {
      const reply = await dash(me.b, "POST", "/api/workspaces", { name });
      expect(reply.status, JSON.stringify(name)).toBe(400);
      expect(reply.json.error.fields[0].field).toBe("name");
    }
  });
});
