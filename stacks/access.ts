import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { tableDefinition } from "@hangar/core";
import type { MailFrom } from "@hangar/core/mail-from";
import type { RouteFunctionName } from "@hangar/functions";

/**
 * Exact IAM actions per function. SST's `bind` is not used for the table and bucket because it
 * grants `dynamodb:*` / `s3:*`; every action here is one a use case performs, on the table ARN
 * or the `uploads/*` objects only. No function queries the GSI, so `<table>/index/*` is absent.
 *
 * Authorization notes: HeadObject is authorized by s3:GetObject (s3:GetObjectVersion with a
 * versionId); TransactWriteItems is authorized per contained action (Update/Put/ConditionCheck),
 * not by an action of its own.
 */
export const tableActions = {
  presign: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem"],
  complete: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:ConditionCheckItem"],
  // The pending record of a multipart upload (Put at start, Get for part URLs, Delete at abort).
  multipart: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:DeleteItem"],
  // The share item with its settings; UpdateItem counts downloads (download) and install starts and
  // wrong link passwords (share).
  download: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
  share: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
  // Users, sessions, tokens, limiter counters: sessions are listed with a Query of the user's
  // partition and ended with BatchWriteItem; sign-up writes user + e-mail in one transaction (Put).
  accounts: [
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:Query",
    "dynamodb:BatchWriteItem",
  ],
  // Dashboard functions. All three authenticate by session (GetItem, UpdateItem to slide it,
  // DeleteItem when it expired). Projects: project + name items in transactions (Put/Update/
  // Delete), counters, purges (Query of usage, BatchWriteItem of records, share traces and usage
  // items); the account delete also ends sessions (Query + BatchWriteItem) and removes user + e-mail.
  // The file list reads its rows' link counts in one BatchGetItem.
  projects: [
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:Query",
    "dynamodb:BatchWriteItem",
    // The exact project and key limits: counting items from before counting checks each one.
    "dynamodb:ConditionCheckItem",
  ],
  // Keys: create (PutItem), revoke/regenerate (UpdateItem), usage days (Query of USAGE#<id>); the
  // active-key count rides in the create and revoke transactions (ConditionCheckItem when counting
  // a project's keys from before counting).
  keys: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
  // Files: get, the latest files' link counts (BatchGetItem), delete (BatchWriteItem of record,
  // seal and the share item's trace), the project's count (UpdateItem).
  files: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"],
  // Links: session (Get/Update/Delete), file + project + share reads, settings (a transaction of
  // ConditionCheck on the project and Update of the share item), regenerate (a transaction of Put new
  // share, Put the old one's trace, Update file).
  links: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"],
  // The CLI tarball is packed from files in its own bundle: no table.
  cli: [],
} as const satisfies Record<RouteFunctionName, readonly string[]>;

/**
 * Queries of the GSI (`<table>/index/gsi1`): a project's files and keys, newest first. Only the
 * dashboard functions list anything.
 */
export const indexActions: Partial<Record<string, readonly string[]>> = {
  projects: ["dynamodb:Query"],
  keys: ["dynamodb:Query"],
  files: ["dynamodb:Query"],
};

/**
 * On the bucket itself, limited by a condition to keys under `uploads/`: listing every version
 * of a file's or project's objects so each can be deleted for good (the bucket is versioned).
 */
export const bucketActions: Partial<Record<string, readonly string[]>> = {
  projects: ["s3:ListBucketVersions"],
  files: ["s3:ListBucketVersions"],
};

/**
 * Functions that invoke themselves asynchronously for background work
 * (packages/functions/src/composition/background.ts): projects to finish a long delete, accounts
 * to send the mails of sign-up, resend and reset after the answer (equal work for every address).
 * lambda:InvokeFunction on their own ARN; failed runs go to the BackgroundFailures queue.
 */
export const selfInvoking: readonly string[] = ["projects", "accounts"];

export const uploadActions = {
  // The presigned PUT is executed with the presign function's credentials.
  presign: ["s3:PutObject"],
  // Reads the package (HEAD, then ranged GETs of the version HEAD saw) and stores the icon beside it.
  // CompleteMultipartUpload is authorized by s3:PutObject; its part list is checked against ListParts.
  complete: ["s3:GetObject", "s3:GetObjectVersion", "s3:PutObject", "s3:ListMultipartUploadParts"],
  // CreateMultipartUpload and the presigned UploadParts (run with its credentials) are authorized by
  // s3:PutObject; the abort route by s3:AbortMultipartUpload.
  multipart: ["s3:PutObject", "s3:AbortMultipartUpload"],
  // Presigned GETs run with these functions' credentials; they name the version complete pinned.
  download: ["s3:GetObject", "s3:GetObjectVersion"],
  share: ["s3:GetObject", "s3:GetObjectVersion"],
  // No object access at all.
  accounts: [],
  // Presigned icon GETs in answers; deleting every version of a file's or project's objects.
  projects: ["s3:GetObject", "s3:GetObjectVersion", "s3:DeleteObjectVersion"],
  keys: [],
  files: ["s3:GetObject", "s3:GetObjectVersion", "s3:DeleteObjectVersion"],
  links: [],
  cli: [],
} as const satisfies Record<RouteFunctionName, readonly string[]>;

