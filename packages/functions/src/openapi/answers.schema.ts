/**
 * What the API answers, as zod schemas: the response bodies of route-output.ts, turned into the
 * OpenAPI document's JSON Schemas by zod 4's `toJSONSchema` (openapi-document.ts), as the request
 * schemas of route-input/ are.
 *
 * The use cases build their answers as TypeScript types (core's dashboard-answers.ts,
 * workspace-answers.ts, the `*-schema` modules); these schemas describe the same shapes for
 * clients. They are written here rather than derived from the types because TypeScript types do
 * not exist at run time, and kept honest by test/openapi-drift.test.ts, which validates real
 * answers of the local stack against the published document: a field added to an answer and not
 * here fails it (objects are closed: `additionalProperties: false`), as a field removed does.
 *
 * Each schema carries an `id` in its meta: the document lists it once under
 * `components.schemas` and refers to it by `$ref`, so clients generate one type per shape.
 */
import { AUDIT_ACTIONS } from "@hangar/core/audit-actions";
import { CHANGE_KINDS } from "@hangar/core/build-diff";
import { ACTIONS, ROLES } from "@hangar/core/roles";
import { WEBHOOK_EVENTS, WEBHOOK_TYPES } from "@hangar/core/webhooks-schema";
import * as z from "zod/mini";

const str = () => z.string();
const int = () => z.int();
const nullable = <T extends z.ZodMiniType>(schema: T) => z.nullable(schema);
/** An ISO 8601 UTC time with milliseconds, as every answer writes times. */
const time = () => z.string().check(z.meta({ format: "date-time" }));
const url = () => z.string().check(z.meta({ format: "uri" }));
const named = <T extends z.ZodMiniType>(id: string, schema: T, description?: string) =>
  schema.check(z.meta({ id, ...(description ? { description } : {}) }));

export const ErrorBody = named(
  "Error",
  z.object({
    error: z.looseObject({
      code: str().check(z.meta({ description: "For programs: stable, snake_case." })),
      message: str().check(z.meta({ description: "For people." })),
      requestId: str().check(z.meta({ description: "The same id as the X-Request-Id header; finds the request in the logs." })),
    }),
  }),
  "Every error: `code` for programs, `message` for people, `requestId`, and the error's details (`fields`, `permission`, `missing`, …) beside them.",
);

// ---- uploads -------------------------------------------------------------------------------

export const PresignAnswer = named(
  "PresignAnswer",
  z.object({ fileId: str(), key: str(), uploadUrl: url(), expireAt: time() }),
  "PUT the package's bytes to `uploadUrl` (Content-Type application/octet-stream, exactly fileSize bytes) before `expireAt`.",
);
const PartUrl = named("PartUrl", z.object({ partNumber: int(), uploadUrl: url() }));
export const StartMultipartAnswer = named(
  "StartMultipartAnswer",
  z.object({ fileId: str(), key: str(), uploadId: str(), partSize: int(), partCount: int(), parts: z.array(PartUrl), expireAt: time() }),
);
export const PartUrlsAnswer = named("PartUrlsAnswer", z.object({ parts: z.array(PartUrl), expireAt: time() }));

export const PackageMetadata = named(
  "PackageMetadata",
  z.looseObject({ appName: str(), bundleId: str(), version: str() }),
  "What the extractor read from the package (README \"metadata\"): always appName, bundleId and version; platform, buildNumber, minOs, permissions, provisioning, signing, icon, warnings… where present.",
);

export const DistributionAnswer = named(
  "DistributionAnswer",
  z.object({ distributionId: str(), recipients: int(), queued: int(), capped: int() }),
);

const ChangeSeverity = z.enum(["info", "warning", "danger"]);
export const BuildChange = named(
  "BuildChange",
  z.object({
    kind: z.enum(CHANGE_KINDS),
    severity: ChangeSeverity,
    message: str(),
    from: z.optional(z.union([str(), z.number(), z.null()])),
    to: z.optional(z.union([str(), z.number(), z.null()])),
  }),
);
export const BuildDiff = named(
  "BuildDiff",
  z.object({
    previous: z.object({ fileId: str(), version: str(), buildNumber: nullable(str()) }),
    changes: z.array(BuildChange),
  }),
);

export const CompleteAnswer = named(
  "CompleteAnswer",
  z.object({
    message: str(),
    fileId: str(),
    userKey: str(),
    downloadUrl: url(),
    shareUrl: url(),
    metadata: PackageMetadata,
    distribution: z.optional(DistributionAnswer),
    // Issue 24 (diffgate): what changed since the previous build; null for a first build.
    diff: z.optional(nullable(BuildDiff)),
  }),
);

