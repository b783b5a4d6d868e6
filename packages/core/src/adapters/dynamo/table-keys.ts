/**
 * Key builders of the single table (see docs/data-model.md). Every item has `pk`, `sk` and a
 * `type`; items listed per project also carry `gsi1pk`/`gsi1sk`; items that expire carry `ttl`.
 */
export const keys = {
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: "USER" }),
  email: (email: string) => ({ pk: `EMAIL#${email}`, sk: "EMAIL" }),
  /** Projects live in their workspace's partition (issue 19); gsi1 `PROJECT#<id>` / `PROJECT` finds one by id alone. */
  project: (workspaceId: string, projectId: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `PROJECT#${projectId}` }),
  /** A project name's uniqueness item, per workspace (case-insensitive). */
  projectName: (workspaceId: string, name: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `PROJECTNAME#${name.toLowerCase()}` }),
  apiKey: (clientId: string) => ({ pk: `APIKEY#${clientId}`, sk: "APIKEY" }),
  file: (fileId: string) => ({ pk: `FILE#${fileId}`, sk: "FILE" }),
  share: (userKey: string) => ({ pk: `SHARE#${userKey}`, sk: "SHARE" }),
  /** Deleted by TTL when the upload URL is dead; the reaper then seals the object (sealUpload). */
  seal: (fileId: string) => ({ pk: `SEAL#${fileId}`, sk: "SEAL" }),
  rateWindow: (subject: string, windowStart: number) => ({ pk: `RATE#${subject}`, sk: `WINDOW#${windowStart}` }),
  /** Dashboard sessions live in their user's partition: listing or ending them all is one Query. */
  session: (userId: string, sessionId: string) => ({ pk: `USER#${userId}`, sk: `SESSION#${sessionId}` }),
  /** Mailed single-use tokens, by the SHA-256 of the token (the token itself is never stored). */
  token: (tokenHash: string) => ({ pk: `TOKEN#${tokenHash}`, sk: "TOKEN" }),
  /** An address SES reported as bouncing permanently or complaining: no more mail goes there. */
  suppression: (email: string) => ({ pk: `SUPPRESSED#${email}`, sk: "SUPPRESSED" }),
  /** A project delete under way, in one well-known partition the housekeeping sweep queries. */
  pendingDelete: (projectId: string) => ({ pk: "DELETING", sk: `PROJECT#${projectId}` }),
  pendingWorkspaceDelete: (workspaceId: string) => ({ pk: "DELETING", sk: `WORKSPACE#${workspaceId}` }),
  /** A project with a retention policy, in one well-known partition the daily run queries (issue 24). */
  retentionPolicy: (projectId: string) => ({ pk: "RETENTION", sk: `PROJECT#${projectId}` }),
  /** One key's usage counters of one UTC day (`YYYY-MM-DD`). */
  usageDay: (clientId: string, day: string) => ({ pk: `USAGE#${clientId}`, sk: `DAY#${day}` }),
  /** A random secret of the stage, by purpose (`cursor`): see DynamoStageSecret. */
  stageSecret: (name: string) => ({ pk: `SECRET#${name}`, sk: "SECRET" }),
  /** A workspace (docs/teams.md): name, counters of members and owners (and of projects). */
  workspace: (workspaceId: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: "WORKSPACE" }),
  /** One member of a workspace, in the workspace's partition; gsi1 (`USER#<userId>`) lists a user's workspaces. */
  member: (workspaceId: string, userId: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `MEMBER#${userId}` }),
  /** A pending invitation, in the workspace's partition (its mailed token is a `token` item). */
  invitation: (workspaceId: string, invitationId: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `INVITATION#${invitationId}` }),
  /** One audit entry; the sort key orders a workspace's log by time (`<ISO time>#<entryId>`). */
  auditEntry: (workspaceId: string, at: string, entryId: string) => ({ pk: `AUDIT#${workspaceId}`, sk: `${at}#${entryId}` }),
  // --- Testers (issue 20; docs/testers.md). A tester is a normalized e-mail address, not an account.
  /** A tester group of a workspace. */
  group: (workspaceId: string, groupId: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `GROUP#${groupId}` }),
  /** A group name's uniqueness item, per workspace (case-insensitive): `--groups qa` names it. */
  groupName: (workspaceId: string, name: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `GROUPNAME#${name.toLowerCase()}` }),
  /** One tester in one group; gsi1 `TESTER#<email>` / `GROUP#<groupId>` lists a tester's groups. */
  groupTester: (groupId: string, email: string) => ({ pk: `GROUP#${groupId}`, sk: `TESTER#${email}` }),
  /** A group's self-service invite link, by the SHA-256 of its token (one live link per group). */
  groupInviteLink: (tokenHash: string) => ({ pk: `JOINLINK#${tokenHash}`, sk: "JOINLINK" }),
  /** A tester session (the portal's cookie), by the SHA-256 of its token; in the tester's partition. */
  testerSession: (email: string, sessionId: string) => ({ pk: `TESTER#${email}`, sk: `SESSION#${sessionId}` }),
  /** One distribution (a send of a build to groups and testers). */
  distribution: (fileId: string, distributionId: string) => ({ pk: `FILE#${fileId}`, sk: `DISTRIBUTION#${distributionId}` }),
  /**
   * One tester's copy of one build: at most one per tester per build, whatever the number of
   * distributions (the mail's exactly-once); gsi1 `TESTER#<email>` / `BUILD#<at>#<fileId>` is the
   * tester's portal, newest first.
   */
  recipient: (fileId: string, email: string) => ({ pk: `FILE#${fileId}`, sk: `RECIPIENT#${email}` }),
  /** A personal install link, by the SHA-256 of its token (testers/install-link.ts). */
  installLink: (tokenHash: string) => ({ pk: `INSTALLLINK#${tokenHash}`, sk: "INSTALLLINK" }),
  /** What one tester did with one build: downloads and install starts, first and last time, device. */
  install: (fileId: string, email: string) => ({ pk: `FILE#${fileId}`, sk: `INSTALL#${email}` }),
  /** The last build a tester installed in a workspace (the group page's "last installed"). */
  lastInstall: (workspaceId: string, email: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `LASTINSTALL#${email}` }),
  /** A tester's opt-out of one project's build mail (RFC 8058 one-click unsubscribe). */
  unsubscribe: (projectId: string, email: string) => ({ pk: `UNSUBSCRIBED#${email}`, sk: `PROJECT#${projectId}` }),
  /** A project's public app page, by its slug. */
  appPage: (slug: string) => ({ pk: `APPPAGE#${slug}`, sk: "APPPAGE" }),
  /** An update token (in-app update check), by the SHA-256 of the token. */
  updateToken: (tokenHash: string) => ({ pk: `UPDATETOKEN#${tokenHash}`, sk: "UPDATETOKEN" }),
  // --- Webhooks (issue 21; docs/webhooks.md).
  /** A webhook endpoint, in its workspace's partition; gsi1 `WEBHOOK#<id>` / `WEBHOOK` finds it by id alone. */
  webhook: (workspaceId: string, webhookId: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `WEBHOOK#${webhookId}` }),
  /** One delivery of an event to an endpoint (its attempts inside); delivery ids sort by time. TTL 30 days. */
  webhookDelivery: (webhookId: string, deliveryId: string) => ({ pk: `WEBHOOK#${webhookId}`, sk: `DELIVERY#${deliveryId}` }),
  /** The local stack's delivery queue (SQS on AWS): one partition the in-process worker polls. */
  webhookTask: (taskId: string) => ({ pk: "WEBHOOKQUEUE", sk: `TASK#${taskId}` }),
  // --- iOS devices (issue 22; docs/devices.md).
  /**
   * A registered device, in its workspace's partition, keyed by its UDID (uppercase) so a device
   * enrolled twice is one item and the share page's verdict is one GetItem; gsi1
   * `DEVICE#<deviceId>` / `DEVICE` finds it by id alone (the dashboard's PATCH and DELETE).
   */
  device: (workspaceId: string, udid: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: `DEVICE#${udid}` }),
  /** One run of the enroll flow (the profile's Challenge, by its SHA-256), 1 h TTL. */
  enrollment: (challengeHash: string) => ({ pk: `ENROLL#${challengeHash}`, sk: "ENROLL" }),
  // --- Release safety (issue 24; docs/release-safety.md).
  /** One expiry warning sent (or passed) for a build: `<kind>#<thresholdDays>`; purged with the file. */
  expiryWarning: (fileId: string, kind: string, thresholdDays: number) => ({ pk: `FILE#${fileId}`, sk: `EXPIRYWARNING#${kind}#${thresholdDays}` }),
  /** A dashboard user's opt-out of expiry-warning mails (one-click unsubscribe); holds no address. */
  expiryMailOptOut: (userId: string) => ({ pk: `USER#${userId}`, sk: "PREF#expiry-mail" }),
} as const;

export const gsi1 = {
  name: "gsi1",
  project: (projectId: string) => `PROJECT#${projectId}`,
  /** A user's memberships (member items): gsi1pk of the member item. */
  userWorkspaces: (userId: string) => `USER#${userId}`,
  /** A tester's groups (`GROUP#…`) and builds (`BUILD#<at>#<fileId>`): gsi1pk of groupTester and recipient items. */
  tester: (email: string) => `TESTER#${email}`,
  /** A webhook endpoint by its id: gsi1pk of the webhook item (gsi1sk `WEBHOOK`). */
  webhook: (webhookId: string) => `WEBHOOK#${webhookId}`,
  /** A device by its id: gsi1pk of the device item (gsi1sk `DEVICE`). */
  device: (deviceId: string) => `DEVICE#${deviceId}`,
} as const;

/** Names and types of the table's key attributes; the stack and the local stack create it from this. */
export const tableDefinition = {
  partitionKey: "pk",
  sortKey: "sk",
  gsi1: { name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" },
  ttlAttribute: "ttl",
} as const;
