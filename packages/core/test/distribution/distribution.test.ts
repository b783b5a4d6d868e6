import { describe, expect, it } from "vitest";
import { GroupNotFoundError } from "../../src/tester-groups/tester-group-errors";
import { DependencyError, type FileRecord, type MailMessage, type RateLimiter, type TesterGroupDirectory } from "../../src";
import {
  buildMail,
  deliverBuildMail,
  planDistribution,
  sendPlannedBuild,
  unsubscribeSubjectOf,
  unsubscribeToken,
  type BuildMailDeps,
  type DistributionRecord,
  type DistributionStore,
  type NewRecipient,
  type Recipient,
} from "../../src/distribution";
import type { RecipientStatus } from "../../src/distribution/distribution.schema";
import type { WebhookEvent } from "../../src/webhooks/webhook-events";

/** The store's rules in memory: conditional put of a recipient, claim / settle / release under a lease. */
class MemoryDistributions implements DistributionStore {
  recipients = new Map<string, Recipient>();
  distributions = new Map<string, DistributionRecord>();
  unsubscribes = new Set<string>();
  suppressions = new Set<string>();
  installLinks = new Map<string, string>();
  private k = (fileId: string, email: string) => `${fileId}|${email}`;

  async addRecipients(list: readonly NewRecipient[], hashes: ReadonlyMap<string, string>) {
    const written = new Set<string>();
    for (const r of list) {
      if (this.recipients.has(this.k(r.fileId, r.email))) continue;
      this.recipients.set(this.k(r.fileId, r.email), { ...r, attempts: 0 });
      this.installLinks.set(hashes.get(r.email)!, r.email);
      written.add(r.email);
    }
    return written;
  }
  async existingRecipients(fileId: string, emails: readonly string[]) {
    return new Map(emails.flatMap((e) => (this.recipients.has(this.k(fileId, e)) ? [[e, this.recipients.get(this.k(fileId, e))!.status] as [string, RecipientStatus]] : [])));
  }
  async putDistribution(record: DistributionRecord) {
    this.distributions.set(record.distributionId, record);
  }
  async getDistribution(_fileId: string, id: string) {
    return this.distributions.get(id);
  }
  async listDistributions() {
    return [...this.distributions.values()];
  }
  async listRecipients() {
    return [...this.recipients.values()];
  }
  async unsubscribed(projectId: string, emails: readonly string[]) {
    return new Set(emails.filter((e) => this.unsubscribes.has(`${projectId}|${e}`)));
  }
  async suppressed(emails: readonly string[]) {
    return new Set(emails.filter((e) => this.suppressions.has(e)));
  }
  async unsubscribe(projectId: string, email: string) {
    this.unsubscribes.add(`${projectId}|${email}`);
  }
  async claim(fileId: string, email: string, now: string, leaseUntil: string) {
    const r = this.recipients.get(this.k(fileId, email));
    if (!r || !(r.status === "queued" || (r.status === "sending" && r.leaseUntil! < now))) return undefined;
    Object.assign(r, { status: "sending", leaseUntil, attempts: r.attempts + 1 });
    return { ...r };
  }
  async settle(fileId: string, email: string, leaseUntil: string, status: RecipientStatus, at: string) {
    const r = this.recipients.get(this.k(fileId, email));
    if (!r || r.status !== "sending" || r.leaseUntil !== leaseUntil) return false;
    Object.assign(r, { status, ...(status === "sent" ? { sentAt: at } : {}) });
    delete r.leaseUntil;
    return true;
  }
  async release(fileId: string, email: string, leaseUntil: string) {
    const r = this.recipients.get(this.k(fileId, email));
    if (r && r.status === "sending" && r.leaseUntil === leaseUntil) {
      r.status = "queued";
      delete r.leaseUntil;
    }
  }
  async defaultGroups() {
    return [];
  }
  async setDefaultGroups() {
    return true;
  }
}

const groups = (byName: Record<string, { id: string; emails: string[] }>): TesterGroupDirectory => ({
  resolve: async (_ws, refs) => {
    const found = refs.map((ref) => Object.entries(byName).find(([name, g]) => g.id === ref || name.toLowerCase() === ref.toLowerCase()));
    return {
      groups: found.flatMap((f) => (f ? [{ groupId: f[1].id, workspaceId: "ws_1", name: f[0] }] : [])),
      missing: refs.filter((_r, i) => !found[i]),
    };
  },
  addresses: async (id) => Object.values(byName).find((g) => g.id === id)?.emails ?? [],
});

const secret = (bytes: string) => ({ bytes: async () => new TextEncoder().encode(bytes) });
const clock = (iso: string) => {
  let now = new Date(iso);
  return { now: () => now, set: (next: string) => (now = new Date(next)) };
};

