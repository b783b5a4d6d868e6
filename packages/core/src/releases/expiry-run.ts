import { sendMail } from "../accounts/send-mail";
import type { Clock, FileCatalog, FileRecord, Mailer, MailSuppression, StageSecret, UserRepository, WorkspaceCatalog } from "../ports";
import type { ExpiryWarningStore, WatchedProject } from "../ports/expiry-warning-store.port";
import { workspaceAccess } from "../workspaces/access";
import type { Actor } from "../workspaces/actor";
import { expiryMail, expiryUnsubscribeToken, expiryUnsubscribeUrl, expiryUnsubscribeUserOf } from "./expiry-mail";
import type { ExpiringAnswer, ExpiringItem } from "./expiring.schema";
import { expiryWarningsDue, type ExpiringBuild, type ExpiryKind } from "./expiry-warnings";
import { latestBuilds, newestWindow } from "./latest-builds";

/**
 * The daily expiry-warning run and the dashboard's list of what is about to expire (issue 24
 * item 4, docs/release-safety.md "Expiry warnings").
 *
 * **Which builds.** A profile that expires on a build nobody installs any more is noise; the
 * builds people install are each app's newest. So: per project, the newest completed build of
 * each platform and bundle id in the latest-build window (latest-builds.ts: the project's 100
 * newest files, the diff's window, so a CI that uploads other apps in between still finds it),
 * read in one Query. An older build's profile or link is not warned about: the newest build is
 * what testers get from the app page and the portal.
 */
export { LATEST_WINDOW, latestBuilds } from "./latest-builds";

/** The dashboard lists profiles expiring within this many days (the widest mail threshold)… */
export const EXPIRING_PROFILE_DAYS = 30;
/** …and share links expiring within one day (the link's only threshold). */
export const EXPIRING_LINK_DAYS = 1;

const DAY_MS = 24 * 60 * 60 * 1000;
const WARNED_PROFILE_KINDS = new Set(["ad-hoc", "development", "enterprise"]);

/** A project's latest builds: newest completed per platform and bundle id, newest first. */
const latestBuildsOf = async (files: Pick<FileCatalog, "page">, projectId: string) => latestBuilds(await newestWindow(files, projectId));

interface Provisioning {
  kind?: string;
  expiresAt?: string;
}
const provisioningOf = (file: FileRecord): Provisioning => {
  const p = file.metadata?.provisioning;
  if (!p || typeof p !== "object") return {};
  const r = p as Record<string, unknown>;
  return {
    ...(typeof r.kind === "string" ? { kind: r.kind } : {}),
    ...(typeof r.expiresAt === "string" ? { expiresAt: r.expiresAt } : {}),
  };
};

const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);

/** What the rule reads of each latest build: its profile, and its share link's expiry when the link is on. */
async function expiringOf(files: Pick<FileCatalog, "linkStats">, builds: FileRecord[]): Promise<ExpiringBuild[]> {
  const stats = await files.linkStats(builds.flatMap((b) => (b.userKey ? [b.userKey] : [])));
  return builds.map((b) => {
    const profile = provisioningOf(b);
    const link = b.userKey ? stats.get(b.userKey) : undefined;
    return {
      fileId: b.fileId,
      ...(profile.kind ? { profileKind: profile.kind } : {}),
      ...(profile.expiresAt ? { profileExpiresAt: profile.expiresAt } : {}),
      // A link that is off already serves nobody: nothing to warn about.
      ...(link?.enabled && link.expiresAt ? { linkExpiresAt: link.expiresAt } : {}),
    };
  });
}

export interface ExpiryRunDeps {
  store: ExpiryWarningStore;
  files: Pick<FileCatalog, "page" | "linkStats">;
  workspaces: Pick<WorkspaceCatalog, "get" | "listMembers">;
  users: Pick<UserRepository, "get">;
  mailer: Mailer;
  suppressions: { get(email: string): Promise<MailSuppression | undefined> };
  /** The `unsubscribe` stage secret (the build mail's), for the mail's opt-out link. */
  unsubscribeSecret: StageSecret;
  clock: Clock;
  /** The dashboard's address (HANGAR_PUBLIC_URL); empty: the mail names the page instead of linking it. */
  publicBaseUrl: string;
}

