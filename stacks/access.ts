import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { RouteFunctionName } from "@hangar/functions";

/**
 * Exact IAM actions per function. SST's `bind` is not used for the table and bucket because it
 * grants `dynamodb:*` / `s3:*`; every action here is one a use case performs, on the table ARN
 * or the `uploads/*` objects only. No function queries the GSI, so `<table>/index/*` is absent.
 *
 * Authorization notes: HeadObject is authorized by s3:GetObject; TransactWriteItems is
 * authorized per contained action (Update/Put/ConditionCheck), not by an action of its own.
 */
export const tableActions = {
  presign: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem"],
  complete: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:ConditionCheckItem"],
  download: ["dynamodb:GetItem"],
  share: ["dynamodb:GetItem"],
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
} as const satisfies Record<RouteFunctionName, readonly string[]>;

export const uploadActions = {
  // The presigned PUT is executed with the presign function's credentials.
  presign: ["s3:PutObject"],
  // Reads the package (ranged GETs, HEAD) and stores the extracted icon beside it.
  complete: ["s3:GetObject", "s3:PutObject"],
  // Presigned GETs run with these functions' credentials.
  download: ["s3:GetObject"],
  share: ["s3:GetObject"],
  // No object access at all.
  accounts: [],
} as const satisfies Record<RouteFunctionName, readonly string[]>;

/** Deletes the object of an upload whose pending record expired (see storage-stack.ts). */
export const reaperActions = {
  uploads: ["s3:DeleteObject"],
  // Scoped to the table's streams, as in the DynamoDB guide's policy for stream consumers.
  stream: ["dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"],
} as const;

export interface AccessArns {
  tableArn: string;
  /** `arn:...:s3:::<bucket>/uploads/*` */
  uploadsArn: string;
}

export function functionStatements(name: RouteFunctionName, arns: AccessArns): PolicyStatement[] {
  const uploads: readonly string[] = uploadActions[name];
  return [
    new PolicyStatement({ effect: Effect.ALLOW, actions: [...tableActions[name]], resources: [arns.tableArn] }),
    // A function without object access gets no S3 statement (an empty one is not valid IAM).
    ...(uploads.length > 0 ? [new PolicyStatement({ effect: Effect.ALLOW, actions: [...uploads], resources: [arns.uploadsArn] })] : []),
  ];
}

export function reaperStatements(arns: AccessArns): PolicyStatement[] {
  return [
    new PolicyStatement({ effect: Effect.ALLOW, actions: [...reaperActions.uploads], resources: [arns.uploadsArn] }),
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...reaperActions.stream],
      resources: [`${arns.tableArn}/stream/*`],
    }),
  ];
}