/** A limiter that admits at most `limit` in all (one window). */
function capLimiter(limit: number): RateLimiter & { count: number } {
  const l = {
    count: 0,
    hit: async (_s: string, _n: Date, cost = 1) => {
      if (l.count + cost > limit) return { allowed: false, state: { limit, remaining: 0, resetAt: 0 } };
      l.count += cost;
      return { allowed: true, state: { limit, remaining: limit - l.count, resetAt: 0 } };
    },
    refund: async () => undefined,
    clear: async () => undefined,
  };
  return l;
}

const bases = { publicBaseUrl: "https://hangar.example", shareBaseUrl: "https://share.example" };
const target = { fileId: "fil_1", projectId: "prj_1", workspaceId: "ws_1", workspaceName: "Acme", createdBy: { clientId: "hgr_1" }, fileName: "App.ipa", bases };

function sendDeps(store: MemoryDistributions, cap = capLimiter(2000)) {
  const queued: { fileId: string; email: string }[] = [];
  let n = 0;
  return {
    queued,
    cap,
    deps: {
      distributions: store,
      queue: { enqueue: async (jobs: readonly { fileId: string; email: string }[]) => void queued.push(...jobs) },
      installLinkSecret: secret("install"),
      buildMailCap: cap,
      audit: { record: async () => undefined },
      clock: clock("2026-11-26T10:00:00.000Z"),
      newDistributionId: () => `dst_${String(++n).padStart(16, "0")}`,
    },
  };
}

describe("planning and sending a distribution", () => {
  const directory = groups({ QA: { id: "grp_qa", emails: ["a@x.test", "both@x.test"] }, Beta: { id: "grp_beta", emails: ["b@x.test", "both@x.test"] } });

  it("dedupes a tester of two groups and an explicit address, and names missing refs", async () => {
    const plan = await planDistribution({ groups: directory }, "ws_1", { groups: ["qa", "grp_beta"], testers: [" Both@X.test "], notify: true });
    expect([...plan.addresses.keys()].sort()).toEqual(["a@x.test", "b@x.test", "both@x.test"]);
    expect(plan.addresses.get("both@x.test")).toEqual(["QA", "Beta"]);
    await expect(planDistribution({ groups: directory }, "ws_1", { groups: ["qa", "qe"], testers: [], notify: true })).rejects.toMatchObject({ constructor: GroupNotFoundError, code: "group_not_found", details: { missing: ["qe"] } });
    // A default group deleted since is skipped, not an error.
    const withDefaults = await planDistribution({ groups: directory }, "ws_1", { groups: [], testers: [], notify: true }, ["grp_gone", "grp_qa"]);
    expect(withDefaults.groups.map((g) => g.groupId)).toEqual(["grp_qa"]);
  });

  it("writes one copy per tester per build: a second distribution queues nothing new", async () => {
    const store = new MemoryDistributions();
    const { deps, queued } = sendDeps(store);
    const plan = await planDistribution({ groups: directory }, "ws_1", { groups: ["QA", "Beta"], testers: [], notify: true });
    expect(await sendPlannedBuild(deps, target, plan)).toMatchObject({ recipients: 3, queued: 3, capped: 0 });
    expect(store.installLinks.size).toBe(3);
    const again = await sendPlannedBuild(deps, target, plan);
    expect(again).toMatchObject({ recipients: 3, queued: 0 });
    // The copies still queued (their mails not sent yet) are queued again: harmless, the claim decides.
    expect(queued.length).toBe(6);
  });

  it("unsubscribed, suppressed, silent and capped copies get no mail, and the answer counts the capped", async () => {
    const store = new MemoryDistributions();
    store.unsubscribes.add("prj_1|a@x.test");
    store.suppressions.add("b@x.test");
    const { deps, queued } = sendDeps(store, capLimiter(1));
    const many = groups({ All: { id: "grp_all", emails: ["a@x.test", "b@x.test", "c@x.test", "d@x.test", "e@x.test"] } });
    const answer = await sendPlannedBuild(deps, target, await planDistribution({ groups: many }, "ws_1", { groups: ["All"], testers: [], notify: true }));
    expect(answer).toMatchObject({ recipients: 5, queued: 1, capped: 2 });
    expect(Object.fromEntries([...store.recipients.values()].map((r) => [r.email, r.status]))).toEqual({
      "a@x.test": "unsubscribed",
      "b@x.test": "suppressed",
      "c@x.test": "queued",
      "d@x.test": "capped",
      "e@x.test": "capped",
    });
    expect(queued.map((j) => j.email)).toEqual(["c@x.test"]);
    const silent = await sendPlannedBuild(deps, { ...target, fileId: "fil_2" }, await planDistribution({ groups: many }, "ws_1", { groups: ["All"], testers: [], notify: false }));
    expect(silent).toMatchObject({ recipients: 5, queued: 0, capped: 0 });
  });
});