/** What one run did, for the log: counts only (never an address). */
export interface ExpiryRunOutcome {
  projects: number;
  builds: number;
  warnings: number;
  mailed: number;
  skippedRecipients: number;
  failed: number;
}

interface Recipient {
  userId: string;
  email: string;
  role: "owner" | "admin";
}

/**
 * Mails the warnings due at `now` (the clock is the caller's: the scheduled handler passes the
 * time of the run, tests any day they like). For each project's latest builds, `expiryWarningsDue`
 * decides; each warning is claimed by a conditional put of its marker BEFORE any mail, so a run
 * retried, or two runs at once, mail nobody twice. Recipients: the workspace's owners and admins
 * (members who can act on a build: upload a new one, change the link) minus those who opted out.
 * A warning no mail of which went out (the mail service was down) is released for the next run.
 */
export async function sendExpiryWarnings(deps: ExpiryRunDeps, now: Date): Promise<ExpiryRunOutcome> {
  const outcome: ExpiryRunOutcome = { projects: 0, builds: 0, warnings: 0, mailed: 0, skippedRecipients: 0, failed: 0 };
  const recipientsOf = new Map<string, Promise<{ name: string; people: Recipient[] } | undefined>>();
  const secret = deps.publicBaseUrl ? await deps.unsubscribeSecret.bytes() : undefined;
  const base = deps.publicBaseUrl.replace(/\/+$/, "");

  for await (const page of deps.store.projects()) {
    for (const project of page) {
      outcome.projects += 1;
      const builds = await latestBuildsOf(deps.files, project.projectId);
      if (builds.length === 0) continue;
      outcome.builds += builds.length;
      const [expiring, settled] = await Promise.all([expiringOf(deps.files, builds), deps.store.settled(builds.map((b) => b.fileId))]);
      const due = expiryWarningsDue(expiring, settled, now);
      for (const warning of due) {
        const at = now.toISOString();
        if (!(await deps.store.claim(warning.fileId, warning.kind, warning.thresholdDays, at))) continue;
        const wider = warning.settles.filter((t) => t !== warning.thresholdDays);
        if (wider.length > 0) await deps.store.settle(warning.fileId, warning.kind, wider, at);
        outcome.warnings += 1;
        if (!recipientsOf.has(project.workspaceId)) recipientsOf.set(project.workspaceId, recipients(deps, project.workspaceId));
        const workspace = await recipientsOf.get(project.workspaceId)!;
        const file = builds.find((b) => b.fileId === warning.fileId)!;
        let sent = 0;
        let failed = 0;
        for (const person of workspace?.people ?? []) {
          const mail = expiryMail({
            to: person.email,
            workspaceName: workspace!.name,
            role: person.role,
            projectName: project.name,
            appName: str(file.metadata?.appName) ?? file.fileName,
            version: str(file.metadata?.version),
            build: str(file.metadata?.buildNumber),
            platform: str(file.metadata?.platform),
            kind: warning.kind,
            profileKind: provisioningOf(file).kind ?? null,
            expiresAt: warning.expiresAt,
            daysLeft: warning.daysLeft,
            buildUrl: base ? `${base}/files/${encodeURIComponent(file.fileId)}` : null,
            unsubscribeUrl: secret ? expiryUnsubscribeUrl(base, expiryUnsubscribeToken(secret, person.userId)) : null,
          });
          const result = await sendMail(deps, mail);
          if (result === "sent") sent += 1;
          else if (result === "failed") failed += 1;
          else outcome.skippedRecipients += 1;
        }
        outcome.mailed += sent;
        outcome.failed += failed;
        if (sent === 0 && failed > 0) await deps.store.release(warning.fileId, warning.kind, warning.thresholdDays);
      }
    }
  }
  return outcome;
}

/** The owners and admins of a workspace who still want these mails, with their current address. */
async function recipients(deps: ExpiryRunDeps, workspaceId: string): Promise<{ name: string; people: Recipient[] } | undefined> {
  const workspace = await deps.workspaces.get(workspaceId);
  if (!workspace || workspace.deleting) return undefined;
  const members = (await deps.workspaces.listMembers(workspaceId)).filter((m) => m.role === "owner" || m.role === "admin");
  const optedOut = await deps.store.optedOut(members.map((m) => m.userId));
  const people = await Promise.all(
    members
      .filter((m) => !optedOut.has(m.userId))
      .map(async (m): Promise<Recipient | undefined> => {
        const user = await deps.users.get(m.userId);
        return user ? { userId: m.userId, email: user.email, role: m.role as "owner" | "admin" } : undefined;
      }),
  );
  return { name: workspace.name, people: people.filter((p): p is Recipient => p !== undefined) };
}

