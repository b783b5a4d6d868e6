import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { tableDefinition } from "@hangar/core";
import type { MailFrom } from "@hangar/core/mail-from";
import type { FunctionName, RouteFunctionName } from "@hangar/functions";

/** The table actions any function is granted (on the table, or `dynamodb:Query` on the GSI). */
type TableAction =
  | "dynamodb:GetItem"
  | "dynamodb:BatchGetItem"
  | "dynamodb:PutItem"
  | "dynamodb:UpdateItem"
  | "dynamodb:DeleteItem"
  | "dynamodb:Query"
  | "dynamodb:BatchWriteItem"
  | "dynamodb:ConditionCheckItem"
  | "dynamodb:Scan";

/** The object actions any function is granted on `uploads/*`. */
type ObjectAction =
  | "s3:GetObject"
  | "s3:GetObjectVersion"
  | "s3:PutObject"
  | "s3:DeleteObjectVersion"
  | "s3:ListMultipartUploadParts"
  | "s3:AbortMultipartUpload";

/** What one function may do, beside writing its own logs. An absent field grants nothing. */
export interface FunctionAccess {
  /** On the table ARN. */
  readonly table?: readonly TableAction[];
  /** On the one GSI by name (`<table>/index/gsi1`), not `<table>/index/*`. */
  readonly index?: readonly "dynamodb:Query"[];
  /** On the bucket itself, conditioned to keys under `uploads/`: listing every version of a prefix. */
  readonly bucket?: readonly "s3:ListBucketVersions"[];
  /** On the objects under `uploads/*`. */
  readonly objects?: readonly ObjectAction[];
  /**
   * SES v2 SendEmail on the identity of the stage's HANGAR_MAIL_FROM and on its configuration set
   * (SES authorizes a send against both when the request names a set); none when it is unset.
   */
  readonly mail?: readonly "ses:SendEmail"[];
  /**
   * Background work as an asynchronous invocation of itself (packages/functions/src/composition/background.ts):
   * lambda:InvokeFunction on its own ARN, and sqs:SendMessage on the BackgroundFailures queue
   * where a run that failed for good lands (Lambda's destination grant, api-stack.ts).
   */
  readonly selfInvoke?: true;
  /** GetSecretValue on the origin-verify secret, read before the first origin check (its ARN is in the environment). */
  readonly originSecret?: true;
  /** sqs:SendMessage on the build-mail queue (HANGAR_BUILD_MAIL_QUEUE_URL): it distributes builds to testers. */
  readonly buildMailQueue?: true;
  /**
   * sqs:SendMessage on the webhook queue (docs/webhooks.md): the functions whose use cases publish
   * events (one send each, for a workspace with webhooks: the check is a table Query), and the
   * webhooks function (test events, redeliveries).
   */
  readonly webhookQueue?: true;
  /**
   * GetSecretValue on the App Store Connect key's secret (docs/devices.md, "Register with Apple"),
   * when the stage names one: the apple function only, so no other function can sign as the team.
   */
  readonly appStoreConnectSecret?: true;
  /** Reads the enroll profile's signing identity (HANGAR_ENROLL_SIGNING_SECRET_ARN), when the stage names one. */
  readonly enrollSigningSecret?: true;
}

/**
 * Exact IAM actions per function, one row per function of routes.ts's table: a function missing
 * here, or a name that is not one, fails typecheck, and so does a misspelled action. SST's `bind`
 * is not used for the table and bucket because it grants `dynamodb:*` / `s3:*`; every action here
 * is one a use case performs. The docs' permission table (docs/deploy.md) is printed from it.
 *
 * Authorization notes: HeadObject is authorized by s3:GetObject (s3:GetObjectVersion with a
 * versionId); TransactWriteItems is authorized per contained action (Update/Put/ConditionCheck),
 * not by an action of its own; CreateMultipartUpload, UploadPart and CompleteMultipartUpload by
 * s3:PutObject. Every function that answers a route authenticates or checks the origin first,
 * hence `originSecret` on all of them but the fallback.
 */