describe("the build.distributed event", () => {
  const file = {
    fileId: "fil_1", key: "k", projectId: "prj_1", clientId: "hgr_1", fileName: "App.ipa", fileType: "x", fileSize: 9, status: "completed", createdAt: "2026-11-26T09:00:00.000Z",
    completedAt: "2026-11-26T09:01:00.000Z", userKey: "u1", buildContext: { branch: "release/2.0", commit: "abc123" },
    metadata: { appName: "App", bundleId: "b", version: "2.0", buildNumber: "7", platform: "ios" } as never,
  } as FileRecord;

  it("goes out once per distribution, repeats included, with the build's links, the groups and everyone it was sent to", async () => {
    const store = new MemoryDistributions();
    const { deps } = sendDeps(store);
    const published: WebhookEvent[] = [];
    const withEvents = { ...deps, events: { publish: async (e: WebhookEvent) => void published.push(e) } };
    const plan = await planDistribution({ groups: groups({ QA: { id: "grp_qa", emails: ["a@x.test", "b@x.test"] } }) }, "ws_1", { groups: ["QA"], testers: [], notify: true, message: "Try it" });
    const first = await sendPlannedBuild(withEvents, { ...target, file }, plan);
    await sendPlannedBuild(withEvents, { ...target, file }, plan);
    expect(published).toHaveLength(2);
    expect(published[0]).toMatchObject({
      type: "build.distributed",
      workspaceId: "ws_1",
      projectId: "prj_1",
      branch: "release/2.0",
      data: {
        build: { fileId: "fil_1", version: "2.0", branch: "release/2.0", links: { share: `${bases.shareBaseUrl}/share/u1` } },
        distribution: { distributionId: first.distributionId, groups: [{ groupId: "grp_qa", name: "QA" }], recipients: 2, message: "Try it" },
        actor: { kind: "apiKey", clientId: "hgr_1" },
      },
    });
    // A re-send reaches nobody new, and still says the build was sent to both.
    expect(published[1]!.data).toMatchObject({ distribution: { recipients: 2 } });
  });

  it("names the member who sent it, and is not published without the build's record", async () => {
    const { deps } = sendDeps(new MemoryDistributions());
    const published: WebhookEvent[] = [];
    const withEvents = { ...deps, events: { publish: async (e: WebhookEvent) => void published.push(e) } };
    const plan = await planDistribution({ groups: groups({}) }, "ws_1", { groups: [], testers: ["t@x.test"], notify: false });
    await sendPlannedBuild(withEvents, { ...target, createdBy: { userId: "usr_1", email: null }, actor: { userId: "usr_1" }, file }, plan);
    await sendPlannedBuild(withEvents, { ...target, fileId: "fil_2" }, plan);
    expect(published.map((e) => e.data)).toEqual([expect.objectContaining({ actor: { kind: "user", userId: "usr_1", email: null } })]);
  });
});

