import { describe, expect, it } from "vitest";
import type { WebhookEvent } from "../../src/webhooks/webhook-events";
import type { BackgroundTasks, FileRecord } from "../../src";
import { InvalidTokenError, NotSignedInError } from "../../src/accounts";
import { defaultRateRules } from "../../src/limits/rate-rules";
import {
  authenticateTester,
  defaultTesterAccessSettings,
  endTesterSession,
  getTesterApp,
  JoinLinkGoneError,
  listTesterApps,
  previewJoin,
  requestJoin,
  requestTesterSignIn,
  runTesterMailTask,
  startTesterSession,
  testerJoinMail,
  testerMailTaskOf,
  type JoinLinks,
  type SentBuild,
  type TesterAccessDeps,
  type TesterMailTask,
  type TesterSessionRecord,
} from "../../src/tester-access";
import { hashSecret } from "../../src/ids/random-ids";
import { MemorySuppressions, MemoryTokens, RecordingMailer } from "../accounts/account-fakes";
import { CountingRateLimiter, fixedClock } from "../support/fakes";

const KNOWN = "tester@example.com";
const LINK = "L".repeat(43);
const client = { ip: "203.0.113.9" };
const links = { publicBaseUrl: "https://hangar.example" };

class MemoryTesterSessions {
  readonly items = new Map<string, TesterSessionRecord>();
  async create(s: TesterSessionRecord) {
    this.items.set(`${s.email}\n${s.sessionId}`, { ...s });
  }
  async get(email: string, sessionId: string) {
    return this.items.get(`${email}\n${sessionId}`);
  }
  async delete(email: string, sessionId: string) {
    this.items.delete(`${email}\n${sessionId}`);
  }
}

/** Keeps the tasks for the test to run (or not): what the request itself did is then all there is to see. */
class HeldBackground implements BackgroundTasks<TesterMailTask> {
  readonly tasks: TesterMailTask[] = [];
  async schedule(task: TesterMailTask) {
    this.tasks.push(task);
  }
}

function world(overrides: Partial<TesterAccessDeps> = {}) {
  const clock = fixedClock("2026-11-26T12:00:00.000Z");
  const tokens = new MemoryTokens();
  const sessions = new MemoryTesterSessions();
  const mailer = new RecordingMailer();
  const background = new HeldBackground();
  const joined: { token: string; email: string }[] = [];
  let open = true;
  const joinLinks: JoinLinks = {
    preview: async (token) => (token === LINK ? { groupId: "grp_1", linkId: "lnk_1", groupName: "QA <team>", workspaceName: "Acme", expiresAt: null, open } : undefined),
    join: async (input) => {
      if (input.token !== LINK || !open) throw new JoinLinkGoneError();
      joined.push(input);
      return { groupId: "grp_1", groupName: "QA <team>", workspaceId: "ws_1", workspaceName: "Acme", joined: true };
    },
  };
  let n = 0;
  const deps: TesterAccessDeps = {
    sessions,
    tokens,
    testers: { isKnown: async (email) => email === KNOWN },
    portal: { sentBuilds: async () => [] },
    joinLinks,
    mailer,
    suppressions: new MemorySuppressions(),
    limiters: {
      signInPerClient: new CountingRateLimiter(defaultRateRules.testerSignIn.limit),
      mailPerAddress: new CountingRateLimiter(defaultRateRules.testerMailPerAddress.limit),
      joinPerClient: new CountingRateLimiter(defaultRateRules.joinPerClient.limit),
      joinPerLink: new CountingRateLimiter(defaultRateRules.joinPerLink.limit),
    },
    background,
    signer: { presignGet: async ({ key }) => `https://bucket.example/${key}?signed` },
    installLinkSecret: { bytes: async () => new Uint8Array(32).fill(7) },
    clock,
    secret: () => `S${String(++n).padStart(4, "0")}`.padEnd(43, "x"),
    settings: defaultTesterAccessSettings,
    ...overrides,
  };
  return { deps, clock, tokens, sessions, mailer, background, joined, close: () => (open = false) };
}

const tokenIn = (text: string) => /tester\/sign-in\?token=([A-Za-z0-9_-]{43})/.exec(text)![1]!;

