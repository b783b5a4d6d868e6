import { Annotations, Duration, RemovalPolicy } from "aws-cdk-lib";
import { FilterCriteria, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { SqsDlq } from "aws-cdk-lib/aws-lambda-event-sources";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { BlockPublicAccess, Bucket as CdkBucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Bucket, Function, Table, type BucketCorsRule, type StackContext } from "sst/constructs";
import { tableDefinition as keys } from "@hangar/core";
import { reaperStatements } from "./access";
import { alarmTopic, deadLetterAlarm, functionAlarms, iteratorAgeAlarm, tableAlarms } from "./alarms";
import { REAPER_HANDLER } from "./handlers";
import { suppressProviders, suppressReaper } from "./nag";
import { stageSettings, type StageSettings } from "./settings";

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

/**
 * And TTL deletions of `seal` items: complete writes one per pinned package, due when its upload
 * URL is dead; the reaper then destroys every other version of the key (core sealUpload), so
 * the noncurrent-version expiry rule can never take a completed build away.
 */
export const sealFilter = {
  eventName: ["REMOVE"],
  userIdentity: { type: ["Service"], principalId: ["dynamodb.amazonaws.com"] },
  dynamodb: { OldImage: { type: { S: ["seal"] } } },
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
    cdk: {
      table: {
        deletionProtection: settings.production,
        removalPolicy,
        /*
         * SST names the table `<stage>-hangar-Table`. A retained table with a fixed name makes
         * `sst remove` + `sst deploy` of a production stage fail ("already exists"), so the name
         * is generated (the functions get it from their environment, scripts from the TableName
         * output). Stages deployed with the old name keep it with HANGAR_LEGACY_TABLE_NAME: a new
         * name would replace the table (docs/deploy.md, "Re-deploying production").
         */
        ...(settings.legacyTableName ? {} : { tableName: undefined }),
      },
    },
  });
  if (settings.production && !settings.legacyTableName) {
    Annotations.of(table).addWarning(
      `The table's name is generated. If ${app.stage} was deployed before with the table ${app.logicalPrefixedName("Table")}, set HANGAR_LEGACY_TABLE_NAME=true first: otherwise this deploy creates a new, empty table (docs/deploy.md).`,
    );
  }

  // Server access logs (a stage setting): who read or wrote which object, kept apart from the data.
  const accessLogs = settings.bucketAccessLogs
    ? new CdkBucket(stack, "UploadsAccessLogs", {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        // S3 delivers server access logs only to SSE-S3 buckets.
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        lifecycleRules: [{ id: "expire-access-logs", expiration: Duration.days(365) }],
        removalPolicy,
        autoDeleteObjects: !settings.production,
      })
    : undefined;
  if (accessLogs) {
    NagSuppressions.addResourceSuppressions(accessLogs, [
      { id: "AwsSolutions-S1", reason: "This is the access-log bucket itself: logging its own reads would recurse." },
    ]);
  }

  const bucket = new Bucket(stack, "Uploads", {
    // The dashboard's browser uploads PUT to presigned URLs on the bucket's own host: a rule for
    // exactly the dashboard's origin (dashboardUploadCors). Other origins only when configured.
    cors: uploadsCors(settings),
    cdk: {
      bucket: {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        // ACLs off: access is decided by IAM and the bucket policy only.
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        /*
         * Versioned on every stage: complete pins the version it inspected and downloads are
         * signed for it, so a later PUT to a still-valid upload URL cannot swap a finished build.
         * Replaced and deleted versions are kept for the recovery window, then expired.
         */
        versioned: true,
        lifecycleRules: [
          { id: "abort-incomplete-multipart-uploads", abortIncompleteMultipartUploadAfter: Duration.days(1) },
          {
            id: "expire-noncurrent-versions",
            noncurrentVersionExpiration: Duration.days(settings.noncurrentVersionDays),
            // A delete marker whose versions all expired is clutter S3 removes with this.
            expiredObjectDeleteMarker: true,
          },
        ],
        ...(accessLogs ? { serverAccessLogsBucket: accessLogs, serverAccessLogsPrefix: "uploads/" } : {}),
        removalPolicy,
        autoDeleteObjects: !settings.production,
      },
    },
  });
  if (!accessLogs) {
    NagSuppressions.addResourceSuppressions(bucket.cdk.bucket, [
      { id: "AwsSolutions-S1", reason: "Server access logging is a stage setting (HANGAR_BUCKET_ACCESS_LOGS, on for production); off here." },
    ]);
  }

  const arns = {
    tableArn: table.tableArn,
    tableStreamArn: table.cdk.table.tableStreamArn!,
    uploadsArn: bucket.cdk.bucket.arnForObjects(`${UPLOADS_PREFIX}*`),
    bucketArn: bucket.cdk.bucket.bucketArn,
  };
  const topic = settings.alarms ? alarmTopic(stack, settings) : undefined;

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
    // The same settings as every function (one schema); it only uses the bucket.
    environment: {
      HANGAR_TABLE_NAME: table.tableName,
      HANGAR_BUCKET_NAME: bucket.bucketName,
      HANGAR_STAGE: settings.stage,
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
    },
    logGroup: new LogGroup(stack, "ReapExpiredUploadsLogs", {
      retention: RetentionDays[settings.logRetention.toUpperCase() as keyof typeof RetentionDays],
      removalPolicy,
    }),
  });
  reaper.attachPermissions(reaperStatements(arns));
  suppressReaper(reaper);
  // Records whose delete still fails after the retries land here (their stream position, not the
  // data), so an operator can see which uploads kept their object instead of losing the trace.
  const reaperFailures = new Queue(stack, "ReapExpiredUploadsFailures", {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy,
  });
  NagSuppressions.addResourceSuppressions(reaperFailures, [
    { id: "AwsSolutions-SQS3", reason: "This queue is itself the dead-letter destination of the reaper's stream mapping." },
    { id: "Serverless-SQSRedrivePolicy", reason: "This queue is itself the dead-letter destination of the reaper's stream mapping." },
  ]);
  reaper.addEventSourceMapping("ExpiredUploads", {
    eventSourceArn: arns.tableStreamArn,
    startingPosition: StartingPosition.LATEST,
    batchSize: 100,
    maxBatchingWindow: Duration.seconds(60),
    bisectBatchOnError: true,
    retryAttempts: 5,
    reportBatchItemFailures: true,
    onFailure: new SqsDlq(reaperFailures),
    filters: [FilterCriteria.filter(expiredUploadFilter), FilterCriteria.filter(sealFilter)],
  });
  if (topic) {
    functionAlarms(stack, "ReapExpiredUploads", reaper, topic);
    iteratorAgeAlarm(stack, reaper, topic);
    deadLetterAlarm(stack, reaperFailures, topic);
    tableAlarms(stack, table.tableName, keys.gsi1.name, topic);
  }

  suppressProviders(stack);
  stack.addOutputs({
    TableName: table.tableName,
    BucketName: bucket.bucketName,
  });

  return { table, bucket, arns, reaper, reaperFailures, topic, accessLogs };
}