// ---- accounts ------------------------------------------------------------------------------

export const MessageAnswer = named("MessageAnswer", z.object({ message: str() }));
export const Account = named(
  "Account",
  z.object({
    userId: str(),
    email: str(),
    emailVerified: z.boolean(),
    displayName: z.optional(str()),
    organization: z.optional(str()),
    createdAt: time(),
    mailSuppressed: z.optional(z.object({ reason: z.enum(["bounce", "complaint"]), since: time() })),
  }),
);
export const SignInAnswer = named("SignInAnswer", z.object({ account: Account }));
const SessionView = named(
  "Session",
  z.object({ sessionId: str(), current: z.boolean(), createdAt: time(), lastSeenAt: time(), userAgent: z.optional(str()), ip: z.optional(str()) }),
);
export const Sessions = named("Sessions", z.object({ items: z.array(SessionView) }));
export const Deleting = named("Deleting", z.object({ status: z.literal("deleting") }), "The rest is purged in the background.");

// ---- projects, keys, files -----------------------------------------------------------------

const Retention = z.object({ keepLatest: nullable(int()), maxAgeDays: nullable(int()) });
export const Project = named(
  "Project",
  z.object({
    projectId: str(),
    workspaceId: str(),
    name: str(),
    description: str(),
    color: str(),
    colorHex: str(),
    status: z.enum(["active", "deleting"]),
    fileCount: int(),
    lastUploadAt: nullable(time()),
    createdAt: time(),
    // Issue 24 (retention): the project's policy (null when none) and the bytes of its builds.
    retention: nullable(Retention),
    // Counted by the deploy's storage migration; still null for a project it could not count (being
    // deleted, or its count lost three races with uploads), until its first read counts it
    // (docs/release-safety.md "Storage").
    storageBytes: nullable(z.number()),
  }),
);
const pageOf = <T extends z.ZodMiniType>(id: string, item: T) => named(id, z.object({ items: z.array(item), nextCursor: nullable(str()) }));
export const ProjectPage = pageOf("ProjectPage", Project);

const KeyFields = {
  clientId: str(),
  name: str(),
  projectId: str(),
  projectName: str(),
  workspaceId: str(),
  createdBy: z.object({ userId: str(), email: nullable(str()) }),
  status: z.enum(["active", "revoked"]),
  createdAt: time(),
  lastUsedAt: nullable(time()),
};
export const Key = named("Key", z.object(KeyFields), "An API key as lists show it: never its secret.");
export const CreatedKey = named("CreatedKey", z.object({ ...KeyFields, clientSecret: str() }), "The only answer that carries the secret (shown once).");
export const KeyPage = pageOf("KeyPage", Key);
export const RegeneratedKey = named("RegeneratedKey", z.object({ clientId: str(), clientSecret: str() }));
const UsageCounts = { accepted: int(), rateLimited: int(), uploads: int(), bytes: z.number() };
export const KeyUsage = named(
  "KeyUsage",
  z.object({
    clientId: str(),
    from: str(),
    to: str(),
    days: z.array(z.object({ day: str(), ...UsageCounts })),
    totals: z.object(UsageCounts),
    lastUsedAt: nullable(time()),
  }),
);

const LinkState = z.enum(["open", "disabled", "expired", "capped"]);
const LinkSummaryFields = { state: LinkState, hasPassword: z.boolean(), downloads: int(), installs: int() };
const LinkSummary = named("LinkSummary", z.object(LinkSummaryFields));
export const LinkView = named(
  "ShareLink",
  z.object({
    ...LinkSummaryFields,
    userKey: str(),
    shareUrl: url(),
    enabled: z.boolean(),
    expiresAt: nullable(time()),
    maxDownloads: nullable(int()),
    daily: z.array(z.object({ day: str(), downloads: int(), installs: int() })),
  }),
  "A share link's settings (never its password), counts and their last 30 UTC days.",
);
export const RegeneratedLink = named("RegeneratedLink", z.object({ userKey: str(), shareUrl: url(), downloadUrl: url() }));