export const access = {
  // The key (GetItem), its rate and usage counters (UpdateItem), the pending record (PutItem).
  // The presigned PUT is executed with this function's credentials.
  // Presign, complete and multipart also serve the dashboard's browser uploads: the session
  // (GetItem, UpdateItem to slide it, DeleteItem when it expired), the project (GetItem) and the
  // account's upload rate counter (UpdateItem); the project's workspace from its id (Query of
  // gsi1) and the caller's membership (GetItem) decide whether they may upload (builds.manage).
  presign: {
    table: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:DeleteItem"],
    index: ["dynamodb:Query"],
    objects: ["s3:PutObject"],
    originSecret: true,
  },
  // The record is completed in a transaction with its share and seal items, the project's
  // counters and the key's day of usage (Update/Put, ConditionCheck).
  // Reads the package (HEAD, then ranged GETs of the version HEAD saw) and stores the icon beside
  // it; a multipart complete's part list is checked against ListParts.
  // A dashboard upload's audit entry (PutItem); its access check as presign's (gsi1 Query).
  // Its optional `distribute` and the project's default groups (docs/testers.md): as the
  // distribution function's distribute (group reads by Get and Query, recipients' BatchGetItem and
  // conditional Puts, install links by BatchWriteItem, the mails onto the build-mail queue).
  // The project's newest files (gsi1 Query): the previous build the stored diff compares with.
  complete: {
    table: [
      "dynamodb:GetItem",
      "dynamodb:BatchGetItem",
      "dynamodb:UpdateItem",
      "dynamodb:PutItem",
      "dynamodb:DeleteItem",
      "dynamodb:ConditionCheckItem",
      "dynamodb:Query",
      "dynamodb:BatchWriteItem",
    ],
    index: ["dynamodb:Query"],
    objects: ["s3:GetObject", "s3:GetObjectVersion", "s3:PutObject", "s3:ListMultipartUploadParts"],
    originSecret: true,
    buildMailQueue: true,
    // build.completed and build.rejected.
    webhookQueue: true,
  },
  // The pending record of a multipart upload (Put at start, Get for part URLs, Delete at abort).
  // CreateMultipartUpload and the presigned UploadParts (run with its credentials) are authorized
  // by s3:PutObject; the abort route by s3:AbortMultipartUpload.
  multipart: {
    table: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:DeleteItem"],
    index: ["dynamodb:Query"],
    objects: ["s3:PutObject", "s3:AbortMultipartUpload"],
    originSecret: true,
  },
  // The share item with its settings; UpdateItem counts downloads (download) and install starts
  // and wrong link passwords (share). Presigned GETs run with these functions' credentials; they
  // name the version complete pinned.
  // The share page also reads its project's newest files on gsi1 (Query) for its "a newer build is available".
  // The device verdict (docs/devices.md) reads the file item and the `device-cookie` stage secret
  // (Put the first time), and records a device missing from the profile: GetItem of the device,
  // a COUNT Query of the workspace's devices (the limit), a PutItem in a transaction with a
  // ConditionCheckItem of the workspace (there, not being deleted).
  download: { table: ["dynamodb:GetItem", "dynamodb:UpdateItem"], objects: ["s3:GetObject", "s3:GetObjectVersion"], originSecret: true },
  share: {
    table: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
    index: ["dynamodb:Query"],
    objects: ["s3:GetObject", "s3:GetObjectVersion"],
    originSecret: true,
  },
  // Users, sessions, tokens, limiter counters: sessions are listed with a Query of the user's
  // partition and ended with BatchWriteItem; sign-up writes user + e-mail in one transaction (Put).
  // The mails of sign-up, resend and reset go out after the answer (equal work for every address).
  accounts: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:BatchWriteItem"],
    mail: ["ses:SendEmail"],
    selfInvoke: true,
    originSecret: true,
  },
  // The dashboard functions (projects, keys, files) authenticate by session (GetItem, UpdateItem
  // to slide it, DeleteItem when it expired) and list a project's files and keys on the GSI.
  // Projects: project + name items in transactions (Put/Update/Delete), counters, purges (Query of
  // usage, BatchWriteItem of records, share traces and usage items) that continue in the
  // background; the account delete also ends sessions (Query + BatchWriteItem) and removes user +
  // e-mail. The file list reads its rows' link counts in one BatchGetItem. ConditionCheckItem: the
  // exact project and key limits check each counting item from before counting. Presigned icon
  // GETs in answers; deleting every version of a project's objects. A workspace's delete (its route
  // lives here for these rights) purges its projects the same way, then removes members (user
  // counters Update), invitations and their tokens, the audit partition (Query + BatchWriteItem)
  // and the workspace item, by transactions of Delete/Update.
  projects: {
    table: [
      "dynamodb:GetItem",
      "dynamodb:BatchGetItem",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:DeleteItem",
      "dynamodb:Query",
      "dynamodb:BatchWriteItem",
      "dynamodb:ConditionCheckItem",
    ],
    index: ["dynamodb:Query"],
    bucket: ["s3:ListBucketVersions"],
    objects: ["s3:GetObject", "s3:GetObjectVersion", "s3:DeleteObjectVersion"],
    selfInvoke: true,
    originSecret: true,
  },
  // Keys: create (PutItem), revoke/regenerate (UpdateItem), usage days (Query of USAGE#<id>); the
  // active-key count rides in the create and revoke transactions (ConditionCheckItem when counting
  // a project's keys from before counting). No object access.
  keys: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
    index: ["dynamodb:Query"],
    originSecret: true,
    // key.created and key.revoked.
    webhookQueue: true,
  },
  // Files: the latest files list the account's projects (Query of the user's partition) and read
  // their rows' link counts (BatchGetItem); get; delete (BatchWriteItem of record, seal and the
  // share item's trace) with the project's count (UpdateItem), and what testers left of the build
  // (Query of its partition, BatchWriteItem, a conditional DeleteItem of a last install; the
  // install-link secret by GetItem). Presigned icon GETs; deleting every version of a file's objects.
  // A pin (UpdateItem of the record); the audit entries of a delete and a pin (PutItem).
  // The later builds whose stored diff named a deleted build are compared again (gsi1 Query, UpdateItem).
  files: {
    table: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem", "dynamodb:Query"],
    index: ["dynamodb:Query"],
    bucket: ["s3:ListBucketVersions"],
    objects: ["s3:GetObject", "s3:GetObjectVersion", "s3:DeleteObjectVersion"],
    originSecret: true,
    // build.deleted.
    webhookQueue: true,
  },
  // Links: session (Get/Update/Delete), file + project + share reads, settings (a transaction:
  // Update the share item beside ConditionChecks of the project and the caller's membership, and
  // Put of the audit entry), regenerate (a transaction of Put new share, Put the old one's trace,
  // Update file; then Put of its audit entry). A file from before workspaces names no workspace:
  // its project is located on gsi1 (Query). The event publisher's check whether the workspace has
  // webhooks (Query of WORKSPACE#<id>, composition/events.ts).
  links: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem", "dynamodb:Query"],
    index: ["dynamodb:Query"],
    originSecret: true,
    // link.settings_changed.
    webhookQueue: true,
  },
  // Audit: session (Get, Update to slide it), the caller's member item (Get), the log itself
  // (Query of AUDIT#<workspace>), actors' user items for their current address (Get), the cursor
  // secret (Get; Put the first time a stage signs a cursor). Append-only: no Delete, no Update of
  // entries (the functions that change things Put them).
  audit: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
    originSecret: true,
  },
  // Workspaces: session (Get/Update/Delete), membership and workspace reads (GetItem), a user's
  // workspaces (Query of gsi1, then BatchGetItem), members (Query of the workspace's partition, the
  // user items by GetItem), every change a transaction of Put/Update/Delete with the counters'
  // conditions. No objects (deleting a workspace is the projects function's: it purges objects).
  workspaces: {
    table: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query"],
    index: ["dynamodb:Query"],
    originSecret: true,
  },
  // Invitations: session (Get/Update/Delete), membership, workspace, user and invitation reads
  // (GetItem; the workspace's invitations by Query of its partition), the mail limits (UpdateItem),
  // invitation + token writes in transactions (Put/Update/Delete), the accept's transaction (token
  // and invitation Delete, member Put, workspace and user counters Update), the audit entry (Put).
  // The mail is sent from the request.
  invitations: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query"],
    mail: ["ses:SendEmail"],
    originSecret: true,
  },
  // Tester groups (docs/testers.md "Groups"): session (Get/Update/Delete) and membership reads; a
  // group found by its id (Query of gsi1); groups, names, testers and invite links in transactions
  // (Put/Update/Delete) with the workspace's and group's counters; the testers of a group (Query of
  // its partition), which addresses a group holds and the installs' last builds (BatchGetItem); a
  // group's delete removes its testers (BatchWriteItem); the `join-link` stage secret (Get/Put);
  // the audit entry (Put).
  testers: {
    table: [
      "dynamodb:GetItem",
      "dynamodb:BatchGetItem",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:DeleteItem",
      "dynamodb:Query",
      "dynamodb:BatchWriteItem",
    ],
    index: ["dynamodb:Query"],
    originSecret: true,
    // tester.joined for the addresses a member adds.
    webhookQueue: true,
  },
  // Tester access (docs/testers.md): tester sessions (Put, Get, Delete), the mailed tokens (Put; the
  // redeem is a conditional Delete), the limiter counters (UpdateItem), who is a tester and what was
  // sent to them on gsi1 (Query), the builds' file, project, workspace, distribution and share items
  // (BatchGetItem), the install-link stage secret (Get; Put the first time), tester-groups' invite
  // links, their group and workspace (Get) and the join's transaction (Put the tester, Update the
  // group's counters). Presigned icon GETs. The
  // magic-link mails go out after the answer, from an asynchronous invocation of itself. The builds'
  // device verdicts (docs/devices.md): the file items and the `device-cookie` secret (Get; Put the
  // first time), a missing device recorded (Get, a COUNT Query of the workspace's devices, Put with
  // a ConditionCheck of the workspace).
  tester: {
    table: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
    index: ["dynamodb:Query"],
    objects: ["s3:GetObject", "s3:GetObjectVersion"],
    mail: ["ses:SendEmail"],
    selfInvoke: true,
    originSecret: true,
    // tester.joined.
    webhookQueue: true,
  },
  // Installs (docs/testers.md): a personal link's item and the build's record (GetItem), a tester
  // session of the link's address (GetItem), the per-client rules (UpdateItem), the record of a
  // download or install start (a transaction: ConditionCheck of the file, Update of the install
  // item, Put of the tester's last install); the dashboard's lists (session Get/Update/Delete, the
  // membership and project reads, Query of a build's partition and of a tester's installs on
  // gsi1). Signed GETs of the package and icon versions; no object writes, no mail. The device
  // verdict (docs/devices.md) with the same actions: file item, device (Get, COUNT Query, Put with
  // a ConditionCheck of the workspace).
  installs: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
    index: ["dynamodb:Query"],
    objects: ["s3:GetObject", "s3:GetObjectVersion"],
    originSecret: true,
  },
  // Apps (issue 20, docs/testers.md): the app page reads its lookup item and project (GetItem), the
  // project's files on gsi1 (Query), counts downloads and install starts on the builds' share items
  // and the per-client and password limits (UpdateItem), and signs GETs of packages and icons. The
  // settings: session (Get/Update/Delete), the project's page in a transaction (Update of the
  // project, Put of the new lookup, Delete of the old), the audit entry (Put). Update tokens: Put in
  // a transaction with the project's count (Update), listed on gsi1, revoked by Delete + Update;
  // the update check reads the token (Get), counts its limit and its last use (Update). The latest
  // iOS build's device verdict (docs/devices.md): file item, device (Get, COUNT Query, Put with a
  // ConditionCheck of the workspace).
  apps: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
    index: ["dynamodb:Query"],
    objects: ["s3:GetObject", "s3:GetObjectVersion"],
    originSecret: true,
  },
  // Distribution (docs/testers.md): session (Get/Update/Delete), the file, project and membership
  // reads (GetItem; the project's workspace on gsi1), the groups (GetItem by id or name, Query of a
  // group's testers), the recipients already there and the unsubscribed and suppressed addresses
  // (BatchGetItem), the distribution and each recipient (conditional PutItem), install links
  // (BatchWriteItem), the daily cap (UpdateItem), the stage secrets (Get; Put the first time),
  // distributions and recipients of a build (Query of its partition), default groups (UpdateItem of
  // the project), unsubscribes (UpdateItem), the audit entry (Put). The mails go onto the queue.
  distribution: {
    table: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:BatchWriteItem"],
    index: ["dynamodb:Query"],
    originSecret: true,
    buildMailQueue: true,
    // build.distributed.
    webhookQueue: true,
  },
  // Webhooks: session (Get/Update/Delete), membership and project reads (GetItem), a webhook by id
  // (Query of gsi1, then GetItem), the workspace's webhooks (Query of its partition), create and
  // delete in transactions with the workspace's counter (Put/Delete + Update), changes (Update),
  // the delivery log (Query of the webhook's partition, GetItem, UpdateItem to redeliver), the
  // cursor secret (Get; Put the first time), the audit entry of each change (Put). Test events and
  // redeliveries are queued.
  webhooks: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query"],
    index: ["dynamodb:Query"],
    originSecret: true,
    webhookQueue: true,
  },
  // iOS devices (docs/devices.md): the enroll flow reads the page it came from (share item, file,
  // install link, app page lookup and project: GetItem; a project's workspace and a tester's groups
  // on gsi1: Query), the tester session (GetItem, DeleteItem when it expired), counts the per-client
  // rules (UpdateItem), writes the enrollment (PutItem, UpdateItem) and the devices (GetItem, Query
  // COUNT of the workspace's devices, PutItem in a transaction with a ConditionCheckItem of the
  // workspace, UpdateItem), reads the device-cookie stage secret
  // (GetItem; PutItem the first time). The dashboard's routes: session (Get/Update/Delete), members
  // and files (GetItem), devices (Query; by id on gsi1; UpdateItem to rename, DeleteItem to remove).
  devices: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
    index: ["dynamodb:Query"],
    originSecret: true,
    enrollSigningSecret: true,
  },
  // Register with Apple (docs/devices.md): session (Get/Update/Delete), membership (GetItem), the
  // workspace's device items (Query of its partition), each registration recorded (UpdateItem) and
  // audited (PutItem); the App Store Connect key's secret when the stage configures one. No index,
  // objects, mail or queue.
  apple: {
    table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query"],
    originSecret: true,
    appStoreConnectSecret: true,
  },
  // The CLI tarball is packed from files in its own bundle: no table, no objects.
  cli: { originSecret: true },
  // The OpenAPI document is built from the route tables in the bundle: no table, no objects.
  openapi: { originSecret: true },
  // Answers unknown paths (404) and wrong methods (405): it touches no resource.
  fallback: {},
} as const satisfies Record<FunctionName, FunctionAccess>;

