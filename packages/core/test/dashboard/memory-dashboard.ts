import { randomBytes } from "node:crypto";
import {
  ConflictError,
  MAX_ACTIVE_KEYS,
  MAX_PROJECTS,
  type ApiKey,
  type BackgroundTasks,
  type Clock,
  type DashboardDeps,
  type FileCatalog,
  type FilePage,
  type FileRecord,
  type IdSource,
  type KeyCatalog,
  type LinkStats,
  type ObjectPurger,
  type PendingDelete,
  type PendingDeletes,
  type Project,
  type ProjectCatalog,
  type ProjectChanges,
  type ProjectView,
  type PurgeTask,
  type StageSecret,
  type UrlSigner,
  type UsageCounter,
  type UsageDay,
  type UsageReader,
  type AuditEntryInput,
  type AuditLog,
  type Membership,
  type Role,
  type UserAccount,
  type Workspace,
  type WorkspaceCatalog,
  personalWorkspaceId,
} from "../../src";

/** In-memory dashboard ports with the DynamoDB/S3 adapters' contracts (workspace-scoped, conditional). */
export class MemoryProjects implements ProjectCatalog {
  readonly items = new Map<string, ProjectView>();
  readonly names = new Map<string, string>();
  private key = (workspaceId: string, projectId: string) => `${workspaceId}/${projectId}`;
  private nameKey = (workspaceId: string, name: string) => `${workspaceId}/${name.toLowerCase()}`;

  async list(workspaceId: string) {
    return [...this.items.values()].filter((p) => p.workspaceId === workspaceId).map((p) => structuredClone(p));
  }
  async get(workspaceId: string, projectId: string) {
    const p = this.items.get(this.key(workspaceId, projectId));
    return p ? structuredClone(p) : undefined;
  }
  async workspaceOf(projectId: string) {
    return [...this.items.values()].find((p) => p.projectId === projectId)?.workspaceId;
  }
  async find(projectId: string) {
    const workspaceId = await this.workspaceOf(projectId);
    return workspaceId ? this.get(workspaceId, projectId) : undefined;
  }
  async create(project: Project) {
    if (this.names.has(this.nameKey(project.workspaceId, project.name))) throw new ConflictError("already_exists", "taken");
    if ((await this.list(project.workspaceId)).length >= MAX_PROJECTS) throw new ConflictError("limit_reached", "limit");
    this.items.set(this.key(project.workspaceId, project.projectId), { ...project, status: "active", fileCount: 0, storageBytes: 0 });
    this.names.set(this.nameKey(project.workspaceId, project.name), project.projectId);
  }
  async update(current: ProjectView, changes: ProjectChanges) {
    const stored = this.items.get(this.key(current.workspaceId, current.projectId));
    if (!stored || stored.status !== "active") return false;
    if (changes.name !== undefined && changes.name.toLowerCase() !== current.name.toLowerCase()) {
      if (this.names.has(this.nameKey(current.workspaceId, changes.name))) throw new ConflictError("already_exists", "taken");
      this.names.delete(this.nameKey(current.workspaceId, current.name));
      this.names.set(this.nameKey(current.workspaceId, changes.name), current.projectId);
    }
    const { retention, ...rest } = changes;
    Object.assign(stored, rest);
    if (retention === null) delete stored.retention;
    else if (retention !== undefined) stored.retention = retention;
    return true;
  }
  async markDeleting(workspaceId: string, projectId: string) {
    const stored = this.items.get(this.key(workspaceId, projectId));
    if (!stored || stored.status !== "active") return false;
    stored.status = "deleting";
    return true;
  }
  async remove(workspaceId: string, projectId: string, name: string) {
    if (this.names.get(this.nameKey(workspaceId, name)) === projectId) this.names.delete(this.nameKey(workspaceId, name));
    this.items.delete(this.key(workspaceId, projectId));
  }
  async recordUpload(workspaceId: string, projectId: string, at: string, bytes = 0) {
    const stored = this.items.get(this.key(workspaceId, projectId));
    if (stored) Object.assign(stored, { fileCount: stored.fileCount + 1, lastUploadAt: at, ...(stored.storageBytes === undefined ? {} : { storageBytes: stored.storageBytes + bytes }) });
  }
  async forgetUpload(workspaceId: string, projectId: string, bytes = 0) {
    const stored = this.items.get(this.key(workspaceId, projectId));
    if (stored) stored.fileCount -= 1;
    if (stored?.storageBytes !== undefined) stored.storageBytes -= bytes;
  }
  async withRetention() {
    return [...this.items.values()].filter((p) => p.retention).map((p) => ({ workspaceId: p.workspaceId, projectId: p.projectId }));
  }
  async forgetRetention() {}
  async countStorage(workspaceId: string, projectId: string, sum: () => Promise<number>) {
    const stored = this.items.get(this.key(workspaceId, projectId));
    if (!stored) return undefined;
    stored.storageBytes ??= await sum();
    return stored.storageBytes;
  }
}