const FileFields = {
  fileId: str(),
  projectId: str(),
  fileName: str(),
  fileSize: z.number(),
  status: z.enum(["pending", "completed", "rejected"]),
  rejection: nullable(z.object({ reason: str(), message: str() })),
  createdAt: time(),
  completedAt: nullable(time()),
  appName: nullable(str()),
  version: nullable(str()),
  buildNumber: nullable(str()),
  platform: nullable(str()),
  bundleId: nullable(str()),
  installBlocker: nullable(z.enum(["no_profile", "app_store_signed", "profile_expired", "no_devices"])),
  iconUrl: nullable(url()),
  uploadedBy: z.object({ clientId: nullable(str()), name: nullable(str()) }),
  shareUrl: nullable(url()),
  downloadUrl: nullable(url()),
  // Issue 24: pinned builds survive retention (retention); the most severe change since the previous build (diffgate).
  pinned: z.boolean(),
  diffSeverity: nullable(ChangeSeverity),
};
export const FileSummary = named("FileSummary", z.object({ ...FileFields, share: nullable(LinkSummary) }));
export const FilePage = pageOf("FilePage", FileSummary);
export const FileDetail = named(
  "FileDetail",
  z.object({
    ...FileFields,
    share: nullable(LinkView),
    fileType: str(),
    projectName: str(),
    metadata: nullable(z.record(str(), z.unknown())),
    expiresAt: nullable(int()),
    releaseNotes: nullable(str()),
    branch: nullable(str()),
    commit: nullable(str()),
    ciUrl: nullable(str()),
  }),
);
export const DiffAnswer = named("DiffAnswer", z.object({ fileId: str(), diff: nullable(BuildDiff) }));

// ---- workspaces, members, invitations, audit -----------------------------------------------

const Role = z.enum(ROLES);
export const Workspace = named(
  "Workspace",
  z.object({
    workspaceId: str(),
    name: str(),
    personal: z.boolean(),
    role: Role,
    permissions: z.array(z.enum(ACTIONS)),
    memberCount: int(),
    createdAt: time(),
  }),
);
export const Workspaces = named("Workspaces", z.object({ items: z.array(Workspace) }));
export const WorkspaceDeleted = named("WorkspaceDeleted", z.object({ status: z.enum(["deleted", "deleting"]) }));
export const Member = named(
  "Member",
  z.object({
    userId: str(),
    email: nullable(str()),
    displayName: nullable(str()),
    role: Role,
    joinedAt: time(),
    lastActiveAt: nullable(time()),
    you: z.boolean(),
  }),
);
export const Members = named("Members", z.object({ items: z.array(Member) }));
const InvitationFields = {
  invitationId: str(),
  email: str(),
  role: Role,
  expiresAt: time(),
  createdAt: time(),
  invitedBy: z.object({ userId: str(), email: nullable(str()) }),
};
export const Invitation = named("Invitation", z.object(InvitationFields));
export const Invitations = named("Invitations", z.object({ items: z.array(Invitation) }));
export const InvitationSent = named("InvitationSent", z.object({ ...InvitationFields, mail: z.enum(["sent", "failed", "suppressed"]) }));
export const InvitationPreview = named(
  "InvitationPreview",
  z.object({
    workspaceName: str(),
    invitedBy: z.object({ email: nullable(str()), displayName: nullable(str()) }),
    email: str(),
    role: Role,
    expiresAt: time(),
  }),
);
export const InvitationAccepted = named("InvitationAccepted", z.object({ workspaceId: str(), role: Role }));
export const AuditPage = named(
  "AuditPage",
  z.object({
    items: z.array(
      z.object({
        entryId: str(),
        at: time(),
        action: z.enum(AUDIT_ACTIONS),
        actor: z.object({ userId: str(), email: nullable(str()), ip: nullable(str()), userAgentFamily: nullable(str()) }),
        target: nullable(z.object({ type: str(), id: str(), label: z.optional(str()) })),
        details: z.record(str(), z.union([str(), z.number(), z.boolean(), z.null()])),
      }),
    ),
    nextCursor: nullable(str()),
  }),
);

// ---- tester groups, tester access, installs ------------------------------------------------

