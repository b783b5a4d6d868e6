import { beforeEach, describe, expect, it } from "vitest";
import type { WebhookEvent } from "../../src/webhooks/webhook-events";
import { ForbiddenError, ValidationError, type AuditEntryInput, type Membership, type TesterGroupRef } from "../../src";
import {
  AddTesters,
  addTesters,
  createGroup,
  CreateGroup,
  createInviteLink,
  CreateInviteLink,
  deleteGroup,
  getGroup,
  GroupConflictError,
  GroupNotFoundError,
  joinGroupByLink,
  JoinLinkGoneError,
  joinLinkToken,
  listGroups,
  listWorkspaceTesters,
  previewJoinLink,
  removeTester,
  renameGroup,
  revokeInviteLink,
  TesterNotFoundError,
  type JoinOutcome,
  type LastInstall,
  type StoredGroup,
  type StoredInviteLink,
  type StoredTester,
  type TesterGroupDeps,
  type TesterGroupStore,
} from "../../src/tester-groups";
import { fixedClock } from "../support/fakes";

/**
 * The tester groups' use cases on an in-memory store with the DynamoDB adapter's contract (the
 * adapter itself, its caps under concurrency and the HTTP answers: test/tester-groups.test.ts).
 */
class MemoryGroups implements TesterGroupStore {
  readonly groups = new Map<string, StoredGroup>();
  readonly names = new Map<string, string>();
  readonly testerItems = new Map<string, StoredTester>();
  readonly links = new Map<string, { groupId: string; workspaceId: string; linkId: string }>();
  readonly installs = new Map<string, LastInstall>();