export class MemoryKeys implements KeyCatalog {
  readonly items = new Map<string, ApiKey & { revokedAt?: string }>();
  async get(clientId: string) {
    const k = this.items.get(clientId);
    return k ? structuredClone(k) : undefined;
  }
  async create(key: ApiKey) {
    if (this.items.has(key.clientId)) throw new ConflictError("already_exists", "taken");
    const active = [...this.items.values()].filter((k) => k.projectId === key.projectId && k.status === "active");
    if (active.length >= MAX_ACTIVE_KEYS) throw new ConflictError("limit_reached", "limit");
    this.items.set(key.clientId, structuredClone(key));
  }
  async listByProject(projectId: string) {
    return [...this.items.values()].filter((k) => k.projectId === projectId).map((k) => structuredClone(k));
  }
  async revoke(_workspaceId: string, key: Pick<ApiKey, "clientId" | "projectId">, at: string) {
    const k = this.items.get(key.clientId);
    if (!k || k.projectId !== key.projectId || k.status !== "active") return false;
    Object.assign(k, { status: "revoked", revokedAt: at });
    return true;
  }
  async replaceSecret(key: Pick<ApiKey, "clientId" | "projectId">, secretHash: string) {
    const k = this.items.get(key.clientId);
    if (!k || k.projectId !== key.projectId || k.status !== "active") return false;
    k.secretHash = secretHash;
    return true;
  }
  async remove(clientId: string) {
    this.items.delete(clientId);
  }
}

/**
 * Workspaces and memberships as sign-up leaves them: every user owns their personal workspace
 * (its id derived from theirs, made on first sight as sign-up would have made it); `add` seeds
 * other memberships (setup, as an accepted invitation would), `removeMember` and `remove` are
 * the catalog's own.
 */