/** The grants of one function, as the rows of `access` are typed (absent fields read as empty). */
export const accessOf = (name: FunctionName): FunctionAccess => access[name];

/** The action of `originSecret`. */
export const secretActions = ["secretsmanager:GetSecretValue"] as const;

/** The action of `webhookQueue`. */
export const webhookQueueActions = ["sqs:SendMessage"] as const;

/**
 * The webhook delivery worker (webhooks/deliver.handler.ts, triggered by the webhook queue): the
 * workspace's webhooks (Query of its partition) and one webhook (GetItem), deliveries (PutItem,
 * GetItem, UpdateItem of attempts), the endpoint's lease and failure count (UpdateItem), the
 * workspace, its members (Query) and their user items (GetItem) for the mail of a disabled
 * endpoint; retries re-queued (sqs:SendMessage; the event source mapping's receive and delete
 * rights come with it, api-stack.ts); that mail through SES.
 */
export const webhookDeliveryActions = {
  table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
  queue: webhookQueueActions,
  mail: ["ses:SendEmail"],
} as const;

export function webhookDeliveryStatements(arns: Pick<AccessArns, "tableArn" | "webhookQueueArn" | "mailIdentityArns">): PolicyStatement[] {
  return [
    allow(webhookDeliveryActions.table, [arns.tableArn]),
    ...(arns.webhookQueueArn ? [allow(webhookDeliveryActions.queue, [arns.webhookQueueArn])] : []),
    ...(arns.mailIdentityArns?.length ? [allow(webhookDeliveryActions.mail, arns.mailIdentityArns)] : []),
  ];
}