  async create(group: StoredGroup, maxGroups: number) {
    const nameKey = `${group.workspaceId}/${group.name.toLowerCase()}`;
    if (this.names.has(nameKey)) throw new GroupConflictError("group_name_taken", "taken");
    if ([...this.groups.values()].filter((g) => g.workspaceId === group.workspaceId).length >= maxGroups) {
      throw new GroupConflictError("limit_reached", "full", { limit: "groups", max: maxGroups });
    }
    this.groups.set(group.groupId, { ...group });
    this.names.set(nameKey, group.groupId);
  }
  async get(workspaceId: string, groupId: string) {
    const g = this.groups.get(groupId);
    return g && g.workspaceId === workspaceId ? structuredClone(g) : undefined;
  }
  async workspaceOf(groupId: string) {
    return this.groups.get(groupId)?.workspaceId;
  }
  async list(workspaceId: string) {
    return [...this.groups.values()].filter((g) => g.workspaceId === workspaceId).map((g) => structuredClone(g));
  }
  async rename(group: StoredGroup, name: string) {
    const newKey = `${group.workspaceId}/${name.toLowerCase()}`;
    const oldKey = `${group.workspaceId}/${group.name.toLowerCase()}`;
    if (newKey !== oldKey && this.names.has(newKey)) throw new GroupConflictError("group_name_taken", "taken");
    this.names.delete(oldKey);
    this.names.set(newKey, group.groupId);
    this.groups.get(group.groupId)!.name = name;
    return { ...group, name };
  }
  async delete(group: StoredGroup) {
    for (const [k, t] of this.testerItems) if (t.groupId === group.groupId) this.testerItems.delete(k);
    const g = this.groups.get(group.groupId);
    if (g?.inviteLink) this.links.delete(g.inviteLink.tokenHash);
    if (g) this.names.delete(`${g.workspaceId}/${g.name.toLowerCase()}`);
    this.groups.delete(group.groupId);
  }
  async testers(groupId: string) {
    return [...this.testerItems.values()].filter((t) => t.groupId === groupId);
  }
  async addTesters(group: StoredGroup, testers: StoredTester[], maxTesters: number) {
    const g = this.groups.get(group.groupId)!;
    const already = testers.filter((t) => this.testerItems.has(`${t.groupId}/${t.email}`)).map((t) => t.email);
    const fresh = testers.filter((t) => !already.includes(t.email));
    if (g.testerCount + fresh.length > maxTesters) throw new GroupConflictError("limit_reached", "full", { limit: "testers", free: maxTesters - g.testerCount, added: [] });
    for (const t of fresh) this.testerItems.set(`${t.groupId}/${t.email}`, { ...t });
    g.testerCount += fresh.length;
    return { added: fresh.map((t) => t.email), already };
  }
  async removeTester(group: StoredGroup, email: string) {
    if (!this.testerItems.delete(`${group.groupId}/${email}`)) return false;
    this.groups.get(group.groupId)!.testerCount--;
    return true;
  }
  async setInviteLink(group: StoredGroup, link: StoredInviteLink) {
    const g = this.groups.get(group.groupId)!;
    if (g.inviteLink) this.links.delete(g.inviteLink.tokenHash);
    g.inviteLink = { ...link };
    this.links.set(link.tokenHash, { groupId: g.groupId, workspaceId: g.workspaceId, linkId: link.linkId });
    return structuredClone(g);
  }
  async removeInviteLink(group: StoredGroup) {
    const g = this.groups.get(group.groupId)!;
    if (!g.inviteLink) return false;
    this.links.delete(g.inviteLink.tokenHash);
    delete g.inviteLink;
    return true;
  }
  async inviteLinkOf(tokenHash: string) {
    return this.links.get(tokenHash);
  }
  async join(group: StoredGroup, linkId: string, tester: StoredTester, now: string, maxTesters: number): Promise<JoinOutcome> {
    if (this.testerItems.has(`${tester.groupId}/${tester.email}`)) return "already";
    const g = this.groups.get(group.groupId);
    const l = g?.inviteLink;
    if (!g || !l || l.linkId !== linkId || (l.expiresAt !== null && l.expiresAt <= now) || (l.maxMembers !== null && l.joinedCount >= l.maxMembers) || g.testerCount >= maxTesters) {
      return "gone";
    }
    this.testerItems.set(`${tester.groupId}/${tester.email}`, { ...tester });
    g.testerCount++;
    l.joinedCount++;
    return "joined";
  }
  async lastInstalls(workspaceId: string, emails: readonly string[]) {
    return new Map(emails.flatMap((e) => (this.installs.has(`${workspaceId}/${e}`) ? [[e, this.installs.get(`${workspaceId}/${e}`)!] as const] : [])));
  }
  async resolve(): Promise<{ groups: TesterGroupRef[]; missing: string[] }> {
    throw new Error("not used by the use cases");
  }
  async addresses(): Promise<string[]> {
    throw new Error("not used by the use cases");
  }
}

const WS = "ws_0000000000000001";
const OTHER = "ws_0000000000000002";
const links = { publicBaseUrl: "https://hangar.example/" };
const SECRET = new Uint8Array(32).fill(7);