describe("the sender's claim", () => {
  async function world(mailer: { send(m: MailMessage): Promise<void> }) {
    const store = new MemoryDistributions();
    const { deps } = sendDeps(store);
    const plan = await planDistribution({ groups: groups({}) }, "ws_1", { groups: [], testers: ["t@x.test"], notify: true, message: "Try <b>it</b>" });
    await sendPlannedBuild(deps, target, plan);
    const file: FileRecord = {
      fileId: "fil_1", key: "k", projectId: "prj_1", clientId: "hgr_1", fileName: "App.ipa", fileType: "x", fileSize: 1, status: "completed", createdAt: "", userKey: "u1", iconKey: "i",
      metadata: { appName: "App", bundleId: "b", version: "1.0", buildNumber: "7", platform: "ios" } as never,
    };
    const c = clock("2026-11-26T10:00:00.000Z");
    const sender: BuildMailDeps = {
      distributions: store,
      files: { get: async () => file },
      mailer,
      suppressions: { get: async () => undefined },
      installLinkSecret: secret("install"),
      unsubscribeSecret: secret("unsub"),
      clock: c,
      settings: { leaseSeconds: 60, maxAttempts: 3 },
    };
    return { store, sender, clock: c, job: { fileId: "fil_1", email: "t@x.test", ...bases } };
  }

  it("sends once whatever the number of deliveries of the job, concurrent or not", async () => {
    const sent: MailMessage[] = [];
    const { store, sender, job } = await world({ send: async (m) => void sent.push(m) });
    const outcomes = await Promise.all([deliverBuildMail(sender, job), deliverBuildMail(sender, job), deliverBuildMail(sender, job)]);
    expect(outcomes.sort()).toEqual(["sent", "skipped", "skipped"]);
    expect(await deliverBuildMail(sender, job)).toBe("skipped");
    expect(sent).toHaveLength(1);
    expect([...store.recipients.values()][0]).toMatchObject({ status: "sent", sentAt: "2026-11-26T10:00:00.000Z" });
    expect(sent[0]!.text).toContain("https://share.example/install/");
    expect(sent[0]!.html).toContain('src="https://share.example/share/u1/icon.png"');
    expect(sent[0]!.headers!["List-Unsubscribe"]).toMatch(/^<https:\/\/hangar\.example\/unsubscribe\/[\w-]+\.[\w-]{43}>$/);
  });

  it("a failed send releases the claim and is retried; a live lease is not taken over, a lapsed one is; past the attempts it is failed", async () => {
    let down = true;
    const sent: MailMessage[] = [];
    const { store, sender, job, clock: c } = await world({
      send: async (m) => {
        if (down) throw new DependencyError("mail", "down");
        sent.push(m);
      },
    });
    await expect(deliverBuildMail(sender, job)).rejects.toBeInstanceOf(DependencyError);
    expect([...store.recipients.values()][0]!.status).toBe("queued");
    down = false;
    // A sender that died after its claim: the copy stays `sending` under a live lease.
    await store.claim("fil_1", "t@x.test", "2026-11-26T10:00:00.000Z", "2026-11-26T10:01:00.000Z");
    expect(await deliverBuildMail(sender, job)).toBe("skipped");
    c.set("2026-11-26T10:01:00.001Z");
    expect(await deliverBuildMail(sender, job)).toBe("sent");
    expect(sent).toHaveLength(1);

    const failing = await world({ send: async () => Promise.reject(new DependencyError("mail", "down")) });
    for (let i = 0; i < 3; i++) await expect(deliverBuildMail(failing.sender, failing.job)).rejects.toBeInstanceOf(DependencyError);
    expect(await deliverBuildMail(failing.sender, failing.job)).toBe("failed");
    expect([...failing.store.recipients.values()][0]!.status).toBe("failed");
  });

  it("checks the unsubscribe again at send time", async () => {
    const sent: MailMessage[] = [];
    const { store, sender, job } = await world({ send: async (m) => void sent.push(m) });
    await store.unsubscribe("prj_1", "t@x.test");
    expect(await deliverBuildMail(sender, job)).toBe("unsubscribed");
    expect(sent).toHaveLength(0);
  });
});

describe("the build mail", () => {
  const input = {
    to: "t@x.test",
    appName: `<img src=x onerror=alert(1)>\r\nBcc: evil@x.test`,
    version: "1.0",
    build: "7",
    platform: "android",
    releaseNotes: "Fixed <script>",
    message: `"quoted" & <b>bold</b>`,
    iconUrl: null,
    installUrl: "https://share.example/install/abc",
    portalUrl: "https://hangar.example/apps",
    unsubscribeUrl: "https://hangar.example/unsubscribe/t.m",
    workspaceName: "Acme <Inc>",
    viaGroups: ["QA"],
  };

  it("escapes every value in the HTML, keeps the subject on one line, and carries RFC 8058 headers", () => {
    const mail = buildMail(input);
    expect(mail.html).not.toMatch(/<img src=x|<script>|<b>bold/);
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(mail.html).toContain("&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toContain("1.0 (7) for Android");
    expect(mail.text).toContain("“QA” of Acme <Inc>");
    expect(mail.text).toContain("https://share.example/install/abc");
    expect(mail.headers).toEqual({ "List-Unsubscribe": "<https://hangar.example/unsubscribe/t.m>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
  });
});

describe("unsubscribe tokens", () => {
  const key = new TextEncoder().encode("k".repeat(32));
  it("round-trip, and refuse any change or another secret", () => {
    const token = unsubscribeToken(key, { workspaceId: "ws_1", projectId: "prj_1", email: "t@x.test" });
    expect(unsubscribeSubjectOf(key, token)).toEqual({ workspaceId: "ws_1", projectId: "prj_1", email: "t@x.test" });
    expect(unsubscribeSubjectOf(new TextEncoder().encode("other"), token)).toBeUndefined();
    const [payload, mac] = token.split(".");
    const forged = Buffer.from("ws_1\nprj_2\nt@x.test").toString("base64url");
    expect(unsubscribeSubjectOf(key, `${forged}.${mac}`)).toBeUndefined();
    // The MAC's first character (its last carries base64url padding bits, which decode the same).
    expect(unsubscribeSubjectOf(key, `${payload}.${mac![0] === "A" ? "B" : "A"}${mac!.slice(1)}`)).toBeUndefined();
    for (const bad of ["", ".", "x", `${payload}`, `${payload}.${mac}.x`]) expect(unsubscribeSubjectOf(key, bad)).toBeUndefined();
  });
});
