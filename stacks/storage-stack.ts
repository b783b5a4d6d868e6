import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { FilterCriteria, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { BlockPublicAccess, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Bucket, Function, Table, type StackContext } from "sst/constructs";
import { tableDefinition as keys } from "@hangar/core";
import { reaperStatements } from "./access";
import { REAPER_HANDLER } from "./handlers";
import { stageSettings } from "./settings";

/** Where packages and their icons live; every function's S3 grant is limited to it. */
export const UPLOADS_PREFIX = "uploads/";

/**
 * Lambda event filter for the reaper: only deletions made by DynamoDB's TTL process
 * (principal dynamodb.amazonaws.com) of file records still pending (or rejected, should
 * rejected records ever keep a ttl). Completed records have no ttl, so they never match.
 */
export const expiredUploadFilter = {
  eventName: ["REMOVE"],
  userIdentity: { type: ["Service"], principalId: ["dynamodb.amazonaws.com"] },
  dynamodb: { OldImage: { type: { S: ["file"] }, status: { S: ["pending", "rejected"] } } },
};

export { REAPER_HANDLER };

export function StorageStack({ stack, app }: StackContext) {
  const settings = stageSettings(app.stage);
  const removalPolicy = settings.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

  // One table for every entity; key names come from core, which the local stack shares.
  const table = new Table(stack, "Table", {
    fields: {
      [keys.partitionKey]: "string",
      [keys.sortKey]: "string",
      [keys.gsi1.partitionKey]: "string",
      [keys.gsi1.sortKey]: "string",
    },
    primaryIndex: { partitionKey: keys.partitionKey, sortKey: keys.sortKey },
    globalIndexes: { [keys.gsi1.name]: { partitionKey: keys.gsi1.partitionKey, sortKey: keys.gsi1.sortKey } },
    timeToLiveAttribute: keys.ttlAttribute,
    // OLD_IMAGE is all the reaper needs: the key of the object of an expired pending record.
    stream: "old_image",
    // SST's Table is already on-demand with point-in-time recovery.
    cdk: { table: { deletionProtection: settings.production, removalPolicy } },
  });

  const bucket = new Bucket(stack, "Uploads", {
    cors: [
      {
        // The CI client does not need CORS; this is for browser uploads from a dashboard.
        allowedMethods: ["PUT", "GET", "HEAD"],
        allowedOrigins: settings.corsOrigins,
        allowedHeaders: ["*"],
        exposedHeaders: ["ETag"],
        maxAge: "1 hour",
      },
    ],
    cdk: {
      bucket: {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        // ACLs off: access is decided by IAM and the bucket policy only.
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        lifecycleRules: [
          { id: "abort-incomplete-multipart-uploads", abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ],
        removalPolicy,
        autoDeleteObjects: !settings.production,
      },
    },
  });

  const arns = {
    tableArn: table.tableArn,
    uploadsArn: bucket.cdk.bucket.arnForObjects(`${UPLOADS_PREFIX}*`),
  };

  /*
   * Objects of uploads that are never completed are removed when their pending record
   * expires (DynamoDB TTL) instead of by an S3 lifecycle rule on a tag: S3 ignores
   * x-amz-tagging hoisted into a presigned URL's query string, and signing it as a header
   * would force CI clients to send it. See docs/deploy.md ("Uploads never completed").
   */
  const reaper = new Function(stack, "ReapExpiredUploads", {
    handler: REAPER_HANDLER,
    memorySize: "256 MB",
    timeout: "30 seconds",
    environment: { HANGAR_BUCKET_NAME: bucket.bucketName, POWERTOOLS_LOG_LEVEL: settings.logLevel },
    logGroup: new LogGroup(stack, "ReapExpiredUploadsLogs", {
      retention: RetentionDays[settings.logRetention.toUpperCase() as keyof typeof RetentionDays],
      removalPolicy,
    }),
  });
  reaper.attachPermissions(reaperStatements(arns));
  reaper.addEventSourceMapping("ExpiredUploads", {
    eventSourceArn: table.cdk.table.tableStreamArn!,
    startingPosition: StartingPosition.LATEST,
    batchSize: 100,
    maxBatchingWindow: Duration.seconds(60),
    bisectBatchOnError: true,
    retryAttempts: 5,
    reportBatchItemFailures: true,
    filters: [FilterCriteria.filter(expiredUploadFilter)],
  });

  stack.addOutputs({
    TableName: table.tableName,
    BucketName: bucket.bucketName,
  });

  return { table, bucket, arns, reaper };
}