describe("tester groups (use cases)", () => {
  let store: MemoryGroups;
  let audit: AuditEntryInput[];
  let members: Map<string, Membership>;
  let deps: TesterGroupDeps;
  let n: number;
  const owner = { userId: "usr_owner" };
  const viewer = { userId: "usr_viewer" };
  const stranger = { userId: "usr_stranger" };

  beforeEach(() => {
    store = new MemoryGroups();
    audit = [];
    n = 0;
    members = new Map([
      [`${WS}/usr_owner`, { workspaceId: WS, userId: "usr_owner", role: "owner", joinedAt: "" }],
      [`${WS}/usr_viewer`, { workspaceId: WS, userId: "usr_viewer", role: "viewer", joinedAt: "" }],
      [`${OTHER}/usr_stranger`, { workspaceId: OTHER, userId: "usr_stranger", role: "owner", joinedAt: "" }],
    ]);
    deps = {
      groups: store,
      workspaces: {
        membership: async (ws, userId) => members.get(`${ws}/${userId}`),
        get: async (ws) => ({ workspaceId: ws, name: ws === WS ? "Team" : "Other", personal: false, createdAt: "", createdBy: "", memberCount: 2, ownerCount: 1 }),
      },
      audit: { record: async (entry) => void audit.push(entry) },
      clock: fixedClock("2026-11-25T12:00:00.000Z"),
      ids: { groupId: () => `grp_${String(++n).padStart(16, "0")}`, linkId: () => `lnk_${String(++n).padStart(16, "0")}` },
      joinLinkSecret: { bytes: async () => SECRET },
    };
  });

  const make = (name: string) => createGroup(deps, owner, { workspaceId: WS, name }, links);

  it("creates groups with names unique whatever their case, lists them by name, and records who did it", async () => {
    const qa = await make("QA");
    expect(qa).toEqual({ groupId: "grp_0000000000000001", workspaceId: WS, name: "QA", testerCount: 0, createdAt: "2026-11-25T12:00:00.000Z", inviteLink: null });
    await expect(make("qa")).rejects.toMatchObject({ code: "group_name_taken" });
    await make("beta");
    expect((await listGroups(deps, viewer, { workspaceId: WS }, links)).map((g) => g.name)).toEqual(["beta", "QA"]);
    expect(audit[0]).toEqual({ workspaceId: WS, actor: { userId: "usr_owner" }, action: "group.create", target: { type: "group", id: qa.groupId, label: "QA" } });
    expect(audit).toHaveLength(2);
  });

  it("lets viewers read and refuses them changes; strangers get the group's 404", async () => {
    const qa = await make("QA");
    await expect(getGroup(deps, viewer, { groupId: qa.groupId }, links)).resolves.toMatchObject({ name: "QA", testers: [] });
    await expect(createGroup(deps, viewer, { workspaceId: WS, name: "x" }, links)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(renameGroup(deps, viewer, { groupId: qa.groupId, name: "x" }, links)).rejects.toMatchObject({ code: "forbidden", permission: "testers.manage" });
    await expect(getGroup(deps, stranger, { groupId: qa.groupId }, links)).rejects.toBeInstanceOf(GroupNotFoundError);
    await expect(deleteGroup(deps, stranger, { groupId: qa.groupId })).rejects.toBeInstanceOf(GroupNotFoundError);
    await expect(getGroup(deps, owner, { groupId: "grp_nope" }, links)).rejects.toBeInstanceOf(GroupNotFoundError);
    await expect(listGroups(deps, stranger, { workspaceId: WS }, links)).rejects.toMatchObject({ code: "workspace_not_found" });
  });

  it("publishes tester.joined (via added) for each address new in the group, and nothing for those already there", async () => {
    const qa = await make("QA");
    const published: WebhookEvent[] = [];
    const withEvents: TesterGroupDeps = { ...deps, events: { publish: async (e) => void published.push(e) } };
    const many = Array.from({ length: 60 }, (_, i) => `t${i}@example.com`);
    await addTesters(withEvents, owner, { groupId: qa.groupId, emails: many }, links);
    await addTesters(withEvents, owner, { groupId: qa.groupId, emails: ["t0@example.com", "new@example.com"] }, links);
    expect(published).toHaveLength(61);
    expect(published.map((e) => (e.type === "tester.joined" ? e.data.tester.email : e.type)).sort()).toEqual([...many, "new@example.com"].sort());
    expect(published.at(-1)).toEqual({
      type: "tester.joined",
      occurredAt: "2026-11-25T12:00:00.000Z",
      workspaceId: WS,
      projectId: null,
      branch: null,
      data: { workspaceId: WS, tester: { email: "new@example.com" }, group: { groupId: qa.groupId, name: "QA" }, via: "added" },
    });
  });

  it("adds pasted addresses normalized, reports already and invalid ones, and removes one in any case", async () => {
    const qa = await make("QA");
    const added = await addTesters(deps, owner, { groupId: qa.groupId, emails: [" Ann@Example.com", "ann@example.com", "nope", "bob@example.com"] }, links);
    expect(added).toMatchObject({ added: ["ann@example.com", "bob@example.com"], already: [], invalid: ["nope"], testerCount: 2 });
    const again = await addTesters(deps, owner, { groupId: qa.groupId, emails: ["BOB@example.com", "x@"] }, links);
    expect(again).toMatchObject({ added: [], already: ["bob@example.com"], invalid: ["x@"], testerCount: 2 });
    // Nothing added: nothing to record.
    expect(audit.filter((e) => e.action === "group.testers_add").map((e) => e.details)).toEqual([{ added: 2, already: 0, invalid: 1 }]);

    store.installs.set(`${WS}/ann@example.com`, { fileId: "fil_1", projectId: "prj_1", platform: "android", version: "1.0", build: "7", at: "2026-11-25T11:00:00.000Z" });
    const read = await getGroup(deps, viewer, { groupId: qa.groupId }, links);
    expect(read.testers).toEqual([
      { email: "ann@example.com", addedAt: "2026-11-25T12:00:00.000Z", source: "added", lastInstall: expect.objectContaining({ fileId: "fil_1" }) },
      { email: "bob@example.com", addedAt: "2026-11-25T12:00:00.000Z", source: "added", lastInstall: null },
    ]);

    await removeTester(deps, owner, { groupId: qa.groupId, email: "ANN@example.COM" });
    await expect(removeTester(deps, owner, { groupId: qa.groupId, email: "ann@example.com" })).rejects.toBeInstanceOf(TesterNotFoundError);
    await expect(removeTester(deps, owner, { groupId: qa.groupId, email: "not an address" })).rejects.toBeInstanceOf(TesterNotFoundError);
    expect(audit.at(-1)).toMatchObject({ action: "group.tester_remove", details: { email: "ann@example.com" } });
  });

  it("lists the workspace's testers once each, with their groups", async () => {
    const qa = await make("QA");
    const beta = await make("Beta");
    await addTesters(deps, owner, { groupId: qa.groupId, emails: ["ann@example.com", "bob@example.com"] }, links);
    await addTesters(deps, owner, { groupId: beta.groupId, emails: ["ann@example.com"] }, links);
    expect(await listWorkspaceTesters(deps, viewer, { workspaceId: WS })).toEqual([
      { email: "ann@example.com", groups: [{ groupId: beta.groupId, name: "Beta" }, { groupId: qa.groupId, name: "QA" }], lastInstall: null },
      { email: "bob@example.com", groups: [{ groupId: qa.groupId, name: "QA" }], lastInstall: null },
    ]);
  });

  it("renames (a change of case too) and deletes, recording both", async () => {
    const qa = await make("QA");
    await make("Beta");
    expect((await renameGroup(deps, owner, { groupId: qa.groupId, name: "qa" }, links)).name).toBe("qa");
    await expect(renameGroup(deps, owner, { groupId: qa.groupId, name: "BETA" }, links)).rejects.toMatchObject({ code: "group_name_taken" });
    await deleteGroup(deps, owner, { groupId: qa.groupId });
    await expect(getGroup(deps, owner, { groupId: qa.groupId }, links)).rejects.toBeInstanceOf(GroupNotFoundError);
    expect(audit.map((e) => e.action)).toEqual(["group.create", "group.create", "group.update", "group.delete"]);
    expect(audit[2]!.details).toEqual({ from: "QA", to: "qa" });
  });

  it("makes invite links the dashboard can show again, replaces and revokes them", async () => {
    const qa = await make("QA");
    const link = await createInviteLink(deps, owner, { groupId: qa.groupId, maxMembers: 3 }, links);
    const token = joinLinkToken(SECRET, qa.groupId, "lnk_0000000000000002");
    expect(link).toEqual({ url: `https://hangar.example/join/${token}`, createdAt: "2026-11-25T12:00:00.000Z", expiresAt: null, maxMembers: 3, joinedCount: 0 });
    expect((await getGroup(deps, viewer, { groupId: qa.groupId }, links)).inviteLink).toEqual(link);
    expect(await previewJoinLink(deps, token)).toEqual({ groupId: qa.groupId, groupName: "QA", workspaceName: "Team", expiresAt: null, open: true });

    const replaced = await createInviteLink(deps, owner, { groupId: qa.groupId, expiresAt: "2026-12-01T00:00:00+01:00" }, links);
    expect(replaced.expiresAt).toBe("2026-11-30T23:00:00.000Z");
    await expect(previewJoinLink(deps, token)).rejects.toBeInstanceOf(JoinLinkGoneError);
    await revokeInviteLink(deps, owner, { groupId: qa.groupId });
    await revokeInviteLink(deps, owner, { groupId: qa.groupId });
    expect((await getGroup(deps, owner, { groupId: qa.groupId }, links)).inviteLink).toBeNull();
    expect(audit.map((e) => e.action).filter((a) => a.startsWith("group.invite"))).toEqual(["group.invite_link_create", "group.invite_link_create", "group.invite_link_revoke"]);
  });

  it("refuses an expiry in the past or more than a year ahead", async () => {
    const qa = await make("QA");
    for (const expiresAt of ["2026-11-25T11:59:59Z", "2027-12-01T00:00:00Z"]) {
      await expect(createInviteLink(deps, owner, { groupId: qa.groupId, expiresAt }, links)).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it("joins through a live link once per address, up to its cap and until its expiry", async () => {
    const qa = await make("QA");
    const { url } = await createInviteLink(deps, owner, { groupId: qa.groupId, maxMembers: 2, expiresAt: "2026-11-26T12:00:00Z" }, links);
    const token = url.slice(url.lastIndexOf("/") + 1);
    expect(await joinGroupByLink(deps, { token, email: " Dana@Example.com" })).toEqual({
      groupId: qa.groupId,
      groupName: "QA",
      workspaceId: WS,
      workspaceName: "Team",
      email: "dana@example.com",
      joined: true,
    });
    expect((await joinGroupByLink(deps, { token, email: "dana@example.com" })).joined).toBe(false);
    await expect(joinGroupByLink(deps, { token, email: "erin@example.com", now: new Date("2026-11-27T00:00:00Z") })).rejects.toBeInstanceOf(JoinLinkGoneError);
    await joinGroupByLink(deps, { token, email: "erin@example.com" });
    await expect(joinGroupByLink(deps, { token, email: "finn@example.com" })).rejects.toBeInstanceOf(JoinLinkGoneError);
    await expect(previewJoinLink(deps, token)).rejects.toBeInstanceOf(JoinLinkGoneError);
    await expect(joinGroupByLink(deps, { token, email: "not an address" })).rejects.toBeInstanceOf(JoinLinkGoneError);
    const read = await getGroup(deps, owner, { groupId: qa.groupId }, links);
    expect(read.inviteLink?.joinedCount).toBe(2);
    expect(read.testers.map((t) => [t.email, t.source])).toEqual([
      ["dana@example.com", "joined"],
      ["erin@example.com", "joined"],
    ]);
  });
});

describe("tester group input", () => {
  it("takes names of 1–60 printable characters without commas, trimmed", () => {
    expect(CreateGroup.parse({ name: "  Beta testers " })).toEqual({ name: "Beta testers" });
    for (const name of ["", "  ", "x".repeat(61), "qa,beta", "a\u0007b", "a\u202eb", "\ud800"]) expect(CreateGroup.safeParse({ name }).success, JSON.stringify(name)).toBe(false);
    expect(CreateGroup.safeParse({ name: "🚀".repeat(60) }).success).toBe(true);
  });

  it("takes 1–1,000 bounded strings as addresses and link settings in range", () => {
    expect(AddTesters.safeParse({ emails: [] }).success).toBe(false);
    expect(AddTesters.safeParse({ emails: Array(1001).fill("a@b.co") }).success).toBe(false);
    expect(AddTesters.safeParse({ emails: ["x".repeat(2000)] }).success).toBe(false);
    expect(AddTesters.safeParse({ emails: Array(1000).fill("anything") }).success).toBe(true);
    expect(CreateInviteLink.safeParse({}).success).toBe(true);
    expect(CreateInviteLink.safeParse({ expiresAt: null, maxMembers: null }).success).toBe(true);
    for (const body of [{ maxMembers: 0 }, { maxMembers: 1001 }, { maxMembers: 2.5 }, { expiresAt: "soon" }, { expiresAt: "2030-01-01" }]) {
      expect(CreateInviteLink.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
  });
});