/**
 * The deploy's migrations (migrations/workspaces-migration.handler.ts, an SST Script). Onto
 * workspaces: one Scan of the table, a Query of each user's partition, its marker (GetItem,
 * PutItem), and transactions of Put/Update/Delete moving projects and adding personal workspaces;
 * keys and pending deletes get their workspace by UpdateItem. Then the storage count: one Scan,
 * each uncounted project read (GetItem), its files paged on gsi1 (Query on the index), the count
 * written (UpdateItem), its marker. No objects, no mail.
 */
export const migrationActions = {
  table: ["dynamodb:Scan", "dynamodb:Query", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
  index: ["dynamodb:Query"],
} as const;

export function migrationStatements(arns: Pick<AccessArns, "tableArn">): PolicyStatement[] {
  // The one GSI by name, not `<table>/index/*`.
  return [allow(migrationActions.table, [arns.tableArn]), allow(migrationActions.index, [`${arns.tableArn}/index/${tableDefinition.gsi1.name}`])];
}

/**
 * The SES event handler (mail/ses-events.handler.ts, fed by the configuration set's SNS topic):
 * reads the account of a bounced or complaining address, records the suppression (Put) and marks
 * the account (Update). No object access, no mail.
 */
export const sesEventsActions = {
  table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
} as const;

/**
 * The build-mail sender (distribution/distribution-mail.handler.ts, fed by the build-mail queue):
 * claims and settles recipients (UpdateItem), reads the file, the distribution, the stage secrets
 * and the suppression (GetItem) and the unsubscribe (BatchGetItem), and sends through SES. Its
 * queue's ReceiveMessage/DeleteMessage come with the event source mapping.
 */
export const distributionMailActions = {
  table: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:UpdateItem", "dynamodb:PutItem"],
  mail: ["ses:SendEmail"],
} as const;

export function distributionMailStatements(arns: Pick<AccessArns, "tableArn" | "mailIdentityArns">): PolicyStatement[] {
  return [
    allow(distributionMailActions.table, [arns.tableArn]),
    ...(arns.mailIdentityArns?.length ? [allow(distributionMailActions.mail, arns.mailIdentityArns)] : []),
  ];
}

/**
 * The scheduled housekeeping function that finishes projects and accounts left in "deleting"
 * (housekeeping/resume-deletes.handler.ts) runs the same purge as the `projects` function, so it
 * gets exactly that function's table, index, version-listing and uploads statements, without the
 * self-invocation. Its origin-secret grant comes along unused (the sweep answers no request and
 * never reads the secret); a stack test keeps the two roles identical.
 */
export const RESUME_DELETES_AS = "projects" satisfies RouteFunctionName;

/**
 * The daily housekeeping (housekeeping/daily.handler.ts, an EventBridge schedule; docs/release-safety.md).
 * Retention: the projects with a policy (Query of the RETENTION partition, DeleteItem of a stale
 * entry), each project (GetItem) and its builds (gsi1 Query), then each build removed as the
 * files function removes it: every version of its objects (ListBucketVersions on `uploads/`,
 * DeleteObjectVersion), the record, seal and link trace (BatchWriteItem), what testers left
 * (Query, BatchWriteItem, DeleteItem, the install-link secret by GetItem/PutItem), the project's
 * counters (UpdateItem), the audit entry (PutItem) and build.deleted on the webhook queue (the
 * local stack's queue is the table: Query). Expiry warnings: the workspace's owners and admins
 * (Query, BatchGetItem), the marker of each warning (PutItem) and the mail through SES.
 */
export const dailyHousekeepingActions = {
  table: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:BatchWriteItem"],
  index: ["dynamodb:Query"],
  bucket: ["s3:ListBucketVersions"],
  objects: ["s3:DeleteObjectVersion"],
  queue: webhookQueueActions,
  mail: ["ses:SendEmail"],
} as const;

export function dailyHousekeepingStatements(arns: AccessArns): PolicyStatement[] {
  return [
    allow(dailyHousekeepingActions.table, [arns.tableArn]),
    allow(dailyHousekeepingActions.index, [`${arns.tableArn}/index/${tableDefinition.gsi1.name}`]),
    allow(dailyHousekeepingActions.objects, [arns.uploadsArn]),
    ...(arns.bucketArn
      ? [
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: [...dailyHousekeepingActions.bucket],
            resources: [arns.bucketArn],
            conditions: { StringLike: { "s3:prefix": ["uploads/*"] } },
          }),
        ]
      : []),
    ...(arns.webhookQueueArn ? [allow(dailyHousekeepingActions.queue, [arns.webhookQueueArn])] : []),
    ...(arns.mailIdentityArns?.length ? [allow(dailyHousekeepingActions.mail, arns.mailIdentityArns)] : []),
  ];
}