/**
 * Functions that send mail, and what they may do with SES: SendEmail (SES v2) on the identity of
 * the stage's HANGAR_MAIL_FROM and on the stage's configuration set (SES v2 authorizes a send
 * against both when the request names a set). Keyed by name like the tables above; a function of
 * this table that is not (yet) in routes.ts is ignored.
 */
export const mailActions: Partial<Record<string, readonly string[]>> = {
  accounts: ["ses:SendEmail"],
};

/**
 * Deletes the object of an upload whose pending record expired, and seals completed uploads
 * (lists the versions of a package's key and destroys all but the pinned one; see storage-stack.ts).
 */
/**
 * The functions that answer HTTP read the origin secret at cold start (its ARN is in their
 * environment): GetSecretValue on that one secret. The fallback reads nothing.
 */
export const secretActions = ["secretsmanager:GetSecretValue"] as const;

/**
 * The SES event handler (mail/ses-events.handler.ts, fed by the configuration set's SNS topic):
 * reads the account of a bounced or complaining address, records the suppression (Put) and marks
 * the account (Update). No object access, no mail.
 */
export const sesEventsActions = {
  table: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
} as const;

/**
 * The scheduled housekeeping function that finishes projects and accounts left in "deleting"
 * (housekeeping/resume-deletes.handler.ts) runs the same purge as the `projects` function, so it
 * gets exactly that function's table, index, version-listing and uploads statements (and the
 * origin secret, read by the shared composition root), without the self-invocation.
 */
export const RESUME_DELETES_AS = "projects" satisfies RouteFunctionName;

/**
 * Functions whose background work (an asynchronous invocation) lands on the stage's background
 * failures queue when it fails for good: they may sqs:SendMessage to that queue (granted by
 * Lambda's destination configuration, api-stack.ts).
 */
export const backgroundFailureActions = ["sqs:SendMessage"] as const;

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
}

const allow = (actions: readonly string[], resources: string[]) =>
  new PolicyStatement({ effect: Effect.ALLOW, actions: [...actions], resources });

/** The statements of one function: a table with no actions for it (e.g. `[]`) gives none. */
export function functionStatements(name: RouteFunctionName, arns: AccessArns): PolicyStatement[] {
  const rows: [readonly string[] | undefined, string[] | undefined][] = [
    [(tableActions as Partial<Record<string, readonly string[]>>)[name], [arns.tableArn]],
    [(uploadActions as Partial<Record<string, readonly string[]>>)[name], [arns.uploadsArn]],
    [mailActions[name], arns.mailIdentityArns],
    [secretActions, arns.originVerifySecretArn ? [arns.originVerifySecretArn] : undefined],
  ];
  const statements = rows
    .filter(([actions, resources]) => actions?.length && resources?.length)
    .map(([actions, resources]) => allow(actions!, resources!));
  const index = indexActions[name];
  // The one GSI by name, not `<table>/index/*`.
  if (index?.length) statements.push(allow(index, [`${arns.tableArn}/index/${tableDefinition.gsi1.name}`]));
  const bucket = bucketActions[name];
  if (bucket?.length && arns.bucketArn) {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...bucket],
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
  const row = (name: string, other: string[]): PermissionRow => ({
    fn: name,
    table: strip((tableActions as Partial<Record<string, readonly string[]>>)[name]),
    index: strip(indexActions[name]),
    bucket: strip(bucketActions[name]),
    objects: strip((uploadActions as Partial<Record<string, readonly string[]>>)[name]),
    other,
  });
  const http = routeFunctions.map((name) =>
    row(name, [
      `${secretActions.join(", ")} (origin secret)`,
      ...(mailActions[name] ? [`${mailActions[name].join(", ")} (mail identity, configuration set)`] : []),
      ...(selfInvoking.includes(name) ? ["lambda:InvokeFunction (itself)", `${backgroundFailureActions.join(", ")} (BackgroundFailures)`] : []),
    ]),
  );
  const resume = row(RESUME_DELETES_AS, [`${secretActions.join(", ")} (origin secret)`, `${backgroundFailureActions.join(", ")} (BackgroundFailures)`]);
  return [
    ...http,
    { fn: "fallback", table: [], index: [], bucket: [], objects: [], other: [] },
    { ...resume, fn: "ResumeDeletes" },
    { fn: "SesEvents", table: strip(sesEventsActions.table), index: [], bucket: [], objects: [], other: [`${backgroundFailureActions.join(", ")} (BackgroundFailures)`] },
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
