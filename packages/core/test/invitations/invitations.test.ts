import { beforeEach, describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, type AuditEntryInput, type Invitation, type InvitationRepository, type Membership, type Workspace } from "../../src";
import { hashSecret } from "../../src/ids/random-ids";
import {
  acceptInvitation,
  createInvitation,
  defaultInvitationSettings,
  InvitationGoneError,
  listInvitations,
  previewInvitation,
  resendInvitation,
  revokeInvitation,
  WrongAccountError,
  type InvitationDeps,
} from "../../src/invitations";
import { MemorySuppressions, MemoryUsers, RecordingMailer } from "../accounts/account-fakes";
import { CountingRateLimiter, fixedClock } from "../support/fakes";

/**
 * The invitations' use cases on in-memory ports with the DynamoDB adapters' contracts (the
 * adapters themselves, the mail through MailDev and the HTTP answers: test/invitations.test.ts).
 */
class World implements InvitationRepository {
  readonly invitations = new Map<string, Invitation>();
  readonly tokens = new Map<string, { workspaceId: string; invitationId: string; expiresAt: number }>();
  readonly members = new Map<string, Membership>();
  readonly workspaces = new Map<string, Workspace>();
  readonly key = (ws: string, id: string) => `${ws}/${id}`;

  async create(i: Invitation) {
    this.invitations.set(this.key(i.workspaceId, i.invitationId), { ...i });
    this.tokens.set(i.tokenHash, { workspaceId: i.workspaceId, invitationId: i.invitationId, expiresAt: i.expiresAt });
  }
  async get(ws: string, id: string) {
    const i = this.invitations.get(this.key(ws, id));
    return i && { ...i };
  }
  async list(ws: string) {
    return [...this.invitations.values()].filter((i) => i.workspaceId === ws).map((i) => ({ ...i }));
  }
  async findToken(tokenHash: string) {
    const t = this.tokens.get(tokenHash);
    return t && { tokenHash, ...t };
  }
  async revoke(i: Invitation) {
    const k = this.key(i.workspaceId, i.invitationId);
    if (this.invitations.get(k)?.tokenHash !== i.tokenHash) return false;
    this.invitations.delete(k);
    this.tokens.delete(i.tokenHash);
    return true;
  }
  async renew(i: Invitation, next: { tokenHash: string; expiresAt: number; invitedBy: string }) {
    const k = this.key(i.workspaceId, i.invitationId);
    const stored = this.invitations.get(k);
    if (stored?.tokenHash !== i.tokenHash) return false;
    this.tokens.delete(i.tokenHash);
    this.invitations.set(k, { ...stored, ...next });
    this.tokens.set(next.tokenHash, { workspaceId: i.workspaceId, invitationId: i.invitationId, expiresAt: next.expiresAt });
    return true;
  }
  async accept({ invitation, userId, joinedAt, nowSeconds }: { invitation: Invitation; userId: string; joinedAt: string; nowSeconds: number }) {
    const t = this.tokens.get(invitation.tokenHash);
    const k = this.key(invitation.workspaceId, invitation.invitationId);
    if (!t || t.expiresAt <= nowSeconds || this.invitations.get(k)?.tokenHash !== invitation.tokenHash) return "gone" as const;
    if (this.members.has(this.key(invitation.workspaceId, userId))) throw new ConflictError("already_member", "member already");
    this.tokens.delete(invitation.tokenHash);
    this.invitations.delete(k);
    this.members.set(this.key(invitation.workspaceId, userId), { workspaceId: invitation.workspaceId, userId, role: invitation.role, joinedAt });
    return "accepted" as const;
  }
}

const WS = "ws_0000000000000001";
const links = { publicBaseUrl: "https://hangar.example" };
const client = { ip: "203.0.113.9", userAgent: "Vitest" };