/**
 * Functions whose background work (an asynchronous invocation) lands on the stage's background
 * failures queue when it fails for good: they may sqs:SendMessage to that queue (granted by
 * Lambda's destination configuration, api-stack.ts).
 */
export const backgroundFailureActions = ["sqs:SendMessage"] as const;

/**
 * The reaper deletes the object of an upload whose pending record expired, and seals completed
 * uploads (lists the versions of a package's key and destroys all but the pinned one; see
 * storage-stack.ts).
 */
export const reaperActions = {
  uploads: ["s3:DeleteObject", "s3:DeleteObjectVersion"],
  /** ListObjectVersions, on the bucket, conditioned to keys under `uploads/`. */
  bucket: ["s3:ListBucketVersions"],
  // On the table's one stream ARN, not `<table>/stream/*` (every past and future stream).
  stream: ["dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"],
} as const;

export interface AccessArns {
  tableArn: string;
  /** The table's stream (the reaper's event source). */
  tableStreamArn: string;
  /** `arn:...:s3:::<bucket>/uploads/*` */
  uploadsArn: string;
  /** SES identities mail may be sent from and the configuration set (empty: no mail permission at all). */
  mailIdentityArns?: string[];
  /** The origin-verify secret, read at cold start by the HTTP functions. */
  originVerifySecretArn?: string;
  /** The uploads bucket itself (version listings, conditioned to `uploads/`). */
  bucketArn?: string;
  /** The build-mail queue (distribute and complete send to it). */
  buildMailQueueArn?: string;
  /** The webhook queue (docs/webhooks.md), which publishers send events to. */
  webhookQueueArn?: string;
  /** The App Store Connect key's secret (HANGAR_ASC_PRIVATE_KEY_SECRET_ARN), when Register with Apple is on. */
  appStoreConnectSecretArn?: string;
  /** The enroll profile's signing identity (HANGAR_ENROLL_SIGNING_SECRET_ARN), when the stage names one. */
  enrollSigningSecretArn?: string;
}