/**
 * The dashboard's origins as known at synth: the public URL's and the custom domain's. A stage on
 * CloudFront's generated domain has none (that name exists only once the distribution does, in a
 * stack that depends on this one): browser uploads there need HANGAR_PUBLIC_URL or a custom domain.
 */
export function dashboardOrigins(settings: Pick<StageSettings, "publicUrl" | "customDomain">): string[] {
  const origins = [
    ...(settings.publicUrl ? [new URL(settings.publicUrl).origin] : []),
    ...(settings.customDomain ? [`https://${settings.customDomain.domainName}`] : []),
  ];
  return [...new Set(origins)];
}

/**
 * What the dashboard's upload PUTs need and nothing more: PUT from its origin, the Content-Type a
 * single presigned PUT signs, the CRC32C header a part may carry (the part URLs sign it in the
 * query), and the ETag exposed, which a multipart complete lists per part. Then the origins a
 * stage adds with HANGAR_CORS_ORIGINS, as before.
 */
export function uploadsCors(settings: Pick<StageSettings, "publicUrl" | "customDomain" | "corsOrigins">): BucketCorsRule[] | false {
  const dashboard = dashboardOrigins(settings);
  const rules: BucketCorsRule[] = [
    ...(dashboard.length > 0
      ? [{ allowedMethods: ["PUT"], allowedOrigins: dashboard, allowedHeaders: ["Content-Type", "x-amz-checksum-crc32c"], exposedHeaders: ["ETag"], maxAge: "1 hour" } satisfies BucketCorsRule]
      : []),
    ...(settings.corsOrigins.length > 0
      ? [{ allowedMethods: ["PUT", "GET", "HEAD"], allowedOrigins: settings.corsOrigins, allowedHeaders: ["*"], exposedHeaders: ["ETag"], maxAge: "1 hour" } satisfies BucketCorsRule]
      : []),
  ];
  return rules.length > 0 ? rules : false;
}
