import {
  admits,
  hashSecret,
  rateDecision,
  rateWindow,
  type RateLimitSettings,
  type ApiKey,
  type ApiKeyGate,
  type ApiKeyRepository,
  type KeyAdmission,
  type CompletedFile,
  type FileRecord,
  type FileRepository,
  type IdSource,
  type InspectedPackage,
  type ObjectStore,
  type PresignGetInput,
  type PresignPutInput,
  type PackageInspector,
  type RateLimitDecision,
  type RateLimiter,
  type SharedFile,
  type StoredPackage,
  type UrlSigner,
  type PasswordHasher,
} from "../../src";
import type { DownloadCount, EndedLink, ShareLink, ShareLinks } from "../../src/links";

/** In-memory port implementations with the same contracts as the DynamoDB/S3 adapters. */
export class MemoryFiles implements FileRepository {
  readonly records = new Map<string, FileRecord>();
  readonly shares = new Map<string, SharedFile>();
  /** Lets a test act as a concurrent writer right before our conditional write lands. */
  beforeWrite?: () => void;

  async createPending(record: FileRecord) {
    this.records.set(record.fileId, structuredClone(record));
  }
  async get(fileId: string) {
    const r = this.records.get(fileId);
    return r ? structuredClone(r) : undefined;
  }
  async complete(file: CompletedFile) {
    this.beforeWrite?.();
    if (this.records.get(file.fileId)?.status !== "pending") return false;
    this.records.set(file.fileId, structuredClone(file));
    const { userKey, fileId, projectId, key, fileName, fileSize, metadata, completedAt, iconKey, versionId, iconVersionId } = file;
    this.shares.set(userKey, {
      userKey, fileId, projectId, key, fileName, fileSize, metadata, completedAt,
      ...(versionId ? { versionId } : {}), ...(iconKey ? { iconKey } : {}), ...(iconVersionId ? { iconVersionId } : {}),
    });
    return true;
  }
  async reject(fileId: string, rejection: { reason: string; message: string }) {
    this.beforeWrite?.();
    const r = this.records.get(fileId);
    if (r?.status !== "pending") return false;
    this.records.set(fileId, { ...r, status: "rejected", rejection });
    return true;
  }
  async getShared(userKey: string) {
    return this.shares.get(userKey);
  }
  async deletePending(fileId: string) {
    if (this.records.get(fileId)?.status !== "pending") return false;
    return this.records.delete(fileId);
  }
}

/** Both sides of storage in one fake: a signer and the bucket it signs for. */
export class MemoryStorage implements UrlSigner, ObjectStore {
  readonly objects = new Map<string, { size: number; contentType: string }>();
  readonly presigned: unknown[] = [];
  async presignPut(input: PresignPutInput) {
    this.presigned.push(input);
    return `https://store.test/${input.key}?signed`;
  }
  async presignGet(input: PresignGetInput) {
    return `https://store.test/${input.key}?get&name=${encodeURIComponent(input.downloadName)}`;
  }
  async head(key: string) {
    const o = this.objects.get(key);
    return o ? { size: o.size } : undefined;
  }
  /** What head answers (subclasses' versions too), with zeroed bytes of the object's size. */
  async read(key: string, maxBytes: number) {
    const head = await this.head(key);
    return head && { ...head, ...(head.size <= maxBytes ? { body: new Uint8Array(head.size) } : {}) };
  }
  async put(key: string, body: Uint8Array, contentType: string) {
    this.objects.set(key, { size: body.length, contentType });
    return {};
  }
  async delete(key: string) {
    this.objects.delete(key);
  }
  async listVersions(key: string) {
    return this.objects.has(key) ? [{ versionId: "null" }] : [];
  }
}

export class FakeInspector implements PackageInspector {
  calls: StoredPackage[] = [];
  constructor(public outcome: InspectedPackage | Error) {}
  async inspect(pkg: StoredPackage) {
    this.calls.push(pkg);
    if (this.outcome instanceof Error) throw this.outcome;
    return this.outcome;
  }
}

export class MemoryApiKeys implements ApiKeyRepository {
  readonly keys = new Map<string, ApiKey>();
  async get(clientId: string) {
    return this.keys.get(clientId);
  }
  async create(key: ApiKey) {
    this.keys.set(key.clientId, key);
  }
}

/**
 * The DynamoDB gate's contract with Maps for a table: nothing is counted unless the secret's hash
 * is an active key's; then the key's rate window (CountingRateLimiter, per client id) and, when
 * admitted, its usage are counted in the same step, as the one conditional UpdateItem does.
 */
export class MemoryApiKeyGate implements ApiKeyGate {
  admissions = 0;
  constructor(
    readonly apiKeys: MemoryApiKeys,
    readonly rateLimiter: CountingRateLimiter,
    readonly usage?: { request(clientId: string, at: Date): Promise<unknown> },
  ) {}
  async admit(clientId: string, secretHash: string, now: Date): Promise<KeyAdmission> {
    this.admissions++;
    const apiKey = this.apiKeys.keys.get(clientId);
    if (!apiKey || apiKey.secretHash !== secretHash || apiKey.status !== "active") return { apiKey };
    const decision = await this.rateLimiter.hit(clientId, now);
    if (decision.allowed) await this.usage?.request(clientId, now);
    return { apiKey, decision };
  }
}

