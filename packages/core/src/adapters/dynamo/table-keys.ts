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
} as const;

export const gsi1 = {
  name: "gsi1",
  project: (projectId: string) => `PROJECT#${projectId}`,
  /** A user's memberships (member items): gsi1pk of the member item. */
  userWorkspaces: (userId: string) => `USER#${userId}`,
} as const;

/** Names and types of the table's key attributes; the stack and the local stack create it from this. */
export const tableDefinition = {
  partitionKey: "pk",
  sortKey: "sk",
  gsi1: { name: "gsi1", partitionKey: "gsi1pk", sortKey: "gsi1sk" },
  ttlAttribute: "ttl",
} as const;