const allow = (actions: readonly string[], resources: string[]) =>
  new PolicyStatement({ effect: Effect.ALLOW, actions: [...actions], resources });

/** The statements of one function's row of `access`: a field it lacks gives no statement. */
export function functionStatements(name: FunctionName, arns: AccessArns): PolicyStatement[] {
  const grants = accessOf(name);
  const rows: [readonly string[] | undefined, string[] | undefined][] = [
    [grants.table, [arns.tableArn]],
    [grants.objects, [arns.uploadsArn]],
    [grants.mail, arns.mailIdentityArns],
    [grants.originSecret ? secretActions : undefined, arns.originVerifySecretArn ? [arns.originVerifySecretArn] : undefined],
    [grants.buildMailQueue ? ["sqs:SendMessage"] : undefined, arns.buildMailQueueArn ? [arns.buildMailQueueArn] : undefined],
    [grants.webhookQueue ? webhookQueueActions : undefined, arns.webhookQueueArn ? [arns.webhookQueueArn] : undefined],
    [grants.appStoreConnectSecret ? secretActions : undefined, arns.appStoreConnectSecretArn ? [arns.appStoreConnectSecretArn] : undefined],
    [grants.enrollSigningSecret ? secretActions : undefined, arns.enrollSigningSecretArn ? [arns.enrollSigningSecretArn] : undefined],
  ];
  const statements = rows
    .filter(([actions, resources]) => actions?.length && resources?.length)
    .map(([actions, resources]) => allow(actions!, resources!));
  // The one GSI by name, not `<table>/index/*`.
  if (grants.index?.length) statements.push(allow(grants.index, [`${arns.tableArn}/index/${tableDefinition.gsi1.name}`]));
  if (grants.bucket?.length && arns.bucketArn) {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...grants.bucket],
        resources: [arns.bucketArn],
        conditions: { StringLike: { "s3:prefix": ["uploads/*"] } },
      }),
    );
  }
  return statements;
}