const InviteLink = named(
  "InviteLink",
  z.object({ url: url(), createdAt: time(), expiresAt: nullable(time()), maxMembers: nullable(int()), joinedCount: int() }),
);
export const InviteLinkAnswer = InviteLink;
const LastInstall = named(
  "LastInstall",
  z.object({ fileId: str(), projectId: str(), platform: str(), version: str(), build: str(), at: time() }),
);
const GroupFields = { groupId: str(), workspaceId: str(), name: str(), testerCount: int(), createdAt: time(), inviteLink: nullable(InviteLink) };
export const Group = named("Group", z.object(GroupFields));
export const Groups = named("Groups", z.object({ items: z.array(Group) }));
export const GroupDetail = named(
  "GroupDetail",
  z.object({
    ...GroupFields,
    testers: z.array(z.object({ email: str(), addedAt: time(), source: z.enum(["added", "joined"]), lastInstall: nullable(LastInstall) })),
  }),
);
export const TestersAdded = named(
  "TestersAdded",
  z.object({ ...GroupFields, added: z.array(str()), already: z.array(str()), invalid: z.array(str()) }),
);
export const WorkspaceTesters = named(
  "WorkspaceTesters",
  z.object({ items: z.array(z.object({ email: str(), groups: z.array(z.object({ groupId: str(), name: str() })), lastInstall: nullable(LastInstall) })) }),
);

export const SentStatus = named("SentStatus", z.object({ status: z.literal("sent") }), "The same answer whatever the address (no enumeration).");
export const TesterSession = named(
  "TesterSession",
  z.object({
    email: str(),
    expiresAt: time(),
    joined: nullable(z.object({ groupId: str(), groupName: str(), workspaceName: str() })),
  }),
);
export const TesterSessionView = named("TesterSessionView", z.object({ email: str(), expiresAt: time() }));
export const JoinPreview = named("JoinPreview", z.object({ groupName: str(), workspaceName: str(), expiresAt: nullable(time()), open: z.boolean() }));
const TesterBuild = named(
  "TesterBuild",
  z.object({
    fileId: str(),
    platform: nullable(z.enum(["ios", "android"])),
    appName: nullable(str()),
    bundleId: nullable(str()),
    version: nullable(str()),
    build: nullable(str()),
    uploadedAt: time(),
    size: z.number(),
    releaseNotes: nullable(str()),
    message: nullable(str()),
    installUrl: url(),
    iconUrl: nullable(url()),
    installable: z.boolean(),
    // Issue 22 (verdict): whether this iPhone is in the build's profile, from the device cookie.
    device: z.object({
      verdict: z.enum(["in-profile", "not-in-profile", "unknown-device", "not-applicable"]),
      device: nullable(z.object({ name: nullable(str()), model: nullable(str()), product: str(), osVersion: str(), udid: str() })),
      // not-in-profile: the build's workspace has the device now (its Devices page shows it).
      told: z.boolean(),
    }),
  }),
);
export const TesterApps = named(
  "TesterApps",
  z.object({
    items: z.array(
      z.object({
        projectId: str(),
        projectName: str(),
        workspaceName: str(),
        latest: z.object({ ios: nullable(TesterBuild), android: nullable(TesterBuild) }),
      }),
    ),
    // Issue 22 (verdict): where this iPhone enrolls.
    enrollUrl: url(),
  }),
);
export const TesterAppDetail = named(
  "TesterAppDetail",
  z.object({
    projectId: str(),
    projectName: str(),
    workspaceName: str(),
    builds: z.array(TesterBuild),
    enrollUrl: url(),
  }),
);

const DeviceFamily = z.enum(["iPhone", "iPad", "Android", "desktop", "other"]);
const InstallCounts = { firstAt: time(), lastAt: time(), downloads: int(), installStarts: int(), deviceFamily: DeviceFamily, via: z.enum(["link", "portal"]) };
export const FileInstalls = named("FileInstalls", z.object({ items: z.array(z.object({ email: str(), ...InstallCounts })) }));
export const TesterInstalls = named(
  "TesterInstalls",
  z.object({
    items: z.array(
      z.object({
        fileId: str(),
        projectId: str(),
        projectName: nullable(str()),
        platform: nullable(str()),
        version: nullable(str()),
        build: nullable(str()),
        ...InstallCounts,
      }),
    ),
  }),
);

// ---- app pages, update tokens, distribution -------------------------------------------------

export const AppPage = named("AppPage", z.object({ enabled: z.boolean(), url: nullable(url()), passwordProtected: z.boolean() }));
const UpdateToken = named("UpdateToken", z.object({ tokenId: str(), name: str(), createdAt: time(), lastUsedAt: nullable(time()) }));
export const UpdateTokens = named("UpdateTokens", z.object({ items: z.array(UpdateToken) }));
export const CreatedUpdateToken = named(
  "CreatedUpdateToken",
  z.object({ tokenId: str(), name: str(), createdAt: time(), token: str() }),
  "The token (`hut_…`) is shown this once.",
);
export const LatestUpdate = named(
  "LatestUpdate",
  z.object({ fileId: str(), version: str(), build: nullable(str()), releaseNotes: nullable(str()), installUrl: url(), uploadedAt: time() }),
);