describe("magic-link requests", () => {
  it("does the same work in the request for a known and an unknown address: two limits, one task", async () => {
    const w = world();
    const calls: string[] = [];
    const spy = (name: string, limiter: CountingRateLimiter) => {
      const hit = limiter.hit.bind(limiter);
      limiter.hit = async (subject, now, cost) => {
        calls.push(`${name}:${subject.replace(/[0-9a-f]{32}/, "<hash>")}`);
        return hit(subject, now, cost);
      };
    };
    spy("client", w.deps.limiters.signInPerClient as CountingRateLimiter);
    spy("address", w.deps.limiters.mailPerAddress as CountingRateLimiter);
    let looked = 0;
    w.deps.testers = { isKnown: async () => (looked++, true) };

    await requestTesterSignIn(w.deps, { email: KNOWN }, client, links);
    const known = [...calls];
    calls.length = 0;
    await requestTesterSignIn(w.deps, { email: "stranger@example.com" }, client, links);
    expect(calls).toEqual(known);
    expect(known).toEqual(["client:203.0.113.9", "address:tester-mail:<hash>"]);
    // Nothing looked the address up, wrote a token or sent a mail before the answer.
    expect(looked).toBe(0);
    expect(w.tokens.items.size).toBe(0);
    expect(w.mailer.sent).toEqual([]);
    expect(w.background.tasks.map((t) => t.kind)).toEqual(["tester-sign-in", "tester-sign-in"]);
  });

  it("the background step mails a single-use 15-minute link to a known tester and nothing to anyone else", async () => {
    const w = world();
    await runTesterMailTask(w.deps, { kind: "tester-sign-in", email: "stranger@example.com", publicBaseUrl: links.publicBaseUrl });
    expect(w.mailer.sent).toEqual([]);
    expect(w.tokens.items.size).toBe(0);

    await runTesterMailTask(w.deps, { kind: "tester-sign-in", email: KNOWN, publicBaseUrl: links.publicBaseUrl });
    const [mail] = w.mailer.sent;
    expect(mail!.to).toBe(KNOWN);
    expect(mail!.text).toContain("https://hangar.example/tester/sign-in?token=");
    expect(mail!.text).toContain("15 minutes");
    expect(mail!.text).not.toMatch(/unsubscribe/i);
    const token = tokenIn(mail!.text);
    const [stored] = [...w.tokens.items.values()];
    expect(stored).toMatchObject({ tokenHash: hashSecret(token), purpose: "tester_sign_in", email: KNOWN, expiresAt: Date.parse("2026-11-26T12:15:00Z") / 1000 });
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("a suppressed address gets no mail", async () => {
    const w = world();
    await (w.deps.suppressions as MemorySuppressions).record(KNOWN, "bounce", "2026-11-01T00:00:00Z");
    await runTesterMailTask(w.deps, { kind: "tester-sign-in", email: KNOWN, publicBaseUrl: links.publicBaseUrl });
    expect(w.mailer.sent).toEqual([]);
  });

  it("the sixth request for one address within the hour is refused before anything is scheduled", async () => {
    const w = world();
    for (let i = 0; i < 5; i++) await requestTesterSignIn(w.deps, { email: KNOWN }, { ip: `198.51.100.${i}` }, links);
    await expect(requestTesterSignIn(w.deps, { email: KNOWN }, { ip: "198.51.100.99" }, links)).rejects.toMatchObject({ retryAfterSeconds: expect.any(Number) });
    expect(w.background.tasks).toHaveLength(5);
  });

  it("checks what a background invocation carries like any input", () => {
    const ok = { kind: "tester-sign-in", email: KNOWN, publicBaseUrl: "https://hangar.example" };
    expect(testerMailTaskOf(ok)).toEqual(ok);
    expect(testerMailTaskOf({ ...ok, kind: "tester-join", joinToken: LINK })).toEqual({ ...ok, kind: "tester-join", joinToken: LINK });
    expect(testerMailTaskOf({ ...ok, kind: "tester-join" })).toBeUndefined();
    expect(testerMailTaskOf({ ...ok, publicBaseUrl: "https://evil.example/phish" })).toBeUndefined();
    expect(testerMailTaskOf({ ...ok, email: "x".repeat(300) })).toBeUndefined();
    expect(testerMailTaskOf(null)).toBeUndefined();
  });
});

describe("tester sessions", () => {
  async function signedIn(w: ReturnType<typeof world>) {
    await runTesterMailTask(w.deps, { kind: "tester-sign-in", email: KNOWN, publicBaseUrl: links.publicBaseUrl });
    return startTesterSession(w.deps, { token: tokenIn(w.mailer.sent.at(-1)!.text) });
  }

  it("a link signs in once, for 30 days; the cookie authenticates until sign-out", async () => {
    const w = world();
    const token = (await runTesterMailTask(w.deps, { kind: "tester-sign-in", email: KNOWN, publicBaseUrl: links.publicBaseUrl }), tokenIn(w.mailer.sent[0]!.text));
    const started = await startTesterSession(w.deps, { token });
    expect(started.answer).toEqual({ email: KNOWN, expiresAt: "2026-12-26T12:00:00.000Z", joined: null });
    expect(started.maxAgeSeconds).toBe(30 * 24 * 3600);
    await expect(startTesterSession(w.deps, { token })).rejects.toBeInstanceOf(InvalidTokenError);

    const me = await authenticateTester(w.deps, started.cookieValue);
    expect(me.email).toBe(KNOWN);
    // The store holds the token's hash only.
    expect(JSON.stringify([...w.sessions.items.values()])).not.toContain(started.cookieValue.split(".")[1]);
    await endTesterSession(w.deps, started.cookieValue);
    await expect(authenticateTester(w.deps, started.cookieValue)).rejects.toBeInstanceOf(NotSignedInError);
  });

  it("an expired link is invalid; an ended session is refused and removed", async () => {
    const w = world();
    await runTesterMailTask(w.deps, { kind: "tester-sign-in", email: KNOWN, publicBaseUrl: links.publicBaseUrl });
    w.clock.set("2026-11-26T12:15:00.000Z");
    await expect(startTesterSession(w.deps, { token: tokenIn(w.mailer.sent[0]!.text) })).rejects.toBeInstanceOf(InvalidTokenError);

    w.clock.set("2026-11-26T12:00:00.000Z");
    const started = await signedIn(w);
    w.clock.set("2026-12-26T12:00:00.000Z");
    await expect(authenticateTester(w.deps, started.cookieValue)).rejects.toBeInstanceOf(NotSignedInError);
    expect(w.sessions.items.size).toBe(0);
  });

  it.each([undefined, "", "x", "a.b", `${Buffer.from(KNOWN).toString("base64url")}.short`, `${Buffer.from("no-at").toString("base64url")}.${"x".repeat(43)}`, `${Buffer.from(KNOWN).toString("base64url")}=.${"x".repeat(43)}`])(
    "refuses the cookie %j without a session",
    async (value) => {
      await expect(authenticateTester(world().deps, value)).rejects.toBeInstanceOf(NotSignedInError);
    },
  );

  it("an account's token is not a tester's", async () => {
    const w = world();
    await w.tokens.create({ tokenHash: hashSecret("R".repeat(43)), purpose: "reset_password", userId: "usr_1", createdAt: "", expiresAt: 2e9 });
    await expect(startTesterSession(w.deps, { token: "R".repeat(43) })).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe("join flow", () => {
  it("a join request is 202 work alike for any link; the mail goes out only while the link is open", async () => {
    const w = world();
    await requestJoin(w.deps, { token: LINK, email: "new@example.com" }, client, links);
    await requestJoin(w.deps, { token: "Z".repeat(43), email: "new2@example.com" }, client, links);
    expect(w.mailer.sent).toEqual([]);
    for (const task of w.background.tasks) await runTesterMailTask(w.deps, task);
    expect(w.mailer.sent.map((m) => m.to)).toEqual(["new@example.com"]);
    const [mail] = w.mailer.sent;
    // The group's name is someone's typing: escaped in the HTML part.
    expect(mail!.html).toContain("QA &lt;team&gt;");
    expect(mail!.html).not.toContain("QA <team>");
    expect([...w.tokens.items.values()][0]).toMatchObject({ purpose: "tester_join", email: "new@example.com", groupId: "grp_1", linkId: "lnk_1", joinToken: LINK });

    const started = await startTesterSession(w.deps, { token: tokenIn(mail!.text) });
    expect(started.answer.joined).toEqual({ groupId: "grp_1", groupName: "QA <team>", workspaceName: "Acme" });
    expect(w.joined).toEqual([{ token: LINK, email: "new@example.com", now: w.clock.now() }]);
  });

  it("a confirmed join that adds the address publishes tester.joined (via invite_link); one that changes nothing publishes nothing", async () => {
    const published: WebhookEvent[] = [];
    const w = world({ events: { publish: async (e) => void published.push(e) } });
    await runTesterMailTask(w.deps, { kind: "tester-join", email: "new@example.com", publicBaseUrl: links.publicBaseUrl, joinToken: LINK });
    await startTesterSession(w.deps, { token: tokenIn(w.mailer.sent[0]!.text) });
    expect(published).toEqual([
      {
        type: "tester.joined",
        occurredAt: "2026-11-26T12:00:00.000Z",
        workspaceId: "ws_1",
        projectId: null,
        branch: null,
        data: { workspaceId: "ws_1", tester: { email: "new@example.com" }, group: { groupId: "grp_1", name: "QA <team>" }, via: "invite_link" },
      },
    ]);
    // Already in the group (a second confirmation mail): signed in, nothing announced.
    const join = w.deps.joinLinks.join;
    w.deps.joinLinks = { ...w.deps.joinLinks, join: async (input) => ({ ...(await join(input)), joined: false }) };
    await runTesterMailTask(w.deps, { kind: "tester-join", email: "new@example.com", publicBaseUrl: links.publicBaseUrl, joinToken: LINK });
    expect((await startTesterSession(w.deps, { token: tokenIn(w.mailer.sent[1]!.text) })).answer.joined).toMatchObject({ groupId: "grp_1" });
    expect(published).toHaveLength(1);
  });

  it("a link that closed before the confirmation is 410 and signs nobody in", async () => {
    const w = world();
    await runTesterMailTask(w.deps, { kind: "tester-join", email: "late@example.com", publicBaseUrl: links.publicBaseUrl, joinToken: LINK });
    w.close();
    await expect(startTesterSession(w.deps, { token: tokenIn(w.mailer.sent[0]!.text) })).rejects.toBeInstanceOf(JoinLinkGoneError);
    expect(w.sessions.items.size).toBe(0);
    await expect(previewJoin(w.deps, { token: LINK }, client)).rejects.toBeInstanceOf(JoinLinkGoneError);
  });

  it("the mail subject keeps the group's name out of its first words", () => {
    expect(testerJoinMail("a@example.com", "https://x/y", 15, { groupName: "Hangar security team", workspaceName: "W" }).subject).toMatch(/^Hangar: confirm/);
  });
});

describe("the portal", () => {
  const file = (fileId: string, platform: "ios" | "android", completedAt: string, extra: Partial<FileRecord> = {}): FileRecord => ({
    fileId,
    key: `uploads/${fileId}`,
    projectId: "prj_1",
    clientId: "c",
    fileName: `${fileId}.bin`,
    fileType: "application/octet-stream",
    fileSize: 10,
    status: "completed",
    createdAt: completedAt,
    completedAt,
    metadata: { appName: "App", bundleId: "com.example", version: "1.0", buildNumber: fileId, platform },
    ...extra,
  });
  const sent = (f: FileRecord, extra: Partial<SentBuild> = {}): SentBuild => ({
    sentAt: "2026-11-26T00:00:00Z",
    file: f,
    project: { projectId: f.projectId, name: "App", status: "active" },
    workspace: { workspaceId: "ws_1", name: "Acme" },
    message: null,
    ...extra,
  });

  it("newest upload first, the newest per platform, dead builds left out, personal install links", async () => {
    const rows = [
      sent(file("f_old_ios", "ios", "2026-11-20T00:00:00Z")),
      sent(file("f_new_ios", "ios", "2026-11-25T00:00:00Z", { iconKey: "uploads/icon" })),
      sent(file("f_android", "android", "2026-11-22T00:00:00Z")),
      sent(file("f_expired", "android", "2026-11-24T00:00:00Z"), { linkExpiresAt: "2026-11-25T00:00:00Z" }),
      sent(file("f_pending", "ios", "2026-11-26T00:00:00Z", { status: "pending" })),
      sent(file("f_deleting", "ios", "2026-11-26T00:00:00Z", { projectId: "prj_2" }), { project: { projectId: "prj_2", name: "Gone", status: "deleting" } }),
    ];
    const w = world({ portal: { sentBuilds: async (_email, projectId) => rows.filter((r) => !projectId || r.project.projectId === projectId) } });
    const tester = { sessionId: "s", email: KNOWN, expiresAt: "2026-12-26T00:00:00Z" };
    const apps = await listTesterApps(w.deps, tester, { shareBaseUrl: "https://share.example", publicBaseUrl: "https://hangar.example" });
    expect(apps.items).toHaveLength(1);
    expect(apps.items[0]!.latest.ios!.fileId).toBe("f_new_ios");
    expect(apps.items[0]!.latest.android!.fileId).toBe("f_android");
    expect(apps.items[0]!.latest.ios!.iconUrl).toBe("https://bucket.example/uploads/icon?signed");
    expect(apps.items[0]!.latest.ios!.installUrl).toMatch(/^https:\/\/share\.example\/install\/[A-Za-z0-9_-]{43}$/);

    const detail = await getTesterApp(w.deps, tester, { projectId: "prj_1" }, { shareBaseUrl: "https://share.example", publicBaseUrl: "https://hangar.example" });
    expect(detail.builds.map((b) => b.fileId)).toEqual(["f_new_ios", "f_android", "f_old_ios"]);
    await expect(getTesterApp(w.deps, tester, { projectId: "prj_2" }, { shareBaseUrl: "https://share.example", publicBaseUrl: "https://hangar.example" })).rejects.toMatchObject({ code: "app_not_found" });
    // Another tester's link to the same build is another link.
    const other = await listTesterApps(w.deps, { ...tester, email: "other@example.com" }, { shareBaseUrl: "https://share.example", publicBaseUrl: "https://hangar.example" });
    expect(other.items[0]!.latest.ios!.installUrl).not.toBe(apps.items[0]!.latest.ios!.installUrl);
  });
});