/**
 * The DynamoDB limiter with a Map for a table: the window, the admission rule and the answer come
 * from the same fixed-window functions the adapter uses (one counter per subject and window), so
 * a wrong rule fails unit tests, not only integration tests. Only the storage is fake.
 */
export class CountingRateLimiter implements RateLimiter {
  /** Hits admitted per subject in the current window (of the last `hit`). */
  readonly counts = new Map<string, number>();
  private readonly windows = new Map<string, number>();
  refunds = 0;
  readonly settings: RateLimitSettings;
  constructor(limit = 3, windowSeconds = 60) {
    this.settings = { limit, windowSeconds };
  }
  get limit() {
    return this.settings.limit;
  }
  /** `cost` as the DynamoDB limiter's ADD: admitted while the count before it is under the limit. */
  async hit(subject: string, now: Date, cost = 1): Promise<RateLimitDecision> {
    const window = rateWindow(this.settings, now);
    // A count a test set directly belongs to the current window; a later window starts at zero.
    const seen = this.windows.get(subject);
    if (seen !== undefined && seen !== window.start) this.counts.delete(subject);
    this.windows.set(subject, window.start);
    const count = this.counts.get(subject) ?? 0;
    if (!admits(this.settings, count)) return rateDecision(this.settings, window, undefined);
    this.counts.set(subject, count + cost);
    return rateDecision(this.settings, window, count + cost);
  }
  async refund(subject: string, now: Date) {
    this.refunds++;
    const seen = this.windows.get(subject);
    if (seen !== undefined && seen !== rateWindow(this.settings, now).start) return;
    const count = this.counts.get(subject) ?? 0;
    if (count > 0) this.counts.set(subject, count - 1);
  }
  async clear(subject: string) {
    this.counts.delete(subject);
  }
}

export function fixedClock(iso = "2026-11-21T23:00:00.000Z") {
  let now = new Date(iso);
  return { now: () => new Date(now), set: (d: string) => (now = new Date(d)) };
}

export function sequentialIds(): IdSource {
  let n = 0;
  const next = (p: string) => `${p}${String(++n).padStart(4, "0")}`;
  return {
    fileId: () => next("fil_"),
    userKey: () => next("UK"),
    clientId: () => next("hgr_"),
    clientSecret: () => next("hgs_secret_secret_"),
    projectId: () => next("prj_"),
    userId: () => next("usr_"),
  };
}

export const SECRET = "hgs_this-is-a-test-secret-of-enough-length";

export function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    clientId: "hgr_client1",
    secretHash: hashSecret(SECRET),
    name: "ci",
    projectId: "prj_A",
    userId: "usr_1",
    status: "active",
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

/** `hash:<password>` hashes; counts every verify, so a test sees whether the hash ran. */
export class PlainHasher implements PasswordHasher {
  verifies = 0;
  async hash(password: string) {
    return `hash:${password}`;
  }
  async verify(password: string, stored: string | undefined) {
    this.verifies++;
    return { valid: stored === `hash:${password}`, needsRehash: false };
  }
}

/**
 * The visitor side of the share items (DynamoShareLinks' find and counters) with a Map: the same
 * admission rule (on, and below the cap) and the same reasons for a refusal. Built from a
 * MemoryFiles, a completed file's share item appears with default settings the first time it is read.
 */
export class MemoryShareLinks implements Pick<ShareLinks, "find" | "countDownload" | "countInstall"> {
  readonly links = new Map<string, ShareLink | EndedLink>();
  constructor(private readonly files?: Pick<MemoryFiles, "shares">) {}
  add(file: SharedFile, settings: Partial<ShareLink> = {}): ShareLink {
    const link: ShareLink = { ...structuredClone(file), enabled: true, downloads: 0, installs: 0, days: {}, ...settings };
    this.links.set(file.userKey, link);
    return link;
  }
  private live(userKey: string): ShareLink | EndedLink | undefined {
    const stored = this.links.get(userKey);
    if (stored) return stored;
    const file = this.files?.shares.get(userKey);
    return file ? this.add(file) : undefined;
  }
  async find(userKey: string) {
    const found = this.live(userKey);
    return found ? structuredClone(found) : undefined;
  }
  async countDownload(userKey: string, day: string): Promise<DownloadCount> {
    const link = this.live(userKey);
    if (!link) return "removed";
    if ("ended" in link) return link.ended;
    if (!link.enabled) return "disabled";
    if (link.maxDownloads !== undefined && link.downloads >= link.maxDownloads) return "capped";
    link.downloads++;
    link.days[day] = { downloads: (link.days[day]?.downloads ?? 0) + 1, installs: link.days[day]?.installs ?? 0 };
    return "counted";
  }
  async countInstall(userKey: string, day: string) {
    const link = this.live(userKey);
    if (!link || "ended" in link || !link.enabled) return;
    link.installs++;
    link.days[day] = { downloads: link.days[day]?.downloads ?? 0, installs: (link.days[day]?.installs ?? 0) + 1 };
  }
}