// --- The dashboard's banner: GET /api/workspaces/{workspaceId}/expiring


export interface ExpiringDeps {
  workspaces: Pick<WorkspaceCatalog, "membership"> & Partial<Pick<WorkspaceCatalog, "touch">>;
  projects: { list(workspaceId: string): Promise<{ projectId: string; name: string; status?: string }[]> };
  files: Pick<FileCatalog, "page" | "linkStats">;
  clock: Clock;
}

/**
 * The workspace's latest builds whose profile (ad-hoc, development, enterprise) expires within 30
 * days or whose share link expires within 1 day, soonest first: what the mails are about, for
 * every member who can see the workspace (`workspace.read`). Things already expired are left out:
 * the share page and the file page say so themselves.
 */
export async function listExpiring(deps: ExpiringDeps, actor: Actor, input: { workspaceId: string }): Promise<ExpiringAnswer> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "workspace.read");
  const now = deps.clock.now().getTime();
  const projects = (await deps.projects.list(input.workspaceId)).filter((p) => p.status !== "deleting");
  const perProject = await Promise.all(
    projects.map(async (project) => {
      const builds = await latestBuildsOf(deps.files, project.projectId);
      if (builds.length === 0) return [];
      const expiring = await expiringOf(deps.files, builds);
      const items: ExpiringItem[] = [];
      expiring.forEach((e, i) => {
        const file = builds[i]!;
        const item = (kind: ExpiryKind, expiresAt: string, withinDays: number) => {
          const at = Date.parse(expiresAt);
          if (!Number.isFinite(at) || at <= now || at - now > withinDays * DAY_MS) return;
          items.push({
            fileId: file.fileId,
            projectId: project.projectId,
            projectName: project.name,
            platform: str(file.metadata?.platform),
            version: str(file.metadata?.version),
            build: str(file.metadata?.buildNumber),
            kind,
            expiresAt,
            daysLeft: Math.ceil((at - now) / DAY_MS),
          });
        };
        if (e.profileKind && WARNED_PROFILE_KINDS.has(e.profileKind) && e.profileExpiresAt) item("profile", e.profileExpiresAt, EXPIRING_PROFILE_DAYS);
        if (e.linkExpiresAt) item("link", e.linkExpiresAt, EXPIRING_LINK_DAYS);
      });
      return items;
    }),
  );
  const items = perProject.flat().sort((a, b) => (a.expiresAt < b.expiresAt ? -1 : a.expiresAt > b.expiresAt ? 1 : 0));
  return { items };
}

// --- The mail's one-click unsubscribe: GET/POST /unsubscribe/expiry/{token}

export interface ExpiryUnsubscribeDeps {
  secret: StageSecret;
  store: Pick<ExpiryWarningStore, "optOut">;
  users: Pick<UserRepository, "get">;
  clock: Clock;
}

/** The address the page names; undefined for a token that names nobody (404 page). */
export async function expiryUnsubscribePreview(deps: ExpiryUnsubscribeDeps, token: string): Promise<{ email: string } | undefined> {
  const userId = expiryUnsubscribeUserOf(await deps.secret.bytes(), token);
  if (!userId) return undefined;
  const user = await deps.users.get(userId);
  return user ? { email: user.email } : undefined;
}

/** Records the opt-out (idempotent); undefined for a bad token or a user that is gone. */
export async function expiryUnsubscribe(deps: ExpiryUnsubscribeDeps, token: string): Promise<{ email: string } | undefined> {
  const userId = expiryUnsubscribeUserOf(await deps.secret.bytes(), token);
  if (!userId) return undefined;
  const user = await deps.users.get(userId);
  if (!user) return undefined;
  await deps.store.optOut(userId, deps.clock.now().toISOString());
  return { email: user.email };
}

export type { WatchedProject };