export const Distributions = named(
  "Distributions",
  z.object({
    items: z.array(
      z.object({
        distributionId: str(),
        createdAt: time(),
        createdBy: z.union([z.object({ userId: str(), email: nullable(str()) }), z.object({ clientId: str() })]),
        groups: z.array(z.object({ groupId: str(), name: str() })),
        testers: z.array(str()),
        message: nullable(str()),
        notify: z.boolean(),
        recipients: int(),
      }),
    ),
    recipients: z.array(
      z.object({
        email: str(),
        status: z.enum(["queued", "sending", "sent", "suppressed", "unsubscribed", "capped", "failed", "silent"]),
        sentAt: nullable(time()),
      }),
    ),
  }),
);
export const DefaultGroups = named("DefaultGroups", z.object({ groupIds: z.array(str()) }));

// ---- webhooks ------------------------------------------------------------------------------

const WebhookFields = {
  webhookId: str(),
  workspaceId: str(),
  type: z.enum(WEBHOOK_TYPES),
  url: url(),
  description: str(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  projectIds: z.array(str()),
  branchFilter: nullable(str()),
  enabled: z.boolean(),
  disabledReason: nullable(z.enum(["manual", "failing"])),
  failureStreak: int(),
  previousSecretExpiresAt: nullable(time()),
  createdAt: time(),
  updatedAt: time(),
};
export const Webhook = named("Webhook", z.object(WebhookFields));
export const Webhooks = named("Webhooks", z.object({ items: z.array(Webhook) }));
export const WebhookWithSecret = named("WebhookWithSecret", z.object({ ...WebhookFields, secret: str() }), "The secret (`whsec_…`) is shown this once.");
export const Delivery = named(
  "Delivery",
  z.object({
    deliveryId: str(),
    webhookId: str(),
    event: z.enum(WEBHOOK_EVENTS),
    test: z.boolean(),
    state: z.enum(["pending", "succeeded", "failed"]),
    createdAt: time(),
    nextAttemptAt: nullable(time()),
    attempts: z.array(
      z.object({ attempt: int(), at: time(), status: nullable(int()), latencyMs: z.number(), responseBody: nullable(str()), error: nullable(str()) }),
    ),
  }),
);
export const DeliveryPage = pageOf("DeliveryPage", Delivery);

// ---- retention and expiry ------------------------------------------------------------------

export const RetentionPreview = named(
  "RetentionPreview",
  z.object({
    policy: nullable(Retention),
    items: z.array(
      z.object({
        fileId: str(),
        platform: nullable(str()),
        version: nullable(str()),
        build: nullable(str()),
        branch: nullable(str()),
        completedAt: time(),
        size: z.number(),
        reasons: z.array(z.enum(["over_keep_latest", "older_than_max_age"])),
      }),
    ),
    bytes: z.number(),
  }),
);
export const Expiring = named(
  "Expiring",
  z.object({
    items: z.array(
      z.object({
        fileId: str(),
        projectId: str(),
        projectName: str(),
        platform: nullable(str()),
        version: nullable(str()),
        build: nullable(str()),
        kind: z.enum(["profile", "link"]),
        expiresAt: time(),
        daysLeft: int(),
      }),
    ),
  }),
);

// ---- iOS devices ---------------------------------------------------------------------------

export const Device = named(
  "Device",
  z.object({
    deviceId: str(),
    udid: str(),
    name: str(),
    product: str(),
    model: nullable(str()),
    osVersion: str(),
    serial: nullable(str()),
    email: nullable(str()),
    registeredAt: time(),
    appleRegistration: nullable(z.object({ at: time(), appleDeviceId: str() })),
  }),
  "An iOS device registered in a workspace (docs/devices.md).",
);
export const Devices = named("Devices", z.object({ items: z.array(Device), appleRegistration: z.object({ enabled: z.boolean() }) }));
export const FileDevices = named(
  "FileDevices",
  z.object({
    known: z.boolean(),
    profileKind: nullable(str()),
    included: z.array(Device),
    missing: z.array(Device),
    unregistered: z.array(str()),
  }),
  "`known` is false for Android, App Store and builds stored without the profile's UDIDs (the lists are empty then).",
);
export const AppleRegistration = named(
  "AppleRegistration",
  z.object({
    registered: z.array(str()),
    already: z.array(str()),
    failed: z.array(z.object({ deviceId: str(), message: str() })),
  }),
);