export class MemoryWorkspaces implements Pick<WorkspaceCatalog, "membership" | "get" | "listForUser" | "removeMember" | "markDeleting" | "remove"> {
  readonly members = new Map<string, Membership>();
  /** Workspaces whose delete has started. */
  readonly deleting = new Set<string>();
  /** Personal workspaces already made (so one removed is not made again). */
  private readonly made = new Set<string>();
  readonly removed: string[] = [];
  private ensurePersonal(userId: string) {
    const workspaceId = personalWorkspaceId(userId);
    if (this.made.has(workspaceId)) return;
    this.made.add(workspaceId);
    this.add(workspaceId, userId, "owner");
  }
  add(workspaceId: string, userId: string, role: Role) {
    this.members.set(`${workspaceId}/${userId}`, { workspaceId, userId, role, joinedAt: "2026-01-01T00:00:00.000Z" });
  }
  private workspace(workspaceId: string): Workspace {
    const members = [...this.members.values()].filter((m) => m.workspaceId === workspaceId);
    return {
      workspaceId,
      name: workspaceId,
      personal: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      createdBy: members[0]?.userId ?? "",
      memberCount: members.length,
      ownerCount: members.filter((m) => m.role === "owner").length,
      ...(this.deleting.has(workspaceId) ? { deleting: true as const } : {}),
    };
  }
  async membership(workspaceId: string, userId: string) {
    this.ensurePersonal(userId);
    const m = this.members.get(`${workspaceId}/${userId}`);
    return m && !this.deleting.has(workspaceId) ? { ...m } : undefined;
  }
  async get(workspaceId: string) {
    return [...this.members.values()].some((m) => m.workspaceId === workspaceId) ? this.workspace(workspaceId) : undefined;
  }
  async markDeleting(workspaceId: string) {
    if (!(await this.get(workspaceId))) return false;
    this.deleting.add(workspaceId);
    return true;
  }
  async listForUser(userId: string) {
    this.ensurePersonal(userId);
    return [...this.members.values()]
      .filter((m) => m.userId === userId && !this.deleting.has(m.workspaceId))
      .map((m) => ({ workspace: this.workspace(m.workspaceId), membership: { ...m } }));
  }
  async removeMember(workspaceId: string, userId: string) {
    const m = this.members.get(`${workspaceId}/${userId}`);
    if (m?.role === "owner" && this.workspace(workspaceId).ownerCount <= 1) throw new ConflictError("last_owner", "last owner");
    this.members.delete(`${workspaceId}/${userId}`);
  }
  async remove(workspaceId: string) {
    this.removed.push(workspaceId);
    this.deleting.delete(workspaceId);
    for (const [id, m] of this.members) if (m.workspaceId === workspaceId) this.members.delete(id);
  }
}

/** The audit entries recorded, in order. */
export class MemoryAudit implements Pick<AuditLog, "record"> {
  readonly entries: AuditEntryInput[] = [];
  async record(entry: AuditEntryInput) {
    this.entries.push(structuredClone(entry));
  }
}