describe("invitations (use cases)", () => {
  let world: World;
  let users: MemoryUsers;
  let mailer: RecordingMailer;
  let audit: AuditEntryInput[];
  let deps: InvitationDeps;
  let clock: ReturnType<typeof fixedClock>;
  let n: number;
  const owner = { userId: "usr_owner", client };
  const admin = { userId: "usr_admin", client };

  const addUser = async (userId: string, email: string, emailVerified = true) =>
    users.create({ userId, email, emailVerified, createdAt: "2026-01-01T00:00:00.000Z", displayName: userId.slice(4) });
  const tokenOf = (to: string) => /token=([A-Za-z0-9_-]{43})/.exec(mailer.to(to).at(-1)!.text)![1]!;

  beforeEach(async () => {
    world = new World();
    users = new MemoryUsers();
    mailer = new RecordingMailer();
    audit = [];
    clock = fixedClock("2026-11-25T12:00:00.000Z");
    n = 0;
    deps = {
      invitations: world,
      workspaces: {
        membership: async (ws, userId) => world.members.get(world.key(ws, userId)),
        get: async (ws) => world.workspaces.get(ws),
      },
      users,
      mailer,
      suppressions: new MemorySuppressions(),
      audit: { record: async (entry) => void audit.push(entry) },
      limiters: { perWorkspace: new CountingRateLimiter(5, 86_400), perInviter: new CountingRateLimiter(3, 3600), preview: new CountingRateLimiter(2, 900) },
      clock,
      ids: { invitationId: () => `inv_${String(++n).padStart(16, "0")}`, secret: () => `S${++n}`.padEnd(43, "x") },
      settings: { ...defaultInvitationSettings, maxPending: 4 },
    };
    world.workspaces.set(WS, { workspaceId: WS, name: "Team", personal: false, createdAt: "", createdBy: "usr_owner", memberCount: 2, ownerCount: 1 });
    world.members.set(world.key(WS, "usr_owner"), { workspaceId: WS, userId: "usr_owner", role: "owner", joinedAt: "" });
    world.members.set(world.key(WS, "usr_admin"), { workspaceId: WS, userId: "usr_admin", role: "admin", joinedAt: "" });
    await addUser("usr_owner", "owner@example.com");
    await addUser("usr_admin", "admin@example.com");
  });

  it("a mail that could not be sent leaves the invitation standing and says so", async () => {
    mailer.failing = true;
    const sent = await createInvitation(deps, owner, { workspaceId: WS, email: "dev@example.com", role: "developer" }, links);
    expect(sent.mail).toBe("failed");
    expect((await listInvitations(deps, owner, { workspaceId: WS })).map((i) => i.invitationId)).toEqual([sent.invitationId]);
    expect(audit.map((e) => [e.action, e.details?.mail])).toEqual([["invitation.created", "failed"]]);
  });

  it("a refusal by one mail rule gives the other rule's count back and stores nothing", async () => {
    const { perWorkspace, perInviter } = deps.limiters as unknown as Record<string, CountingRateLimiter>;
    for (let i = 0; i < 3; i++) await createInvitation(deps, admin, { workspaceId: WS, email: `p${i}@example.com`, role: "viewer" }, links);
    await expect(createInvitation(deps, admin, { workspaceId: WS, email: "p3@example.com", role: "viewer" }, links)).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/^You have sent 3 invitation mails/),
    });
    expect(perWorkspace!.counts.get(WS)).toBe(3);
    expect(perInviter!.counts.get("usr_admin")).toBe(3);
    expect(world.invitations.size).toBe(3);
    expect(mailer.sent).toHaveLength(3);
  });

  it("an admin can neither invite nor re-send as owner; the owner can", async () => {
    await expect(createInvitation(deps, admin, { workspaceId: WS, email: "o@example.com", role: "owner" }, links)).rejects.toBeInstanceOf(ForbiddenError);
    const sent = await createInvitation(deps, owner, { workspaceId: WS, email: "o@example.com", role: "owner" }, links);
    await expect(resendInvitation(deps, admin, { workspaceId: WS, invitationId: sent.invitationId }, links)).rejects.toMatchObject({ permission: "owners.manage" });
    // Revoking makes no owner: members.manage is enough.
    await revokeInvitation(deps, admin, { workspaceId: WS, invitationId: sent.invitationId });
    expect(world.invitations.size).toBe(0);
  });

  it("the wrong account consumes nothing; an unconfirmed right address is the wrong account too", async () => {
    await createInvitation(deps, owner, { workspaceId: WS, email: "dev@example.com", role: "developer" }, links);
    const token = tokenOf("dev@example.com");
    await addUser("usr_other", "other@example.com");
    await addUser("usr_dev", "dev@example.com", false);
    const wrong = await acceptInvitation(deps, { userId: "usr_other" }, { token }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(WrongAccountError);
    expect((wrong as WrongAccountError).details).toEqual({ signedInAs: "o•••@e•••.com", invited: "d•••@e•••.com" });
    await expect(acceptInvitation(deps, { userId: "usr_dev" }, { token })).rejects.toBeInstanceOf(WrongAccountError);
    await users.markVerified("usr_dev");
    expect(await acceptInvitation(deps, { userId: "usr_dev", client }, { token })).toEqual({ workspaceId: WS, role: "developer" });
    expect(audit.at(-1)).toMatchObject({ action: "invitation.accepted", actor: { userId: "usr_dev", email: "dev@example.com", ip: client.ip } });
  });

  it("expiry: the link, the list and the pending count forget an expired invitation; a re-send revives it", async () => {
    const sent = await createInvitation(deps, owner, { workspaceId: WS, email: "late@example.com", role: "viewer" }, links);
    const first = tokenOf("late@example.com");
    clock.set("2026-12-02T12:00:00.000Z"); // 7 days later: expired at this very second
    await expect(previewInvitation(deps, { token: first }, client)).rejects.toBeInstanceOf(InvitationGoneError);
    expect(await listInvitations(deps, owner, { workspaceId: WS })).toEqual([]);
    const again = await resendInvitation(deps, owner, { workspaceId: WS, invitationId: sent.invitationId }, links);
    expect(again.expiresAt).toBe("2026-12-09T12:00:00.000Z");
    const second = tokenOf("late@example.com");
    expect(second).not.toBe(first);
    expect(world.tokens.has(hashSecret(first))).toBe(false);
    expect((await previewInvitation(deps, { token: second }, client)).email).toBe("late@example.com");
  });

  it("the pending limit counts unexpired invitations only", async () => {
    for (let i = 0; i < 4; i++) await createInvitation(deps, i % 2 ? owner : admin, { workspaceId: WS, email: `q${i}@example.com`, role: "viewer" }, links);
    await expect(createInvitation(deps, owner, { workspaceId: WS, email: "q4@example.com", role: "viewer" }, links)).rejects.toMatchObject({
      code: "limit_reached",
      details: { limit: "invitations" },
    });
    clock.set("2026-12-02T12:00:00.000Z");
    expect((await createInvitation(deps, owner, { workspaceId: WS, email: "q4@example.com", role: "viewer" }, links)).mail).toBe("sent");
  });

  it("the preview is counted per client before any read", async () => {
    const read = world.findToken.bind(world);
    let reads = 0;
    world.findToken = async (hash) => (reads++, read(hash));
    const token = "x".repeat(43);
    for (let i = 0; i < 2; i++) await expect(previewInvitation(deps, { token }, client)).rejects.toBeInstanceOf(InvitationGoneError);
    await expect(previewInvitation(deps, { token }, client)).rejects.toMatchObject({ code: "rate_limited" });
    expect(reads).toBe(2);
  });
});