export function reaperStatements(arns: AccessArns): PolicyStatement[] {
  return [
    allow(reaperActions.uploads, [arns.uploadsArn]),
    allow(reaperActions.stream, [arns.tableStreamArn]),
    ...(arns.bucketArn
      ? [
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: [...reaperActions.bucket],
            resources: [arns.bucketArn],
            conditions: { StringLike: { "s3:prefix": ["uploads/*"] } },
          }),
        ]
      : []),
  ];
}

/** The SES event handler's statements: its table actions on the table ARN only. */
export function sesEventsStatements(arns: Pick<AccessArns, "tableArn">): PolicyStatement[] {
  return [allow(sesEventsActions.table, [arns.tableArn])];
}

/**
 * SES ARNs a mail-sending function may SendEmail on: the address identity and its domain's (SES
 * authorizes against whichever of the two is verified; the stack creates the domain's), and the
 * stage's configuration set, which every send names.
 */
export function mailIdentityArns(
  mailFrom: MailFrom | undefined,
  configurationSetName: string | undefined,
  partition: string,
  region: string,
  account: string,
): string[] {
  if (!mailFrom) return [];
  const arn = (resource: string) => `arn:${partition}:ses:${region}:${account}:${resource}`;
  return [
    arn(`identity/${mailFrom.address}`),
    arn(`identity/${mailFrom.domain}`),
    ...(configurationSetName ? [arn(`configuration-set/${configurationSetName}`)] : []),
  ];
}

/** One row of docs/deploy.md's permission table ("Least privilege"), derived from the tables above. */
export interface PermissionRow {
  fn: string;
  table: readonly string[];
  index: readonly string[];
  bucket: readonly string[];
  objects: readonly string[];
  other: readonly string[];
}

const strip = (actions: readonly string[] | undefined) => (actions ?? []).map((a) => a.slice(a.indexOf(":") + 1));

