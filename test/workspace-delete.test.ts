import { describe, expect, it } from "vitest";
import { PASSWORD, dash, uniqueEmail } from "./support/accounts";
import { presign, stack } from "./support/api";
import { eventually, itemsMentioning, newDashboardKey, uploadIpa, versionsUnder, withoutLinkTraces } from "./support/dashboard";
import { addMember, member, newWorkspace } from "./support/workspaces";

/**
 * Deleting a team workspace deletes everything in it (docs/teams.md, "Deleting a workspace"): its
 * projects with their builds, objects, links and keys, its members, pending invitations and audit
 * log. A workspace this small fits the shared stack's in-request budget (HANGAR_DELETE_INLINE_MS);
 * the background path has its own stack (workspace-delete-background.test.ts).
 */
describe("deleting a workspace", () => {
  it("removes its projects, builds, keys, links, members, invitations and log, and answers 200 deleted", async () => {
    const owner = await member();
    const colleague = await member();
    const team = await newWorkspace(owner.b, "Doomed team");
    await addMember(team.workspaceId, colleague.userId, "developer");

    const projects = [];
    for (const name of ["Doomed app", "Doomed tool"]) {
      const reply = await dash(owner.b, "POST", "/api/projects", { name, color: "blue", workspaceId: team.workspaceId });
      expect(reply.status, reply.text).toBe(201);
      projects.push(reply.json.projectId as string);
    }
    const [app, tool] = projects as [string, string];
    const key = await newDashboardKey(owner.b, app);
    await newDashboardKey(colleague.b, tool);
    const build = await uploadIpa(key, "Doomed.ipa");
    const invitation = await dash(owner.b, "POST", `/api/workspaces/${team.workspaceId}/invitations`, { email: uniqueEmail("doomed"), role: "viewer" });
    expect(invitation.status, invitation.text).toBe(201);
    expect((await versionsUnder(`uploads/${app}/`)).length).toBeGreaterThan(0);
    expect((await dash(colleague.b, "GET", `/api/workspaces/${team.workspaceId}`)).status).toBe(200);

    const gone = await dash(owner.b, "DELETE", `/api/workspaces/${team.workspaceId}`, { confirmName: "doomed TEAM" });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.json).toEqual({ status: "deleted" });

    // Nobody reaches it any more, its keys stop, its links say the build is gone.
    for (const who of [owner, colleague]) {
      expect((await dash(who.b, "GET", `/api/workspaces/${team.workspaceId}`)).json.error.code).toBe("workspace_not_found");
      expect((await dash(who.b, "GET", `/api/projects/${app}`)).status).toBe(404);
      expect((await dash(who.b, "GET", "/api/workspaces")).json.items.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([who.personal]);
    }
    expect((await presign(key, { fileName: "A.ipa", fileSize: 10, fileType: "application/octet-stream" })).status).toBe(401);
    expect((await fetch(build.shareUrl.replace(/^https?:\/\/[^/]+/, stack().baseUrl))).status).toBe(410);
    expect(await versionsUnder(`uploads/${app}/`)).toEqual([]);
    expect(await versionsUnder(`uploads/${tool}/`)).toEqual([]);

    // Nothing of it is left in the table (a scan): no project, key, build, member, invitation,
    // invitation token, audit entry, delete marker or the workspace itself. Only the traces its
    // links leave so visitors get a 410 stay (they hold nothing of the build), and the invitation
    // mail limit's window, which expires by TTL. The refused presign of the dead key wrote nothing
    // (its condition on the key item failed), so nothing mentions the key's id either.
    const left = withoutLinkTraces(await itemsMentioning(team.workspaceId, app, tool, build.fileId, invitation.json.invitationId));
    expect(left.filter((item) => item.type !== "rate")).toEqual([]);
    for (const item of left) expect(item).toMatchObject({ pk: `RATE#invitationsPerWorkspace#${team.workspaceId}`, ttl: expect.any(Number) });
    expect(await itemsMentioning(key.clientId)).toEqual([]);

    // The members' counters were given back: both can still create and join workspaces.
    expect((await dash(colleague.b, "POST", "/api/workspaces", { name: "Next team" })).status).toBe(201);
  });

  it("is the owners' only: an admin gets 403 forbidden and the workspace stays", async () => {
    const owner = await member();
    const admin = await member();
    const team = await newWorkspace(owner.b, "Kept team");
    await addMember(team.workspaceId, admin.userId, "admin");
    const refused = await dash(admin.b, "DELETE", `/api/workspaces/${team.workspaceId}`, { confirmName: "Kept team" });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: "forbidden", permission: "workspace.delete", role: "admin" });
    expect((await dash(owner.b, "GET", `/api/workspaces/${team.workspaceId}`)).status).toBe(200);
    expect((await dash(admin.b, "GET", `/api/workspaces/${team.workspaceId}`)).status).toBe(200);
  });

  it("deletes the workspaces an account alone owns with it, and leaves nothing of them", async () => {
    const owner = await member();
    const team = await newWorkspace(owner.b, "Solo team");
    const reply = await dash(owner.b, "POST", "/api/projects", { name: "Solo app", color: "red", workspaceId: team.workspaceId });
    expect(reply.status, reply.text).toBe(201);
    const projectId = reply.json.projectId as string;
    await uploadIpa(await newDashboardKey(owner.b, projectId), "Solo.ipa");

    const gone = await dash(owner.b, "DELETE", "/api/account", { password: PASSWORD });
    expect([202, 204]).toContain(gone.status);
    await eventually(async () => withoutLinkTraces(await itemsMentioning(team.workspaceId, owner.personal, projectId)).length === 0, "workspaces gone");
    expect(withoutLinkTraces(await itemsMentioning(team.workspaceId, owner.personal, projectId))).toEqual([]);
    expect(await versionsUnder(`uploads/${projectId}/`)).toEqual([]);
  });
});