/** Accounts by id, for the key list's creators. */
export class MemoryUsers {
  readonly emails = new Map<string, string>();
  async get(userId: string) {
    const email = this.emails.get(userId);
    return email ? ({ userId, email, emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z" } as UserAccount) : undefined;
  }
}

export class MemoryFileCatalog implements FileCatalog {
  readonly records = new Map<string, FileRecord>();
  readonly shares = new Set<string>();
  /** Queries made, to show a page costs one bounded query. */
  readonly pageCalls: { projectId: string; limit: number; after?: string }[] = [];
  /** Link settings and counts by share key (absent: a fresh open link); and the batched reads made. */
  readonly stats = new Map<string, Partial<LinkStats>>();
  readonly statsCalls: string[][] = [];

  add(record: FileRecord) {
    this.records.set(record.fileId, structuredClone(record));
    if (record.userKey) this.shares.add(record.userKey);
  }
  async get(fileId: string) {
    const r = this.records.get(fileId);
    return r ? structuredClone(r) : undefined;
  }
  async page(projectId: string, limit: number, after?: string): Promise<FilePage> {
    this.pageCalls.push({ projectId, limit, ...(after ? { after } : {}) });
    const sortKey = (f: FileRecord) => `FILE#${f.createdAt}#${f.fileId}`;
    const all = [...this.records.values()]
      .filter((f) => f.projectId === projectId)
      .sort((a, b) => sortKey(b).localeCompare(sortKey(a)))
      .filter((f) => after === undefined || sortKey(f) < after);
    const items = all.slice(0, limit);
    return all.length > limit ? { items, after: sortKey(items.at(-1)!) } : { items };
  }
  async linkStats(userKeys: string[]) {
    this.statsCalls.push(userKeys);
    const out = new Map<string, LinkStats>();
    for (const k of userKeys) {
      if (this.shares.has(k)) out.set(k, { enabled: true, hasPassword: false, downloads: 0, installs: 0, ...this.stats.get(k) });
    }
    return out;
  }
  async remove(file: FileRecord) {
    await this.removeMany([file]);
  }
  async setPinned(fileId: string, pinned: boolean) {
    const r = this.records.get(fileId);
    if (!r || r.status !== "completed") return undefined;
    if (pinned) r.pinned = true;
    else delete r.pinned;
    return structuredClone(r);
  }
  async removeMany(files: FileRecord[]) {
    for (const f of files) {
      this.records.delete(f.fileId);
      if (f.userKey) this.shares.delete(f.userKey);
    }
  }
}

/** A versioned bucket: key → version ids. purgePrefix deletes at most `pageSize` versions per call. */
export class MemoryBucket implements ObjectPurger {
  readonly versions = new Map<string, string[]>();
  constructor(private readonly pageSize = 1000) {}
  putVersion(key: string) {
    const list = this.versions.get(key) ?? [];
    list.push(`v${list.length + 1}`);
    this.versions.set(key, list);
  }
  count(prefix = "") {
    return [...this.versions.entries()].filter(([k]) => k.startsWith(prefix)).reduce((n, [, v]) => n + v.length, 0);
  }
  async purgePrefix(prefix: string) {
    let deleted = 0;
    for (const [key, list] of this.versions) {
      if (!key.startsWith(prefix)) continue;
      while (list.length > 0 && deleted < this.pageSize) {
        list.pop();
        deleted++;
      }
      if (list.length === 0) this.versions.delete(key);
      if (deleted >= this.pageSize) break;
    }
    return { deleted, more: this.count(prefix) > 0 };
  }
}

export class MemoryUsage implements UsageCounter, UsageReader {
  readonly days_ = new Map<string, UsageDay>();
  private day(clientId: string, at: Date) {
    const day = at.toISOString().slice(0, 10);
    const id = `${clientId}/${day}`;
    let d = this.days_.get(id);
    if (!d) this.days_.set(id, (d = { day, requests: 0, rateLimited: 0, uploads: 0, bytes: 0 }));
    return d;
  }
  /** An accepted request (counted by the key gate's write in DynamoDB: MemoryKeyGate calls this). */
  async request(clientId: string, at: Date) {
    const d = this.day(clientId, at);
    d.requests++;
    d.lastUsedAt = at.toISOString();
  }
  async rateLimited(clientId: string, at: Date) {
    const d = this.day(clientId, at);
    d.requests++;
    d.rateLimited++;
    d.lastUsedAt = at.toISOString();
  }
  async uploadCompleted(clientId: string, at: Date, bytes: number) {
    const d = this.day(clientId, at);
    d.uploads++;
    d.bytes += bytes;
  }
  async days(clientId: string, fromDay: string, toDay: string) {
    return [...this.days_.entries()]
      .filter(([id, d]) => id.startsWith(`${clientId}/`) && d.day >= fromDay && d.day <= toDay)
      .map(([, d]) => structuredClone(d))
      .sort((a, b) => a.day.localeCompare(b.day));
  }
  async lastUsedAt(clientId: string) {
    const mine = [...this.days_.entries()].filter(([id, d]) => id.startsWith(`${clientId}/`) && d.lastUsedAt);
    return mine.map(([, d]) => d.lastUsedAt!).sort().at(-1);
  }
  async removeAll(clientId: string) {
    for (const id of [...this.days_.keys()]) if (id.startsWith(`${clientId}/`)) this.days_.delete(id);
  }
}

export class ManualClock implements Clock {
  constructor(public at = new Date("2026-03-10T12:00:00.000Z")) {}
  now() {
    return new Date(this.at);
  }
  advance(ms: number) {
    this.at = new Date(this.at.getTime() + ms);
  }
}

export function sequentialIds(): IdSource {
  let n = 0;
  const next = () => String(++n).padStart(6, "0");
  return {
    fileId: () => `fil_${next()}`,
    userKey: () => `share${next()}`,
    clientId: () => `hgr_${next()}`,
    clientSecret: () => `hgs_secret_${next()}_abcdefghijklmnop`,
    projectId: () => `prj_${next()}`,
    userId: () => `usr_${next()}`,
  };
}

export const signer: UrlSigner = {
  presignPut: async (input) => `https://store.test/${input.key}?put`,
  presignGet: async (input) => `https://store.test/${input.key}?get`,
};

export class MemoryPendingDeletes implements PendingDeletes {
  readonly items = new Map<string, PendingDelete>();
  /** A project's marker under its id, a workspace's under the workspace's (`ws_…`: never a project id). */
  private id = (task: PurgeTask) => (task.kind === "project" ? task.projectId : task.workspaceId);
  async started(task: PurgeTask, at: string) {
    const old = this.items.get(this.id(task));
    this.items.set(this.id(task), { ...task, startedAt: old?.startedAt ?? at, progressAt: at });
  }
  async progressed(task: PurgeTask, at: string) {
    const old = this.items.get(this.id(task));
    if (old) old.progressAt = at;
  }
  async finished(task: PurgeTask) {
    this.items.delete(this.id(task));
  }
  async stale(progressBefore: string, limit: number) {
    return [...this.items.values()]
      .filter((p) => p.progressAt < progressBefore)
      .sort((a, b) => a.progressAt.localeCompare(b.progressAt))
      .slice(0, limit)
      .map((p) => ({ ...p }));
  }
}

export class RecordedTasks implements BackgroundTasks {
  readonly scheduled: PurgeTask[] = [];
  async schedule(task: PurgeTask) {
    this.scheduled.push(task);
  }
}

/** A stage secret of random bytes, one per world (as one per stage). */
export class FixedSecret implements StageSecret {
  readonly value = new Uint8Array(randomBytes(32));
  async bytes() {
    return this.value;
  }
}

export function memoryDashboard(options: { bucketPageSize?: number } = {}) {
  const workspaces = new MemoryWorkspaces();
  const deps = {
    projects: new MemoryProjects(),
    keys: new MemoryKeys(),
    files: new MemoryFileCatalog(),
    usage: new MemoryUsage(),
    objects: new MemoryBucket(options.bucketPageSize),
    signer,
    background: new RecordedTasks(),
    pendingDeletes: new MemoryPendingDeletes(),
    clock: new ManualClock(),
    ids: sequentialIds(),
    cursorSecret: new FixedSecret(),
    workspaces,
    users: new MemoryUsers(),
    audit: new MemoryAudit(),
  } satisfies DashboardDeps;
  // Account deletion's view of the same workspaces.
  return { ...deps, memberships: workspaces };
}

export const links = { publicBaseUrl: "https://hangar.test", shareBaseUrl: "https://share.test" };

/** A stored file of a project, as complete leaves it (package and icon objects, share item). */
export function storedFile(
  deps: ReturnType<typeof memoryDashboard>,
  projectId: string,
  n: number,
  overrides: Partial<FileRecord> = {},
): FileRecord {
  const fileId = `fil_${String(n).padStart(8, "0")}`;
  const key = `uploads/${projectId}/${fileId}/App.ipa`;
  const record: FileRecord = {
    fileId,
    key,
    projectId,
    clientId: "hgr_uploader",
    fileName: "App.ipa",
    fileType: "application/octet-stream",
    fileSize: 1000 + n,
    status: "completed",
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    completedAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000 + 5000).toISOString(),
    userKey: `share${String(n).padStart(7, "0")}`,
    metadata: { appName: "App", bundleId: "com.example.app", version: "1.0", buildNumber: String(n), platform: "ios" },
    iconKey: `uploads/${projectId}/${fileId}/icon.png`,
    ...overrides,
  };
  deps.files.add(record);
  deps.objects.putVersion(record.key);
  deps.objects.putVersion(record.key);
  if (record.iconKey) deps.objects.putVersion(record.iconKey);
  return record;
}