/**
 * Every function's grants beside its own logs, in the order of routes.ts's function table, then
 * the fallback and the background functions. docs/deploy.md prints permissionsTable(), and a
 * stack test keeps the two identical; the templates are checked against these tables as well.
 */
export function permissionRows(routeFunctions: readonly RouteFunctionName[]): PermissionRow[] {
  const row = (name: FunctionName, other: string[]): PermissionRow => {
    const grants = accessOf(name);
    return { fn: name, table: strip(grants.table), index: strip(grants.index), bucket: strip(grants.bucket), objects: strip(grants.objects), other };
  };
  const http = routeFunctions.map((name) => {
    const grants = accessOf(name);
    return row(name, [
      ...(grants.originSecret ? [`${secretActions.join(", ")} (origin secret)`] : []),
      ...(grants.mail?.length ? [`${grants.mail.join(", ")} (mail identity, configuration set)`] : []),
      ...(grants.selfInvoke ? ["lambda:InvokeFunction (itself)", `${backgroundFailureActions.join(", ")} (BackgroundFailures)`] : []),
      ...(grants.buildMailQueue ? ["sqs:SendMessage (BuildMail)"] : []),
      ...(grants.webhookQueue ? [`${webhookQueueActions.join(", ")} (WebhookQueue)`] : []),
      ...(grants.appStoreConnectSecret ? [`${secretActions.join(", ")} (App Store Connect key, when configured)`] : []),
      ...(grants.enrollSigningSecret ? [`${secretActions.join(", ")} (enroll profile's signing identity, when configured)`] : []),
    ]);
  });
  const resume = row(RESUME_DELETES_AS, [`${secretActions.join(", ")} (origin secret)`, `${backgroundFailureActions.join(", ")} (BackgroundFailures)`]);
  return [
    ...http,
    row("fallback", []),
    { ...resume, fn: "ResumeDeletes" },
    { fn: "SesEvents", table: strip(sesEventsActions.table), index: [], bucket: [], objects: [], other: [`${backgroundFailureActions.join(", ")} (BackgroundFailures)`] },
    {
      fn: "DistributionMail",
      table: strip(distributionMailActions.table),
      index: [],
      bucket: [],
      objects: [],
      other: [`${distributionMailActions.mail.join(", ")} (mail identity, configuration set)`, "sqs:ReceiveMessage, DeleteMessage, ChangeMessageVisibility, GetQueueAttributes, GetQueueUrl (BuildMail, event source)"],
    },
    {
      fn: "WebhookDelivery",
      table: strip(webhookDeliveryActions.table),
      index: [],
      bucket: [],
      objects: [],
      other: [`${webhookDeliveryActions.queue.join(", ")} (WebhookQueue; receive and delete by its event source)`, `${webhookDeliveryActions.mail.join(", ")} (mail identity, configuration set)`],
    },
    {
      fn: "DailyHousekeeping",
      table: strip(dailyHousekeepingActions.table),
      index: strip(dailyHousekeepingActions.index),
      bucket: strip(dailyHousekeepingActions.bucket),
      objects: strip(dailyHousekeepingActions.objects),
      other: [`${dailyHousekeepingActions.queue.join(", ")} (WebhookQueue)`, `${dailyHousekeepingActions.mail.join(", ")} (mail identity, configuration set)`, `${backgroundFailureActions.join(", ")} (BackgroundFailures)`],
    },
    { fn: "MigrateWorkspaces", table: strip(migrationActions.table), index: strip(migrationActions.index), bucket: [], objects: [], other: [] },
    {
      fn: "ReapExpiredUploads",
      table: strip(reaperActions.stream).map((a) => `${a} (stream)`),
      index: [],
      bucket: strip(reaperActions.bucket),
      objects: strip(reaperActions.uploads),
      other: ["sqs:SendMessage (ReapExpiredUploadsFailures)"],
    },
  ];
}

/** The markdown table of permissionRows(). */
export function permissionsTable(routeFunctions: readonly RouteFunctionName[]): string {
  const cell = (actions: readonly string[]) => (actions.length ? actions.join(", ") : "—");
  return [
    "| Function | DynamoDB table | Index `gsi1` | Bucket (only `uploads/`) | Objects `uploads/*` | Other |",
    "|---|---|---|---|---|---|",
    ...permissionRows(routeFunctions).map((r) => `| ${r.fn} | ${cell(r.table)} | ${cell(r.index)} | ${cell(r.bucket)} | ${cell(r.objects)} | ${cell(r.other)} |`),
  ].join("\n");
}
