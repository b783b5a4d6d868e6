import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Match, Template } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Settings, fallbackHandler, functions as functionTable, routeKey, routes, type RouteFunctionName } from "@hangar/functions";
import type { CloudAssembly } from "aws-cdk-lib/cx-api";
import { access, accessOf, migrationActions, permissionsTable, reaperActions, secretActions } from "../access";
import { REAPER_ITERATOR_AGE_ALARM_MS } from "../alarms";
import { accessLogFormat, COMPLETE_P99_ALARM_MS, WEBHOOK_QUEUE_DEPTH_ALARM } from "../api-stack";
import { DAILY_HOUSEKEEPING_HANDLER, MIGRATE_WORKSPACES_HANDLER, RESUME_DELETES_HANDLER, SES_EVENTS_HANDLER } from "../handlers";
import { expiredUploadFilter, REAPER_HANDLER, sealFilter, uploadsCors } from "../storage-stack";
import { API_ORIGIN_HEADERS, apiPathPatterns, dashboardCsp, ORIGIN_READ_TIMEOUT_SECONDS, SPA_REWRITE_CODE, VIEWER_HOST_CODE } from "../web-stack";
import { nagFindings, REPO_ROOT, synthesize } from "../synthesize";
import {
  allIdentityStatements,
  asList,
  deployedHandler,
  functionByHandler,
  ofType,
  ownFunctions,
  props,
  roleStatements,
  routeTargets,
  type CfnResource,
  type CfnTemplate,
  type Statement,
} from "./template-helpers";

/**
 * Synthesizes two stages once, offline, exactly as `npm run synth` does (SST bundles every
 * function with esbuild on the way), and checks the templates.
 */

const SETTING_KEYS = [
  "HANGAR_PRODUCTION",
  "HANGAR_PUBLIC_URL",
  "HANGAR_SHARE_BASE_URL",
  "HANGAR_MAX_FILE_SIZE",
  "HANGAR_MAX_MULTIPART_FILE_SIZE",
  "HANGAR_RATE_LIMIT",
  "HANGAR_RATE_WINDOW_SECONDS",
  "HANGAR_PENDING_TTL_SECONDS",
  "HANGAR_DOMAIN_NAME",
  "HANGAR_DOMAIN_CERTIFICATE_ARN",
  "HANGAR_DOMAIN_HOSTED_ZONE",
  "HANGAR_LOG_RETENTION",
  "HANGAR_LOG_LEVEL",
  "HANGAR_CORS_ORIGINS",
  "HANGAR_ALARMS",
  "HANGAR_ALARM_EMAIL",
  "HANGAR_API_THROTTLE_RATE",
  "HANGAR_API_THROTTLE_BURST",
  "HANGAR_COMPLETE_THROTTLE_RATE",
  "HANGAR_COMPLETE_THROTTLE_BURST",
  "HANGAR_PUBLIC_THROTTLE_RATE",
  "HANGAR_PUBLIC_THROTTLE_BURST",
  "HANGAR_COMPLETE_RESERVED_CONCURRENCY",
  "HANGAR_NONCURRENT_VERSION_DAYS",
  "HANGAR_BUCKET_ACCESS_LOGS",
  "HANGAR_MAIL_FROM",
  "HANGAR_MAIL_HOSTED_ZONE",
  "HANGAR_MAIL_IDENTITY",
  "HANGAR_SHARE_HOSTED_ZONE",
  "HANGAR_WAF",
  "HANGAR_WAF_RATE_LIMIT",
  "HANGAR_CLOUDFRONT_LOGS",
  "HANGAR_LEGACY_TABLE_NAME",
  "HANGAR_ORIGIN_SECRET_GENERATION",
  "HANGAR_ASC_ISSUER_ID",
  "HANGAR_ASC_KEY_ID",
  "HANGAR_ASC_PRIVATE_KEY_SECRET_ARN",
  "HANGAR_ENROLL_SIGNING_SECRET_ARN",
];
const unset = Object.fromEntries(SETTING_KEYS.map((k) => [k, undefined]));

// CloudFront's certificates live in us-east-1 whatever the stage's region (eu-west-1 here).
const CERT = "arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000";
const ASC_ISSUER = "57246542-96fe-1a63-e053-0824d011072a";
const ASC_SECRET = "arn:aws:secretsmanager:us-east-1:123456789012:secret:hangar/asc-key-AbCdEf";
const ENROLL_SECRET = "arn:aws:secretsmanager:us-east-1:123456789012:secret:hangar/enroll-identity-AbCdEf";
/**
 * Production as docs/deploy.md shows it: a custom domain in a Route 53 zone, a separate share
 * host in the same zone, mail from a named address at a subdomain of it (DKIM records in the zone).
 */
const prodEnv = {
  ...unset,
  HANGAR_PRODUCTION: "true",
  HANGAR_SHARE_BASE_URL: "https://apps.example.com/",
  HANGAR_MAX_FILE_SIZE: String(1024 ** 3),
  HANGAR_DOMAIN_NAME: "hangar.example.com",
  HANGAR_DOMAIN_HOSTED_ZONE: "example.com",
  HANGAR_LOG_LEVEL: "warn",
  HANGAR_CORS_ORIGINS: "https://dashboard.example.com, https://admin.example.com",
  HANGAR_ALARM_EMAIL: "ops@example.com",
  HANGAR_API_THROTTLE_RATE: "20",
  HANGAR_API_THROTTLE_BURST: "40",
  HANGAR_COMPLETE_RESERVED_CONCURRENCY: "5",
  HANGAR_NONCURRENT_VERSION_DAYS: "60",
  HANGAR_MAIL_FROM: "Hangar <hangar@mail.example.com>",
};

/**
 * Production in us-east-1 with DNS outside Route 53 (a certificate ARN that covers the share
 * host too), the WAF on, CloudFront logs off, mail whose domain has no zone (DKIM as outputs), and
 * a stage deployed before generated table names.
 */
const edgeEnv = {
  ...unset,
  HANGAR_PRODUCTION: "true",
  HANGAR_SHARE_BASE_URL: "https://apps.example.com",
  HANGAR_DOMAIN_NAME: "hangar.example.com",
  HANGAR_DOMAIN_CERTIFICATE_ARN: CERT,
  HANGAR_WAF: "on",
  HANGAR_WAF_RATE_LIMIT: "500",
  HANGAR_CLOUDFRONT_LOGS: "off",
  HANGAR_MAIL_FROM: "noreply@example.org",
  HANGAR_LEGACY_TABLE_NAME: "true",
  // Register with Apple on (docs/devices.md): the App Store Connect key in Secrets Manager.
  HANGAR_ASC_ISSUER_ID: ASC_ISSUER,
  HANGAR_ASC_KEY_ID: "2X9R4HXF34",
  HANGAR_ASC_PRIVATE_KEY_SECRET_ARN: ASC_SECRET,
  // The device enroll profile signed (docs/devices.md): its identity in Secrets Manager.
  HANGAR_ENROLL_SIGNING_SECRET_ARN: ENROLL_SECRET,
};

interface Stage {
  storage: CfnTemplate;
  api: CfnTemplate;
  web: CfnTemplate;
  outdir: string;
  assembly: CloudAssembly;
}
let dev: Stage;
let prod: Stage;
let edge: Stage;
let tmp: string;

async function synthStage(stage: string, env: Record<string, string | undefined>, region = "eu-west-1"): Promise<Stage> {
  const outdir = path.join(tmp, stage);
  const { assembly } = await synthesize({ stage, env, outdir, region });
  const template = (name: string) => assembly.getStackByName(`${stage}-hangar-${name}`).template as CfnTemplate;
  return { storage: template("StorageStack"), api: template("ApiStack"), web: template("WebStack"), outdir, assembly };
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-synth-"));
  dev = await synthStage("hangartest-dev", unset);
  prod = await synthStage("hangartest-prod", prodEnv);
  edge = await synthStage("hangartest-edge", edgeEnv, "us-east-1");
}, 240_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const routeKeys = routes.map(routeKey);
/** The functions that serve routes (the fallback serves `$default`). */
const routeFunctions = (Object.keys(functionTable) as (keyof typeof functionTable)[]).filter((n): n is RouteFunctionName => n !== "fallback");
const handlerOf = (fn: keyof typeof functionTable) => functionTable[fn].handler;

describe("synthesis", () => {
  it("writes one template per stack and a bundled handler per function, offline", async () => {
    const files = await readdir(dev.outdir);
    expect(files).toEqual(
      expect.arrayContaining([
        "hangartest-dev-hangar-StorageStack.template.json",
        "hangartest-dev-hangar-ApiStack.template.json",
        "hangartest-dev-hangar-WebStack.template.json",
      ]),
    );
    // Each function's code is an asset built locally (no Docker): its zip source is a folder
    // holding the esbuild output.
    const assets = files.filter((f) => f.startsWith("asset."));
    expect(assets.length).toBeGreaterThanOrEqual(routeFunctions.length + 2);
  });
});

describe("API routes", () => {
  it("has one route per entry of routes.ts plus $default, each on the function routes.ts names", () => {
    const targets = routeTargets(dev.api);
    expect([...targets.keys()].sort()).toEqual([...routeKeys, "$default"].sort());
    for (const route of routes) {
      const [fnId] = functionByHandler(dev.api, handlerOf(route.fn));
      expect(targets.get(routeKey(route))).toBe(fnId);
    }
    const [fallbackId] = functionByHandler(dev.api, fallbackHandler);
    expect(targets.get("$default")).toBe(fallbackId);
    expect(new Set(targets.values()).size).toBe(routeFunctions.length + 1);
  });

  it("uses HTTP API payload format 2.0 Lambda proxy integrations", () => {
    for (const [, integration] of ofType(dev.api, "AWS::ApiGatewayV2::Integration")) {
      expect(props(integration)).toMatchObject({ IntegrationType: "AWS_PROXY", PayloadFormatVersion: "2.0" });
    }
    Template.fromJSON(dev.api).hasResourceProperties("AWS::ApiGatewayV2::Api", { ProtocolType: "HTTP" });
  });
});

describe("functions", () => {
  const allOwn = (s: Stage) => [...ownFunctions(s.api), ...ownFunctions(s.storage)];

  it("run ESM bundles on nodejs24.x, arm64, without X-Ray", () => {
    // Route functions, the fallback, the reaper, resume-deletes, the workspaces migration, the build-mail
    // sender, the webhook delivery worker, the daily housekeeping; with mail the SES event handler.
    for (const [stage, count] of [[dev, routeFunctions.length + 7], [prod, routeFunctions.length + 8]] as const) {
      const fns = allOwn(stage);
      expect(fns).toHaveLength(count);
      for (const [, fn] of fns) {
        expect(props(fn)).toMatchObject({ Runtime: "nodejs24.x", Architectures: ["arm64"] });
        expect(props(fn).TracingConfig).toBeUndefined();
      }
    }
    functionByHandler(dev.storage, REAPER_HANDLER);
  });

  it("have the memory and timeout of their route (complete: 1024 MB, 29 s)", () => {
    for (const name of Object.keys(functionTable) as (keyof typeof functionTable)[]) {
      const [, fn] = functionByHandler(dev.api, handlerOf(name));
      expect(props(fn)).toMatchObject({ MemorySize: functionTable[name].memoryMB, Timeout: functionTable[name].timeoutSeconds });
    }
    expect(functionTable).toMatchObject({
      presign: { memoryMB: 256, timeoutSeconds: 10 },
      download: { memoryMB: 256, timeoutSeconds: 10 },
      share: { memoryMB: 512, timeoutSeconds: 10 },
      complete: { memoryMB: 1024, timeoutSeconds: 29 },
    });
  });

  it("log to their own log group with the stage's retention", () => {
    for (const [stage, days] of [[dev, 7], [prod, 90]] as const) {
      for (const [, fn] of [...ownFunctions(stage.api), ...ownFunctions(stage.storage)]) {
        const groupId = props<{ LoggingConfig: { LogGroup: { Ref: string } } }>(fn).LoggingConfig.LogGroup.Ref;
        const group = stage.api.Resources[groupId] ?? stage.storage.Resources[groupId];
        expect(props(group).RetentionInDays).toBe(days);
      }
    }
  });

  it("ship the CLI tarball's files beside the cli function, which serves them from its own bundle", async () => {
    const [, fn] = functionByHandler(dev.api, handlerOf("cli"));
    const asset = path.join(dev.outdir, `asset.${props<{ Code: { S3Key: string } }>(fn).Code.S3Key.replace(/\.zip$/, "")}`);
    // Run from a copy outside the repository, as Lambda runs it: only what the bundle holds.
    const copy = await mkdtemp(path.join(os.tmpdir(), "hangar-cli-fn-"));
    try {
      await cp(asset, copy, { recursive: true });
      const handlerFile = path.join(copy, `${path.dirname(functionTable.cli.handler)}/cli-handler.mjs`);
      // Every HTTP function parses the stage's settings before its route runs; on Lambda the stack sets these.
      vi.stubEnv("HANGAR_TABLE_NAME", "table");
      vi.stubEnv("HANGAR_BUCKET_NAME", "bucket");
      const { handler } = (await import(handlerFile)) as { handler: (event: unknown, context: unknown) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }> };
      const answer = await handler(
        { routeKey: "GET /cli/{fileName}", rawPath: "/cli/hangar-cli.tgz", pathParameters: { fileName: "hangar-cli.tgz" }, headers: {}, requestContext: { requestId: "r", http: { method: "GET", path: "/cli/hangar-cli.tgz" } } },
        { awsRequestId: "r", functionName: "cli", getRemainingTimeInMillis: () => 10_000 },
      );
      expect(answer.statusCode).toBe(200);
      expect(answer.headers["Content-Type"]).toBe("application/gzip");
      expect(Buffer.from(answer.body, "base64").subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    } finally {
      vi.unstubAllEnvs();
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe("environment", () => {
  const envOf = (s: Stage, handler: string) =>
    props<{ Environment: { Variables: Record<string, unknown> } }>(functionByHandler(s.api, handler)[1]).Environment.Variables;
  const apiHandlers = Object.values(functionTable).map((f) => f.handler);

  it("gives every API function the table and bucket names from the storage stack", () => {
    for (const handler of apiHandlers) {
      const env = envOf(dev, handler);
      expect(JSON.stringify(env.HANGAR_TABLE_NAME)).toMatch(/Fn::ImportValue.*ExportsOutputRefTable/);
      expect(JSON.stringify(env.HANGAR_BUCKET_NAME)).toMatch(/Fn::ImportValue.*ExportsOutputRefUploadsBucket/);
    }
  });

  it("only sets variables the handlers' settings schema knows", () => {
    const known = new Set(Object.keys(Settings.shape));
    for (const stage of [dev, prod]) {
      for (const handler of apiHandlers) {
        const hangarKeys = Object.keys(envOf(stage, handler)).filter((k) => k.startsWith("HANGAR_"));
        expect(hangarKeys.filter((k) => !known.has(k))).toEqual([]);
      }
    }
  });

  it("leaves unset settings out so the schema's defaults (and the request host) apply", () => {
    const env = envOf(dev, handlerOf("presign"));
    expect(env).not.toHaveProperty("HANGAR_PUBLIC_URL");
    expect(env).not.toHaveProperty("HANGAR_SHARE_BASE_URL");
    expect(env).not.toHaveProperty("HANGAR_MAX_FILE_SIZE");
    expect(env).not.toHaveProperty("HANGAR_LOCAL");
    expect(env.POWERTOOLS_LOG_LEVEL).toBe("INFO");
  });

  it("passes the stage's settings through; links default to the custom domain when there is one", () => {
    const env = envOf(prod, handlerOf("presign"));
    expect(env).toMatchObject({
      HANGAR_PUBLIC_URL: "https://hangar.example.com",
      HANGAR_SHARE_BASE_URL: "https://apps.example.com",
      HANGAR_MAX_FILE_SIZE: String(1024 ** 3),
      HANGAR_MAIL_FROM: "Hangar <hangar@mail.example.com>",
      HANGAR_STAGE: "hangartest-prod",
      POWERTOOLS_LOG_LEVEL: "WARN",
    });
  });

  it("gives the HTTP functions the origin secret's ARN and GetSecretValue on it, never the value", () => {
    for (const stage of [dev, prod]) {
      const [secretId] = ofType(stage.api, "AWS::SecretsManager::Secret")[0]!;
      for (const name of routeFunctions) {
        const env = envOf(stage, handlerOf(name));
        expect(env.HANGAR_ORIGIN_VERIFY_SECRET_ARN).toEqual({ Ref: secretId });
        expect(env).not.toHaveProperty("HANGAR_ORIGIN_VERIFY_SECRET");
        // CloudFront's own header (its origin request policy names it), trusted next to the secret.
        expect(env.HANGAR_CLIENT_IP_HEADER).toBe("cloudfront-viewer-address");
        const read = roleStatements(stage.api, functionByHandler(stage.api, handlerOf(name))[0]).filter((s) => asList(s.Action).includes("secretsmanager:GetSecretValue"));
        expect(read).toEqual([{ Effect: "Allow", Action: "secretsmanager:GetSecretValue", Resource: { Ref: secretId } }]);
      }
      // No function, of any stack, has the value (a dynamic reference) in its environment.
      for (const template of [stage.storage, stage.api]) {
        for (const [, fn] of ownFunctions(template)) expect(JSON.stringify(props(fn).Environment)).not.toContain("{{resolve:secretsmanager:");
      }
      expect(props(ofType(stage.api, "AWS::SecretsManager::Secret")[0]![1]).GenerateSecretString).toMatchObject({ PasswordLength: 48 });
    }
    // The fallback reads nothing.
    expect(envOf(dev, fallbackHandler)).not.toHaveProperty("HANGAR_ORIGIN_VERIFY_SECRET_ARN");
  });

  it("gives every function, background ones included, HANGAR_STAGE (the stage dimension of the custom metrics)", () => {
    for (const [stage, name] of [[dev, "hangartest-dev"], [prod, "hangartest-prod"]] as const) {
      for (const template of [stage.storage, stage.api]) {
        for (const [id, fn] of ownFunctions(template)) {
          expect(props<{ Environment: { Variables: Record<string, unknown> } }>(fn).Environment.Variables.HANGAR_STAGE, id).toBe(name);
        }
      }
    }
  });
});

describe("table", () => {
  it("is one on-demand table: pk/sk, gsi1 on gsi1pk/gsi1sk, ttl, PITR, old-image stream", () => {
    Template.fromJSON(dev.storage).resourceCountIs("AWS::DynamoDB::Table", 1);
    Template.fromJSON(dev.storage).hasResourceProperties("AWS::DynamoDB::Table", {
      BillingMode: "PAY_PER_REQUEST",
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: "pk", AttributeType: "S" },
        { AttributeName: "sk", AttributeType: "S" },
        { AttributeName: "gsi1pk", AttributeType: "S" },
        { AttributeName: "gsi1sk", AttributeType: "S" },
      ]),
      GlobalSecondaryIndexes: [
        {
          IndexName: "gsi1",
          KeySchema: [
            { AttributeName: "gsi1pk", KeyType: "HASH" },
            { AttributeName: "gsi1sk", KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "ALL" },
        },
      ],
      TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: "OLD_IMAGE" },
    });
  });

  it("is retained and deletion-protected on production, destroyed elsewhere", () => {
    const [, prodTable] = ofType(prod.storage, "AWS::DynamoDB::Table")[0]!;
    expect(prodTable).toMatchObject({ DeletionPolicy: "Retain", UpdateReplacePolicy: "Retain" });
    expect(props(prodTable).DeletionProtectionEnabled).toBe(true);
    const [, devTable] = ofType(dev.storage, "AWS::DynamoDB::Table")[0]!;
    expect(devTable).toMatchObject({ DeletionPolicy: "Delete", UpdateReplacePolicy: "Delete" });
    expect(props(devTable).DeletionProtectionEnabled).toBe(false);
  });
});

describe("uploads bucket", () => {
  const bucketOf = (s: Stage) => ofType(s.storage, "AWS::S3::Bucket").find(([id]) => id.startsWith("UploadsBucket"))!;
  const logBucketOf = (s: Stage) => ofType(s.storage, "AWS::S3::Bucket").find(([id]) => id.startsWith("UploadsAccessLogs"));

  it("blocks all public access, disables ACLs and encrypts with S3-managed keys", () => {
    for (const stage of [dev, prod]) {
      for (const [, bucket] of ofType(stage.storage, "AWS::S3::Bucket")) {
        expect(props(bucket)).toMatchObject({
          PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
          OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
          BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] },
        });
      }
    }
  });

  it("denies every request not made over TLS", () => {
    for (const stage of [dev, prod]) {
      for (const [bucketId] of ofType(stage.storage, "AWS::S3::Bucket")) {
        const policy = ofType(stage.storage, "AWS::S3::BucketPolicy").find(([, p]) => JSON.stringify(props(p).Bucket) === JSON.stringify({ Ref: bucketId }));
        const statements = props<{ PolicyDocument: { Statement: Statement[] } }>(policy![1]).PolicyDocument.Statement;
        const tls = statements.find((s) => s.Effect === "Deny");
        expect(tls).toMatchObject({ Action: "s3:*", Principal: { AWS: "*" }, Condition: { Bool: { "aws:SecureTransport": "false" } } });
        expect(JSON.stringify(tls!.Resource)).toContain('"/*"');
      }
    }
  });

  it("is versioned on every stage, so complete can pin the version it inspected", () => {
    for (const stage of [dev, prod]) expect(props(bucketOf(stage)[1]).VersioningConfiguration).toEqual({ Status: "Enabled" });
  });

  it("expires noncurrent versions after the stage's days, drops expired delete markers and aborts stale multipart uploads", () => {
    for (const [stage, days] of [[dev, 30], [prod, 60]] as const) {
      expect(props(bucketOf(stage)[1]).LifecycleConfiguration).toEqual({
        Rules: [
          { Id: "abort-incomplete-multipart-uploads", Status: "Enabled", AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
          { Id: "expire-noncurrent-versions", Status: "Enabled", NoncurrentVersionExpiration: { NoncurrentDays: days }, ExpiredObjectDeleteMarker: true },
        ],
      });
    }
  });

  it("has no CORS unless origins are configured, and then only those (never * by default)", () => {
    expect(props(bucketOf(dev)[1]).CorsConfiguration).toBeUndefined();
    expect(props(bucketOf(prod)[1]).CorsConfiguration).toEqual({
      CorsRules: [
        // The dashboard's browser uploads: PUT from exactly its origin, the headers that PUT sends, ETag for multipart.
        {
          AllowedMethods: ["PUT"],
          AllowedOrigins: ["https://hangar.example.com"],
          AllowedHeaders: ["Content-Type", "x-amz-checksum-crc32c"],
          ExposedHeaders: ["ETag"],
          MaxAge: 3600,
        },
        {
          AllowedMethods: ["PUT", "GET", "HEAD"],
          AllowedOrigins: ["https://dashboard.example.com", "https://admin.example.com"],
          AllowedHeaders: ["*"],
          ExposedHeaders: ["ETag"],
          MaxAge: 3600,
        },
      ],
    });
  });

  it("lets the dashboard's origin PUT to the bucket: the custom domain, or the public URL's origin", () => {
    const corsOf = (stage: Stage) => props<{ CorsConfiguration: { CorsRules: { AllowedOrigins: string[]; AllowedMethods: string[] }[] } }>(bucketOf(stage)[1]).CorsConfiguration;
    expect(corsOf(edge).CorsRules).toEqual([expect.objectContaining({ AllowedMethods: ["PUT"], AllowedOrigins: ["https://hangar.example.com"] })]);
    expect(uploadsCors({ publicUrl: "https://hangar.example.org/base/", corsOrigins: [] })).toEqual([
      expect.objectContaining({ allowedMethods: ["PUT"], allowedOrigins: ["https://hangar.example.org"] }),
    ]);
    expect(uploadsCors({ corsOrigins: [] })).toBe(false);
  });

  it("writes S3 server access logs to a separate bucket when the stage asks (production by default)", () => {
    expect(logBucketOf(dev)).toBeUndefined();
    expect(props(bucketOf(dev)[1]).LoggingConfiguration).toBeUndefined();
    const [logId, logBucket] = logBucketOf(prod)!;
    expect(props(bucketOf(prod)[1]).LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logId }, LogFilePrefix: "uploads/" });
    expect(props(logBucket).LifecycleConfiguration).toMatchObject({ Rules: [{ ExpirationInDays: 365 }] });
    // Delivered by the logging service through the bucket policy (the bucket has no ACLs).
    const policy = ofType(prod.storage, "AWS::S3::BucketPolicy").find(([, p]) => JSON.stringify(props(p).Bucket) === JSON.stringify({ Ref: logId }))!;
    expect(JSON.stringify(props(policy[1]))).toContain("logging.s3.amazonaws.com");
  });

  it("is retained on production and emptied then destroyed elsewhere", () => {
    expect(bucketOf(prod)[1]).toMatchObject({ DeletionPolicy: "Retain", UpdateReplacePolicy: "Retain" });
    expect(ofType(prod.storage, "Custom::S3AutoDeleteObjects")).toHaveLength(0);
    expect(bucketOf(dev)[1]).toMatchObject({ DeletionPolicy: "Delete" });
    expect(ofType(dev.storage, "Custom::S3AutoDeleteObjects")).toHaveLength(1);
  });
});

describe("uploads never completed", () => {
  const mappingOf = (s: Stage) =>
    props<{ FilterCriteria: { Filters: { Pattern: string }[] } } & Record<string, unknown>>(ofType(s.storage, "AWS::Lambda::EventSourceMapping")[0]![1]);
  const queueOf = (s: Stage) => ofType(s.storage, "AWS::SQS::Queue")[0]!;

  it("are deleted by the reaper, triggered only by TTL deletions of pending file records", () => {
    const [fnId] = functionByHandler(dev.storage, REAPER_HANDLER);
    const p = mappingOf(dev);
    expect(p.FunctionName).toEqual({ Ref: fnId });
    expect(JSON.stringify(p.EventSourceArn)).toContain("StreamArn");
    expect(p).toMatchObject({ StartingPosition: "LATEST", FunctionResponseTypes: ["ReportBatchItemFailures"], BisectBatchOnFunctionError: true, MaximumRetryAttempts: 5 });
    expect(p.FilterCriteria.Filters).toHaveLength(2);
    const pattern = JSON.parse(p.FilterCriteria.Filters[0]!.Pattern);
    expect(pattern).toEqual(expiredUploadFilter);
    expect(pattern).toMatchObject({
      eventName: ["REMOVE"],
      userIdentity: { type: ["Service"], principalId: ["dynamodb.amazonaws.com"] },
      dynamodb: { OldImage: { type: { S: ["file"] }, status: { S: expect.arrayContaining(["pending"]) } } },
    });
    expect(pattern.dynamodb.OldImage.status.S).not.toContain("completed");
  });

  it("seals completed uploads: the reaper also gets TTL deletions of seal items, and only those", () => {
    const pattern = JSON.parse(mappingOf(dev).FilterCriteria.Filters[1]!.Pattern);
    expect(pattern).toEqual(sealFilter);
    expect(pattern).toEqual({
      eventName: ["REMOVE"],
      userIdentity: { type: ["Service"], principalId: ["dynamodb.amazonaws.com"] },
      dynamodb: { OldImage: { type: { S: ["seal"] } } },
    });
  });

  it("send a batch the reaper gave up on to an encrypted, TLS-only dead-letter queue instead of dropping it", () => {
    for (const stage of [dev, prod]) {
      const [queueId, queue] = queueOf(stage);
      expect(mappingOf(stage).DestinationConfig).toEqual({ OnFailure: { Destination: { "Fn::GetAtt": [queueId, "Arn"] } } });
      expect(props(queue)).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
      const [, policy] = ofType(stage.storage, "AWS::SQS::QueuePolicy").find(([, p]) => JSON.stringify(props(p).Queues).includes(queueId))!;
      const deny = props<{ PolicyDocument: { Statement: Statement[] } }>(policy).PolicyDocument.Statement.find((s) => s.Effect === "Deny");
      expect(deny).toMatchObject({ Condition: { Bool: { "aws:SecureTransport": "false" } } });
    }
  });
});

describe("The enroll profile's signing identity", () => {
  const envOf = (s: Stage, handler: string) =>
    props<{ Environment: { Variables: Record<string, unknown> } }>(functionByHandler(s.api, handler)[1]).Environment.Variables;

  it("goes to the devices function alone, which alone may read its secret; unset, nobody names one", () => {
    for (const name of routeFunctions) {
      expect(envOf(dev, handlerOf(name)).HANGAR_ENROLL_SIGNING_SECRET_ARN).toBeUndefined();
      const [fnId] = functionByHandler(edge.api, handlerOf(name));
      const onSecret = roleStatements(edge.api, fnId).filter((s) => JSON.stringify(s.Resource) === JSON.stringify(ENROLL_SECRET));
      if (name === "devices") {
        expect(envOf(edge, handlerOf(name)).HANGAR_ENROLL_SIGNING_SECRET_ARN).toBe(ENROLL_SECRET);
        expect(onSecret.map((s) => asList(s.Action))).toEqual([["secretsmanager:GetSecretValue"]]);
      } else {
        expect(envOf(edge, handlerOf(name)).HANGAR_ENROLL_SIGNING_SECRET_ARN).toBeUndefined();
        expect(onSecret).toEqual([]);
      }
    }
  });
});

describe("Register with Apple (App Store Connect)", () => {
  const envOf = (s: Stage, handler: string) =>
    props<{ Environment: { Variables: Record<string, unknown> } }>(functionByHandler(s.api, handler)[1]).Environment.Variables;

  it("is off unless configured: no function names a key, and none is enabled", () => {
    for (const name of routeFunctions) {
      const env = envOf(dev, handlerOf(name));
      expect(Object.keys(env).filter((k) => k.startsWith("HANGAR_ASC_"))).toEqual([]);
    }
  });

  it("when configured, tells every function it is on, and only the apple function where the key is and may read it", () => {
    for (const name of routeFunctions) {
      const [fnId] = functionByHandler(edge.api, handlerOf(name));
      const env = envOf(edge, handlerOf(name));
      expect(env.HANGAR_ASC_ENABLED).toBe("1");
      const onKey = roleStatements(edge.api, fnId).filter((s) => JSON.stringify(s.Resource) === JSON.stringify(ASC_SECRET));
      if (name === "apple") {
        expect(env).toMatchObject({ HANGAR_ASC_ISSUER_ID: ASC_ISSUER, HANGAR_ASC_KEY_ID: "2X9R4HXF34", HANGAR_ASC_PRIVATE_KEY_SECRET_ARN: ASC_SECRET });
        expect(onKey.map((s) => asList(s.Action))).toEqual([["secretsmanager:GetSecretValue"]]);
      } else {
        expect(Object.keys(env).filter((k) => k.startsWith("HANGAR_ASC_") && k !== "HANGAR_ASC_ENABLED")).toEqual([]);
        expect(onKey).toEqual([]);
      }
    }
  });
});

describe("least privilege", () => {
  const actionsOf = (s: Statement) => asList(s.Action).sort();
  const tableArnImport = /^\{"Fn::ImportValue":"[^"]*ExportsOutputFnGetAttTable\w*Arn\w*"\}$/;
  const isUploadsArn = (resource: unknown) => {
    const join = (resource as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
    return (
      join !== undefined &&
      join[0] === "" &&
      join[1].length === 2 &&
      /ExportsOutputFnGetAttUploadsBucket\w*Arn/.test(JSON.stringify(join[1][0])) &&
      join[1][1] === "/uploads/*"
    );
  };
  const rows = (field: "table" | "objects" | "mail" | "index" | "bucket", name: RouteFunctionName): readonly string[] => accessOf(name)[field] ?? [];
  const invokesItself = (name: RouteFunctionName) => accessOf(name).selfInvoke === true;
  const mailers = routeFunctions.filter((name) => rows("mail", name).length > 0);

  it.each(routeFunctions)("%s gets exactly its table, uploads/* and mail actions", (name) => {
    for (const stage of [dev, prod]) {
      const [fnId] = functionByHandler(stage.api, handlerOf(name));
      const statements = roleStatements(stage.api, fnId);
      const expected = [
        rows("table", name),
        rows("objects", name),
        stage === prod ? rows("mail", name) : [],
        rows("index", name),
        rows("bucket", name),
        [...secretActions],
        invokesItself(name) ? ["lambda:InvokeFunction"] : [],
        // The on-failure destination of its background run (Lambda's destination grant).
        invokesItself(name) ? ["sqs:SendMessage"] : [],
        // The build-mail queue (docs/testers.md): it distributes builds to testers.
        accessOf(name).buildMailQueue ? ["sqs:SendMessage"] : [],
        // The events it publishes go to the webhook queue (docs/webhooks.md).
        accessOf(name).webhookQueue ? ["sqs:SendMessage"] : [],
      ];
      expect(statements).toHaveLength(expected.filter((a) => a.length > 0).length);
      for (const s of statements) expect(s).toMatchObject({ Effect: "Allow" });
      const onIndex = (s: Statement) => JSON.stringify(s.Resource).includes("/index/");
      const onBucket = (s: Statement) => s.Condition !== undefined;
      const table = statements.find((s) => actionsOf(s).every((a) => a.startsWith("dynamodb:")) && !onIndex(s));
      const onSecret = statements.filter((s) => actionsOf(s).some((a) => a.startsWith("secretsmanager:")));
      expect(onSecret.map(actionsOf)).toEqual([["secretsmanager:GetSecretValue"]]);
      const uploads = statements.find((s) => actionsOf(s).every((a) => a.startsWith("s3:")) && !onBucket(s));
      if (rows("table", name).length > 0) {
        expect(actionsOf(table!)).toEqual([...rows("table", name)].sort());
        expect(JSON.stringify(table!.Resource)).toMatch(tableArnImport);
      }
      if (rows("objects", name).length > 0) {
        expect(actionsOf(uploads!)).toEqual([...rows("objects", name)].sort());
        expect(isUploadsArn(uploads!.Resource)).toBe(true);
      }
    }
  });

  it("lets the dashboard functions query the GSI by name, list versions under uploads/ only, and projects invoke itself", () => {
    for (const name of ["projects", "keys", "files"] as RouteFunctionName[]) {
      const [fnId] = functionByHandler(dev.api, handlerOf(name));
      const statements = roleStatements(dev.api, fnId);
      const index = statements.find((s) => JSON.stringify(s.Resource).includes("/index/"))!;
      expect(actionsOf(index)).toEqual(["dynamodb:Query"]);
      expect(JSON.stringify(index.Resource)).toMatch(/"\/index\/gsi1"/);
      const listing = statements.find((s) => actionsOf(s).includes("s3:ListBucketVersions"));
      if (name === "keys") {
        expect(listing).toBeUndefined();
        continue;
      }
      expect(listing!.Condition).toEqual({ StringLike: { "s3:prefix": ["uploads/*"] } });
      expect(JSON.stringify(listing!.Resource)).toMatch(/UploadsBucket\w*Arn/);
    }
    const [projectsId] = functionByHandler(dev.api, handlerOf("projects"));
    const invoke = roleStatements(dev.api, projectsId).find((s) => actionsOf(s).includes("lambda:InvokeFunction"))!;
    expect(JSON.stringify(invoke.Resource)).toContain(projectsId);
    for (const name of ["keys", "files", "presign", "complete"] as RouteFunctionName[]) {
      const [fnId] = functionByHandler(dev.api, handlerOf(name));
      expect(roleStatements(dev.api, fnId).some((s) => actionsOf(s).includes("lambda:InvokeFunction"))).toBe(false);
    }
  });

  it("grants the reads of pinned versions complete and the signed downloads need", () => {
    expect(access).toMatchObject({
      // DeleteItem: presign and complete also serve the dashboard's uploads, whose session check ends an expired session.
      presign: { table: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:DeleteItem"], objects: ["s3:PutObject"] },
      complete: {
        // BatchGetItem, Query, BatchWriteItem: complete's optional `distribute` and default groups (docs/testers.md).
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
        // Multipart: CompleteMultipartUpload is authorized by PutObject; the part list is checked with ListParts.
        objects: ["s3:GetObject", "s3:GetObjectVersion", "s3:PutObject", "s3:ListMultipartUploadParts"],
      },
      multipart: { objects: ["s3:PutObject", "s3:AbortMultipartUpload"] },
      download: { table: ["dynamodb:GetItem", "dynamodb:UpdateItem"], objects: ["s3:GetObject", "s3:GetObjectVersion"] },
      // PutItem, Query, ConditionCheckItem: the device verdict records a device missing from a build's
      // profile, in a transaction with a check of its workspace (docs/devices.md).
      share: {
        table: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
        objects: ["s3:GetObject", "s3:GetObjectVersion"],
      },
    });
  });

  it("lets the mail-sending functions call ses:SendEmail on the HANGAR_MAIL_FROM identity only, and only when it is set", () => {
    expect(mailers.length).toBeGreaterThan(0);
    for (const name of mailers) {
      const sesOf = (s: Stage) => roleStatements(s.api, functionByHandler(s.api, handlerOf(name))[0]).filter((st) => actionsOf(st).some((a) => a.startsWith("ses:")));
      expect(sesOf(dev)).toEqual([]);
      const [ses] = sesOf(prod);
      expect(actionsOf(ses!)).toEqual(["ses:SendEmail"]);
      // SES v2 authorizes a send against the identity and against the configuration set it names.
      const resources = asList(ses!.Resource).map((r) => JSON.stringify(r));
      expect(resources).toHaveLength(3);
      expect(resources[0]).toMatch(/:ses:eu-west-1:123456789012:identity\/hangar@mail\.example\.com"/);
      expect(resources[1]).toMatch(/:ses:eu-west-1:123456789012:identity\/mail\.example\.com"/);
      const [setId] = ofType(prod.api, "AWS::SES::ConfigurationSet")[0]!;
      expect(resources[2]).toContain(":ses:eu-west-1:123456789012:configuration-set/");
      expect(resources[2]).toContain(`{"Ref":"${setId}"}`);
    }
    // No other function may send mail.
    for (const name of routeFunctions.filter((n) => !mailers.includes(n))) {
      const statements = roleStatements(prod.api, functionByHandler(prod.api, handlerOf(name))[0]);
      expect(statements.flatMap(actionsOf).filter((a) => a.startsWith("ses:"))).toEqual([]);
    }
  });

  it("runs the workspaces migration on deploy: an SST Script whose function has exactly its table actions, after every API function", () => {
    for (const stage of [dev, prod]) {
      const [fnId] = functionByHandler(stage.api, MIGRATE_WORKSPACES_HANDLER);
      const statements = roleStatements(stage.api, fnId);
      // The table's actions, and Query on gsi1 alone (the storage count pages a project's files there).
      expect(statements.map(actionsOf)).toEqual([[...migrationActions.table].sort(), [...migrationActions.index].sort()]);
      expect(JSON.stringify(statements[0]!.Resource)).toMatch(tableArnImport);
      expect(JSON.stringify(statements[1]!.Resource)).toContain("/index/gsi1");
      const scripts = ofType(stage.api, "Custom::SSTScript");
      expect(scripts).toHaveLength(1);
      const [scriptId, script] = scripts[0]!;
      expect(props(script)).toMatchObject({ UserCreateFunction: { Ref: fnId }, UserUpdateFunction: { Ref: fnId } });
      // After every API function: no function of the old code writes the old layout once it ran.
      const dependsOn = asList((stage.api.Resources[scriptId] as { DependsOn?: string | string[] }).DependsOn ?? []);
      for (const fn of routeFunctions) expect(dependsOn, fn).toContain(functionByHandler(stage.api, handlerOf(fn))[0]);
    }
  });

  it("gives the fallback function no permission beyond writing its logs", () => {
    const [fnId] = functionByHandler(dev.api, fallbackHandler);
    expect(roleStatements(dev.api, fnId)).toEqual([]);
  });

  it("lets the reaper delete uploads/* objects, read the table's own stream and park failures in its queue", () => {
    const [fnId] = functionByHandler(dev.storage, REAPER_HANDLER);
    const statements = roleStatements(dev.storage, fnId);
    expect(statements).toHaveLength(4);
    const del = statements.find((s) => actionsOf(s).includes("s3:DeleteObject"))!;
    expect(actionsOf(del)).toEqual([...reaperActions.uploads].sort());
    // Version listings for sealing: on the bucket, but only for keys under uploads/.
    const list = statements.find((s) => actionsOf(s).includes("s3:ListBucketVersions"))!;
    expect(list).toMatchObject({ Condition: { StringLike: { "s3:prefix": ["uploads/*"] } } });
    expect(actionsOf(list)).toEqual([...reaperActions.bucket]);
    expect(JSON.stringify(del.Resource)).toMatch(/"\/uploads\/\*"/);
    const stream = statements.find((s) => actionsOf(s).includes("dynamodb:GetRecords"))!;
    expect(actionsOf(stream)).toEqual([...reaperActions.stream].sort());
    const [tableId] = ofType(dev.storage, "AWS::DynamoDB::Table")[0]!;
    expect(stream.Resource).toEqual({ "Fn::GetAtt": [tableId, "StreamArn"] });
    const [queueId] = ofType(dev.storage, "AWS::SQS::Queue")[0]!;
    const sqs = statements.find((s) => actionsOf(s).includes("sqs:SendMessage"))!;
    expect(sqs.Resource).toEqual({ "Fn::GetAtt": [queueId, "Arn"] });
  });

  it("has no wildcard action and no * resource on any S3, DynamoDB, SES or SQS action, in any stack", () => {
    for (const stage of [dev, prod]) {
      for (const template of [stage.storage, stage.api]) {
        for (const statement of allIdentityStatements(template)) {
          for (const action of asList(statement.Action)) {
            expect(action).not.toBe("*");
            if (/^(s3|dynamodb|ses|sqs):/.test(action)) {
              expect(action, `wildcard action ${action}`).toMatch(/^(s3|dynamodb|ses|sqs):[A-Za-z]+$/);
              expect(asList(statement.Resource), `${action} on *`).not.toContain("*");
            }
          }
        }
      }
    }
    // And our own functions' policies stay on the table, the uploads/ prefix, the mail identity
    // and the reaper's queue.
    for (const stage of [dev, prod]) {
      for (const [template, fns] of [[stage.api, ownFunctions(stage.api)], [stage.storage, ownFunctions(stage.storage)]] as const) {
        for (const [fnId] of fns) {
          for (const s of roleStatements(template, fnId)) {
            for (const resource of asList(s.Resource as unknown)) {
              const text = JSON.stringify(resource);
              const allowed =
                text.includes("Table") ||
                text.includes('"/uploads/*"') ||
                text.includes(":identity/") ||
                text.includes(":configuration-set/") ||
                text.includes("ReapExpiredUploadsFailures") ||
                text.includes("BackgroundFailures") ||
                // The build-mail queue: distribute and complete send to it, the sender receives from it.
                text.includes("BuildMail") ||
                // Events and webhook retries (SendMessage only; the worker's receive rights come with its event source).
                text.includes("WebhookQueue") ||
                text.includes("OriginVerifySecret") ||
                // Version listings: the bucket, only under uploads/; and a function invoking itself.
                (JSON.stringify(s.Condition) === '{"StringLike":{"s3:prefix":["uploads/*"]}}' && /UploadsBucket[\w",]*Arn/.test(text)) ||
                (asList(s.Action).join() === "lambda:InvokeFunction" && text.includes(fnId));
              expect(allowed, text).toBe(true);
            }
          }
        }
      }
    }
  });

  it("does not use SST bind: no SSM parameter reads or SST_* binding variables", () => {
    for (const stage of [dev, prod]) {
      for (const template of [stage.storage, stage.api]) {
        for (const statement of allIdentityStatements(template)) {
          expect(asList(statement.Action).filter((a) => a.startsWith("ssm:"))).toEqual([]);
        }
        for (const [, fn] of ownFunctions(template)) {
          const vars = Object.keys(props<{ Environment: { Variables: object } }>(fn).Environment.Variables);
          expect(vars.filter((v) => v.startsWith("SST_Table") || v.startsWith("SST_Bucket"))).toEqual([]);
        }
      }
    }
  });
});

describe("API stage", () => {
  const stageOf = (s: Stage) => ofType(s.api, "AWS::ApiGatewayV2::Stage")[0]![1];

  it("throttles every route without a budget of its own with the stage's defaults (200 rps, burst 400)", () => {
    expect(props(stageOf(dev)).DefaultRouteSettings).toEqual({ ThrottlingBurstLimit: 400, ThrottlingRateLimit: 200 });
    expect(props(stageOf(prod)).DefaultRouteSettings).toEqual({ ThrottlingBurstLimit: 40, ThrottlingRateLimit: 20 });
  });

  it("gives complete and every public route a ceiling of their own, far above one client's limits (complete: 100 rps ≈ 6,000 uploads a minute)", () => {
    const settings = props<{ RouteSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> }>(stageOf(dev)).RouteSettings;
    for (const route of routes) {
      const key = routeKey(route);
      if (route.fn === "complete") expect(settings[key], key).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
      else if (route.auth === "none") expect(settings[key], key).toEqual({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 });
      else expect(settings[key], key).toBeUndefined();
    }
    expect(settings["GET /share/{userKey}"]).toBeDefined();
    expect(settings["GET /download/{userKey}"]).toBeDefined();
    // API Gateway refuses route settings for routes that do not exist yet.
    const routeIds = ofType(dev.api, "AWS::ApiGatewayV2::Route").map(([id]) => id);
    expect(stageOf(dev).DependsOn).toEqual(expect.arrayContaining(routeIds));
  });

  it("reserves concurrency for complete only when the stage opts in", () => {
    const [, devComplete] = functionByHandler(dev.api, handlerOf("complete"));
    expect(props(devComplete).ReservedConcurrentExecutions).toBeUndefined();
    const [, prodComplete] = functionByHandler(prod.api, handlerOf("complete"));
    expect(props(prodComplete).ReservedConcurrentExecutions).toBe(5);
    for (const name of routeFunctions.filter((n) => n !== "complete")) {
      expect(props(functionByHandler(prod.api, handlerOf(name))[1]).ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it("writes JSON access logs with requestId, ip, routeKey, status and latency to a retained-per-stage group", () => {
    for (const [stage, days] of [[dev, 7], [prod, 90]] as const) {
      const settings = props(stageOf(stage)).AccessLogSettings as { Format: string; DestinationArn: { "Fn::GetAtt": [string, string] } };
      expect(settings.Format).toBe(accessLogFormat(stage === dev ? "hangartest-dev" : "hangartest-prod"));
      const format = JSON.parse(settings.Format) as Record<string, string>;
      expect(format).toMatchObject({
        service: "hangar",
        stage: stage === dev ? "hangartest-dev" : "hangartest-prod",
        requestId: "$context.requestId",
        ip: "$context.identity.sourceIp",
        routeKey: "$context.routeKey",
        status: "$context.status",
        latency: "$context.responseLatency",
      });
      const group = stage.api.Resources[settings.DestinationArn["Fn::GetAtt"][0]];
      expect(group?.Type).toBe("AWS::Logs::LogGroup");
      expect(props(group).RetentionInDays).toBe(days);
    }
  });

  it("keeps the execute-api endpoint outside production, and CORS only for configured origins", () => {
    for (const stage of [dev, edge]) expect(ofType(stage.api, "AWS::ApiGatewayV2::DomainName")).toHaveLength(0);
    expect(props(ofType(dev.api, "AWS::ApiGatewayV2::Api")[0]![1]).DisableExecuteApiEndpoint).toBe(false);
    const apiOf = (s: Stage) => props(ofType(s.api, "AWS::ApiGatewayV2::Api")[0]![1]);
    expect(apiOf(dev).CorsConfiguration).toBeUndefined();
    expect(apiOf(prod).CorsConfiguration).toMatchObject({ AllowOrigins: ["https://dashboard.example.com", "https://admin.example.com"] });
  });
});

describe("alarms", () => {
  const alarmsOf = (s: Stage) => [...ofType(s.storage, "AWS::CloudWatch::Alarm"), ...ofType(s.api, "AWS::CloudWatch::Alarm")].map(([id, a]) => [id, props(a)] as const);
  const byFunction = (s: Stage, template: CfnTemplate, handler: string, metric: string) => {
    const [fnId] = functionByHandler(template, handler);
    return alarmsOf(s).filter(([, a]) => a.MetricName === metric && JSON.stringify(a.Dimensions) === JSON.stringify([{ Name: "FunctionName", Value: { Ref: fnId } }]));
  };

  it("are off by default outside production", () => {
    expect(alarmsOf(dev)).toHaveLength(0);
    for (const t of [dev.storage, dev.api]) expect(ofType(t, "AWS::SNS::Topic")).toHaveLength(0);
  });

  it("notify one topic that is encrypted with a key CloudWatch may use and refuses publishers without TLS", () => {
    const [[topicId, topic]] = ofType(prod.storage, "AWS::SNS::Topic") as [[string, CfnResource]];
    // The API stack's only topic is SES's event topic (see "mail").
    expect(ofType(prod.api, "AWS::SNS::Topic").map(([id]) => id)).toEqual([expect.stringMatching(/^MailEvents/)]);
    const [keyId, key] = ofType(prod.storage, "AWS::KMS::Key")[0]!;
    expect(props(topic).KmsMasterKeyId).toEqual({ "Fn::GetAtt": [keyId, "Arn"] });
    expect(props(key).EnableKeyRotation).toBe(true);
    expect(JSON.stringify(props(key).KeyPolicy)).toContain("cloudwatch.amazonaws.com");
    const [, policy] = ofType(prod.storage, "AWS::SNS::TopicPolicy")[0]!;
    const deny = props<{ PolicyDocument: { Statement: Statement[] } }>(policy).PolicyDocument.Statement.find((s) => s.Effect === "Deny");
    expect(deny).toMatchObject({ Condition: { Bool: { "aws:SecureTransport": "false" } } });
    Template.fromJSON(prod.storage).hasResourceProperties("AWS::SNS::Subscription", { Protocol: "email", Endpoint: "ops@example.com" });
    for (const [id, alarm] of alarmsOf(prod)) {
      expect(JSON.stringify(alarm.AlarmActions), id).toMatch(new RegExp(`^\\[\\{"(Ref":"${topicId}|Fn::ImportValue":"[^"]*${topicId}[^"]*)"\\}\\]$`));
    }
  });

  it("watch errors and throttles of every function, the reaper included", () => {
    const all = [
      ...Object.values(functionTable).map((f) => [prod.api, f.handler] as const),
      [prod.storage, REAPER_HANDLER] as const,
      [prod.api, RESUME_DELETES_HANDLER] as const,
      [prod.api, DAILY_HOUSEKEEPING_HANDLER] as const,
      [prod.api, SES_EVENTS_HANDLER] as const,
    ];
    for (const [template, handler] of all) {
      for (const metric of ["Errors", "Throttles"]) {
        const found = byFunction(prod, template, handler, metric);
        expect(found, `${metric} of ${handler}`).toHaveLength(1);
        expect(found[0]![1]).toMatchObject({ Namespace: "AWS/Lambda", Statistic: "Sum", Threshold: 1, ComparisonOperator: "GreaterThanOrEqualToThreshold" });
      }
    }
  });

  it("watch the reaper's iterator age and its dead-letter queue", () => {
    const [age] = byFunction(prod, prod.storage, REAPER_HANDLER, "IteratorAge");
    expect(age![1]).toMatchObject({ Statistic: "Maximum", Threshold: REAPER_ITERATOR_AGE_ALARM_MS });
    const [queueId] = ofType(prod.storage, "AWS::SQS::Queue")[0]!;
    const depth = ofType(prod.storage, "AWS::CloudWatch::Alarm").map(([id, a]) => [id, props(a)] as const).find(([, a]) => a.MetricName === "ApproximateNumberOfMessagesVisible")!;
    expect(depth[1]).toMatchObject({ Namespace: "AWS/SQS", Threshold: 1 });
    expect(depth[1].Dimensions).toEqual([{ Name: "QueueName", Value: { "Fn::GetAtt": [queueId, "QueueName"] } }]);
  });

  it("watch the API 5xx rate and complete's p99 duration", () => {
    const alarms = alarmsOf(prod).map(([, a]) => a);
    const rate = alarms.find((a) => JSON.stringify(a.Metrics ?? null).includes('"MetricName":"5xx"'))!;
    expect(JSON.stringify(rate.Metrics)).toContain("100 * errors / requests");
    expect(JSON.stringify(rate.Metrics)).toContain('"MetricName":"5xx"');
    const [completeId] = functionByHandler(prod.api, handlerOf("complete"));
    const slow = alarms.find((a) => a.MetricName === "Duration")!;
    expect(slow).toMatchObject({ Namespace: "AWS/Lambda", ExtendedStatistic: "p99", Threshold: COMPLETE_P99_ALARM_MS });
    expect(slow.Dimensions).toEqual([{ Name: "FunctionName", Value: { Ref: completeId } }]);
  });
});

describe("outputs and parameters", () => {
  it("output the API URL, the stage's origin and the link bases, recorded as SST Config parameters", () => {
    expect(Object.keys(dev.api.Outputs ?? {})).toEqual(expect.arrayContaining(["ApiUrl"]));
    expect(Object.keys(dev.web.Outputs ?? {})).toEqual(expect.arrayContaining(["Url", "BaseUrl", "ShareBaseUrl", "DistributionDomainName"]));
    expect(JSON.stringify(dev.web.Outputs?.BaseUrl?.Value)).toContain("DomainName");
    expect(prod.web.Outputs?.Url?.Value).toBe("https://hangar.example.com");
    expect(prod.web.Outputs?.BaseUrl?.Value).toBe("https://hangar.example.com");
    expect(prod.web.Outputs?.ShareBaseUrl?.Value).toBe("https://apps.example.com");
    Template.fromJSON(prod.web).hasResourceProperties("AWS::SSM::Parameter", {
      Name: "/sst/hangar/hangartest-prod/Parameter/HANGAR_SHARE_BASE_URL/value",
      Value: "https://apps.example.com",
    });
    expect(Object.keys(dev.storage.Outputs ?? {})).toEqual(expect.arrayContaining(["TableName", "BucketName"]));
  });
});

describe("same code everywhere", () => {
  it("points functions at the handler files of routes.ts, which exist", async () => {
    for (const handler of [
      ...Object.values(functionTable).map((f) => f.handler),
      REAPER_HANDLER,
      RESUME_DELETES_HANDLER,
      DAILY_HOUSEKEEPING_HANDLER,
      SES_EVENTS_HANDLER,
      MIGRATE_WORKSPACES_HANDLER,
    ]) {
      const file = path.join(REPO_ROOT, `${path.posix.parse(handler).dir}/${path.posix.parse(handler).name}.ts`);
      await expect(readFile(file, "utf8")).resolves.toMatch(/export (const|async function|function) handler/);
      expect(deployedHandler(handler)).toMatch(/-handler\.handler$/);
    }
  });

  it("keeps sst/* imports out of packages/core and packages/functions", async () => {
    const offenders: string[] = [];
    for (const pkg of ["core", "functions"]) {
      const dir = path.join(REPO_ROOT, "packages", pkg, "src");
      for (const entry of await readdir(dir, { recursive: true })) {
        if (!entry.endsWith(".ts")) continue;
        const source = await readFile(path.join(dir, entry), "utf8");
        if (/from\s+["']sst(\/|["'])/.test(source) || /import\(\s*["']sst(\/|["'])/.test(source)) offenders.push(`${pkg}/${entry}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("cdk-nag", () => {
  it("reports no finding of the AwsSolutions and Serverless packs that is not suppressed with a reason, on any stage", () => {
    expect(nagFindings(dev.assembly)).toEqual([]);
    expect(nagFindings(prod.assembly)).toEqual([]);
    expect(nagFindings(edge.assembly)).toEqual([]);
  });

  it("ran: the accepted findings are recorded as suppressions with their reasons in the templates", () => {
    const metadata = JSON.stringify([dev.storage, dev.api, dev.web]);
    for (const id of ["AwsSolutions-IAM4", "AwsSolutions-IAM5", "Serverless-LambdaDLQ", "AwsSolutions-CFR2"]) expect(metadata).toContain(`"id":"${id}"`);
  });
});

describe("one origin per stage (CloudFront)", () => {
  interface Behavior {
    PathPattern?: string;
    TargetOriginId: string;
    CachePolicyId: string;
    OriginRequestPolicyId?: string;
    ResponseHeadersPolicyId?: { Ref: string };
    ViewerProtocolPolicy: string;
    AllowedMethods?: string[];
    FunctionAssociations?: { EventType: string; FunctionARN: { "Fn::GetAtt": [string, string] } }[];
  }
  interface DistributionConfig {
    DefaultCacheBehavior: Behavior;
    CacheBehaviors: Behavior[];
    Origins: { Id: string; DomainName: unknown; S3OriginConfig?: object; OriginAccessControlId?: unknown; CustomOriginConfig?: Record<string, unknown>; OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[];
    CustomErrorResponses?: unknown;
    Aliases?: string[];
    ViewerCertificate?: Record<string, unknown>;
    DefaultRootObject?: string;
  }
  const configOf = (s: Stage) => props<{ DistributionConfig: DistributionConfig }>(ofType(s.web, "AWS::CloudFront::Distribution")[0]![1]).DistributionConfig;
  const functionCode = (s: Stage, b: Behavior) => props(s.web.Resources[b.FunctionAssociations![0]!.FunctionARN["Fn::GetAtt"][0]]).FunctionCode;
  // AWS managed policies (ids are fixed by CloudFront).
  const CACHING_OPTIMIZED = "658327ea-f89d-4fab-a63d-7e88639e58f6";
  const CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";

  it("is one distribution per stage, in a stack of its own", () => {
    for (const stage of [dev, prod]) {
      expect(ofType(stage.web, "AWS::CloudFront::Distribution")).toHaveLength(1);
      expect(ofType(stage.api, "AWS::CloudFront::Distribution")).toHaveLength(0);
    }
  });

  it("serves the dashboard from a private bucket through Origin Access Control as the default behaviour", () => {
    const config = configOf(dev);
    const s3 = config.Origins.find((o) => o.Id === config.DefaultCacheBehavior.TargetOriginId)!;
    expect(s3.S3OriginConfig).toEqual({ OriginAccessIdentity: "" });
    expect(s3.OriginAccessControlId).toBeDefined();
    expect(ofType(dev.web, "AWS::CloudFront::CloudFrontOriginAccessIdentity")).toHaveLength(0);
    expect(config.DefaultCacheBehavior).toMatchObject({ CachePolicyId: CACHING_OPTIMIZED, ViewerProtocolPolicy: "redirect-to-https" });
    expect(config.DefaultRootObject).toBe("index.html");
    const [bucketId, bucket] = ofType(dev.web, "AWS::S3::Bucket")[0]!;
    expect(props(bucket).PublicAccessBlockConfiguration).toMatchObject({ BlockPublicPolicy: true, RestrictPublicBuckets: true });
    const [, policy] = ofType(dev.web, "AWS::S3::BucketPolicy").find(([, p]) => JSON.stringify(props(p).Bucket) === JSON.stringify({ Ref: bucketId }))!;
    const read = props<{ PolicyDocument: { Statement: Statement[] } }>(policy).PolicyDocument.Statement.find(
      (s) => s.Effect === "Allow" && JSON.stringify(s.Principal).includes("cloudfront"),
    )!;
    expect(read).toMatchObject({ Principal: { Service: "cloudfront.amazonaws.com" }, Action: "s3:GetObject" });
    expect(JSON.stringify(read.Condition)).toContain("AWS:SourceArn");
  });

  it("has no distribution-wide error page, so the API's JSON 403/404 answers reach the client", () => {
    for (const stage of [dev, prod]) expect(configOf(stage).CustomErrorResponses).toBeUndefined();
  });

  it("sends every route prefix of routes.ts to the API, uncached, with the headers the functions read, the viewer's address, cookies and query strings", () => {
    const config = configOf(dev);
    expect(config.CacheBehaviors.map((b) => b.PathPattern).sort()).toEqual(["/api/*", "/apps/*", "/cli/*", "/devices/*", "/download/*", "/install/*", "/share/*", "/unsubscribe/*"]);
    expect(apiPathPatterns()).toEqual(["/api/*", "/apps/*", "/cli/*", "/devices/*", "/download/*", "/install/*", "/share/*", "/unsubscribe/*"]);
    for (const route of routes) expect(apiPathPatterns().some((p) => route.path.startsWith(p.slice(0, -1))), route.path).toBe(true);
    for (const behavior of config.CacheBehaviors) {
      const policyId = (behavior.OriginRequestPolicyId as unknown as { Ref: string }).Ref;
      expect(props(dev.web.Resources[policyId]).OriginRequestPolicyConfig).toMatchObject({
        HeadersConfig: { HeaderBehavior: "whitelist", Headers: [...API_ORIGIN_HEADERS] },
        CookiesConfig: { CookieBehavior: "all" },
        QueryStringsConfig: { QueryStringBehavior: "all" },
      });
      expect(API_ORIGIN_HEADERS).toContain("CloudFront-Viewer-Address");
      expect(API_ORIGIN_HEADERS.map((h) => h.toLowerCase())).not.toContain("host");
      // CloudFront's quota of header names per origin request policy.
      expect(API_ORIGIN_HEADERS.length).toBeLessThanOrEqual(10);
      expect(behavior).toMatchObject({
        CachePolicyId: CACHING_DISABLED,
        ViewerProtocolPolicy: "https-only",
        AllowedMethods: ["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"],
      });
      const origin = config.Origins.find((o) => o.Id === behavior.TargetOriginId)!;
      expect(JSON.stringify(origin.DomainName)).toMatch(/Fn::Split.*ExportsOutputFnGetAttApi/);
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: "https-only", OriginSSLProtocols: ["TLSv1.2"] });
    }
  });

  it("waits longer for the API than the slowest function may take (complete's 29 s), within CloudFront's 60 s", () => {
    const slowest = Math.max(...Object.values(functionTable).map((f) => f.timeoutSeconds));
    for (const origin of configOf(dev).Origins.filter((o) => o.CustomOriginConfig)) {
      const timeout = origin.CustomOriginConfig!.OriginReadTimeout as number;
      expect(timeout).toBe(ORIGIN_READ_TIMEOUT_SECONDS);
      expect(timeout).toBeGreaterThan(slowest);
      expect(timeout).toBeLessThanOrEqual(60);
    }
  });

  it("serves the tester pages (issue 20) from the app shell: `/apps` itself is no API path, though `/apps/<slug>` would be", () => {
    const config = configOf(dev);
    // CloudFront's path patterns: `*` any run of characters, `?` one; the whole path must match.
    const matches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`).test(path);
    const patterns = config.CacheBehaviors.map((b) => b.PathPattern ?? "");
    const rewrite = new Function(`${SPA_REWRITE_CODE}; return handler;`)() as (e: unknown) => { uri: string };
    for (const path of ["/apps", "/tester/sign-in", "/tester/apps/prj_1", "/join/AbC-123_x"]) {
      expect(patterns.filter((p) => matches(p, path)), path).toEqual([]);
      expect(rewrite({ request: { uri: path, headers: {} } }).uri, path).toBe("/index.html");
    }
    expect(matches("/apps/*", "/apps")).toBe(false);
    expect(matches("/apps/*", "/apps/some-slug")).toBe(true);
  });

  it("proves itself to the API with the origin secret, by dynamic reference to the API stack's secret", () => {
    const origin = configOf(dev).Origins.find((o) => o.CustomOriginConfig)!;
    const header = origin.OriginCustomHeaders!.find((h) => h.HeaderName === "x-hangar-origin-verify")!;
    const value = JSON.stringify(header.HeaderValue);
    expect(value).toContain("{{resolve:secretsmanager:");
    expect(value).toMatch(/Fn::ImportValue[^}]*OriginVerifySecret/);
  });

  it("rewrites extension-less dashboard paths to the app shell, on the default behaviour only", () => {
    const config = configOf(dev);
    expect(functionCode(dev, config.DefaultCacheBehavior)).toBe(SPA_REWRITE_CODE);
    const rewrite = new Function(`${SPA_REWRITE_CODE}; return handler;`)() as (e: unknown) => { uri: string };
    const uri = (u: string) => rewrite({ request: { uri: u, headers: {} } }).uri;
    expect(uri("/")).toBe("/index.html");
    expect(uri("/verify-email")).toBe("/index.html");
    expect(uri("/projects/abc/files")).toBe("/index.html");
    expect(uri("/assets/index-3f2a.js")).toBe("/assets/index-3f2a.js");
    expect(uri("/favicon.svg")).toBe("/favicon.svg");
    for (const behavior of config.CacheBehaviors) expect(functionCode(dev, behavior)).toBe(VIEWER_HOST_CODE);
  });

  it("passes the viewer's Host to the API in x-hangar-viewer-host and drops a viewer's own cloudfront-viewer-address", () => {
    const copy = new Function(`${VIEWER_HOST_CODE}; return handler;`)() as (e: unknown) => { headers: Record<string, { value: string }> };
    const request = copy({
      viewer: { ip: "203.0.113.7" },
      request: {
        uri: "/api/session",
        headers: { host: { value: "d111.cloudfront.net" }, "x-hangar-viewer-host": { value: "evil.example" }, "cloudfront-viewer-address": { value: "10.0.0.1:1" } },
      },
    });
    expect(request.headers["x-hangar-viewer-host"]).toEqual({ value: "d111.cloudfront.net" });
    // CloudFront adds the real one at the origin request (the policy names it).
    expect(request.headers["cloudfront-viewer-address"]).toBeUndefined();
    expect(request.headers.host).toEqual({ value: "d111.cloudfront.net" });
  });

  it("answers the dashboard with a strict CSP, nosniff, same-origin referrer, no framing and HSTS", () => {
    const id = configOf(dev).DefaultCacheBehavior.ResponseHeadersPolicyId!.Ref;
    const policy = props<{ ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Record<string, Record<string, unknown>> } }>(dev.web.Resources[id]);
    const headers = policy.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    // Images: self, data/blob, and the uploads bucket's own origin (icons are signed GETs on it);
    // connections: self and that origin too (browser uploads PUT to presigned URLs on it).
    const csp = JSON.stringify(headers.ContentSecurityPolicy);
    expect(csp).toMatch(/UploadsBucket/);
    expect(dashboardCsp("https://b.s3.eu-west-1.amazonaws.com")).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https://b.s3.eu-west-1.amazonaws.com; connect-src 'self' https://b.s3.eu-west-1.amazonaws.com; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(csp).toContain(".s3.");
    expect(csp).toContain(".amazonaws.com; connect-src 'self' https://");
    expect(csp).toContain(".amazonaws.com; frame-ancestors 'none'");
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: "same-origin", Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: "DENY", Override: true });
    expect(headers.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31_536_000, Override: true });
  });

  it("carries the custom domain and its us-east-1 certificate, only when one is set", () => {
    expect(configOf(dev).Aliases).toBeUndefined();
    expect(configOf(edge).Aliases).toEqual(["hangar.example.com", "apps.example.com"]);
    expect(configOf(edge).ViewerCertificate).toEqual({ AcmCertificateArn: CERT, MinimumProtocolVersion: "TLSv1.2_2021", SslSupportMethod: "sni-only" });
  });

  it("publishes the dashboard build: hashed assets immutable, the rest revalidated, then invalidates the cache", () => {
    const deployments = ofType(dev.web, "Custom::CDKBucketDeployment").map(([, d]) => props(d));
    expect(deployments).toHaveLength(2);
    const assets = deployments.find((d) => JSON.stringify(d.Include) === '["assets/*"]')!;
    expect(assets.SystemMetadata).toMatchObject({ "cache-control": "public, max-age=31536000, immutable" });
    const rest = deployments.find((d) => JSON.stringify(d.Exclude) === '["assets/*"]')!;
    expect(rest.SystemMetadata).toMatchObject({ "cache-control": "no-cache" });
    expect(rest.DistributionPaths).toEqual(["/*"]);
    // Old hashed assets stay for pages still open on the previous build.
    expect(assets.Prune).toBe(false);
  });

  it("uploads the assets before index.html: the files' deployment depends on the assets' one", () => {
    for (const stage of [dev, prod]) {
      const all = ofType(stage.web, "Custom::CDKBucketDeployment");
      const [assetsId] = all.find(([, d]) => JSON.stringify(props(d).Include) === '["assets/*"]')!;
      const [, files] = all.find(([, d]) => JSON.stringify(props(d).Exclude) === '["assets/*"]')!;
      expect(files.DependsOn).toEqual(expect.arrayContaining([assetsId]));
      // index.html is in the second deployment: revalidated on every load.
      expect(props(files).Include).toBeUndefined();
    }
  });
});

describe("runtimes", () => {
  it("bundles for node24 while the local stack keeps the Node version the README requires", async () => {
    const { lambdaNodejs } = await import("../bundling");
    expect(lambdaNodejs.esbuild.target).toBe("node24");
    const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(">=20.19");
    await expect(readFile(path.join(REPO_ROOT, "README.md"), "utf8")).resolves.toContain("Node.js ≥ 20.19");
  });
});

/** Synthesizes a stage that must be refused; resolves to the error's message. */
async function refusal(stage: string, env: Record<string, string | undefined>, region = "eu-west-1"): Promise<string> {
  try {
    await synthesize({ stage, env: { ...unset, ...env }, outdir: path.join(tmp, stage), region });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${stage} synthesized but should have been refused`);
}

const envVars = (t: CfnTemplate, id: string) => props<{ Environment: { Variables: Record<string, unknown> } }>(t.Resources[id]).Environment.Variables;
const statementsOf = (t: CfnTemplate, handler: string) => roleStatements(t, functionByHandler(t, handler)[0]);
const sortedActions = (s: Statement) => asList(s.Action).sort();

describe("mail (SES)", () => {
  it("refuses a bare domain in HANGAR_MAIL_FROM at synth, saying what to write", async () => {
    const message = await refusal("hangartest-baremail", { HANGAR_MAIL_FROM: "example.com" });
    expect(message).toContain("HANGAR_MAIL_FROM");
    expect(message).toContain("noreply@example.com");
  });

  it("creates the sender domain's identity with Easy DKIM, its CNAMEs in the zone when there is one, else as outputs", () => {
    const [, identity] = ofType(prod.api, "AWS::SES::EmailIdentity")[0]!;
    expect(props(identity)).toMatchObject({ EmailIdentity: "mail.example.com", DkimAttributes: { SigningEnabled: true } });
    const [identityId] = ofType(prod.api, "AWS::SES::EmailIdentity")[0]!;
    const cnames = ofType(prod.api, "AWS::Route53::RecordSet").filter(([, r]) => props(r).Type === "CNAME");
    expect(cnames).toHaveLength(3);
    cnames.forEach(([, r], i) => {
      // Fully qualified as SES gives it (a trailing dot, no zone appended).
      expect(props(r).Name).toEqual({ "Fn::Join": ["", [{ "Fn::GetAtt": [identityId, `DkimDNSTokenName${i + 1}`] }, "."]] });
      expect(props(r).ResourceRecords).toEqual([{ "Fn::GetAtt": [identityId, `DkimDNSTokenValue${i + 1}`] }]);
    });
    // No zone for example.org: the three records are printed instead.
    expect(props(ofType(edge.api, "AWS::SES::EmailIdentity")[0]![1]).EmailIdentity).toBe("example.org");
    expect(ofType(edge.api, "AWS::Route53::RecordSet")).toHaveLength(0);
    for (const i of [1, 2, 3]) expect(Object.keys(edge.api.Outputs ?? {})).toEqual(expect.arrayContaining([`MailDkim${i}Name`, `MailDkim${i}Value`]));
    for (const type of ["AWS::SES::EmailIdentity", "AWS::SES::ConfigurationSet"]) expect(ofType(dev.api, type)).toHaveLength(0);
  });

  it("has a configuration set (no fixed name) that every sender names, with bounces and complaints sent to the suppression handler", () => {
    const [setId, set] = ofType(prod.api, "AWS::SES::ConfigurationSet")[0]!;
    expect(props(set).Name).toBeUndefined();
    expect(props(set)).toMatchObject({ SuppressionOptions: { SuppressedReasons: ["BOUNCE", "COMPLAINT"] }, ReputationOptions: { ReputationMetricsEnabled: true } });
    for (const name of routeFunctions.filter((n) => accessOf(n).mail?.length)) {
      expect(envVars(prod.api, functionByHandler(prod.api, handlerOf(name))[0]).HANGAR_SES_CONFIGURATION_SET).toEqual({ Ref: setId });
    }
    const [, destination] = ofType(prod.api, "AWS::SES::ConfigurationSetEventDestination")[0]!;
    const p = props<{ ConfigurationSetName: unknown; EventDestination: { MatchingEventTypes: string[]; SnsDestination: { TopicARN: { Ref: string } } } }>(destination);
    expect(p.ConfigurationSetName).toEqual({ Ref: setId });
    expect(p.EventDestination.MatchingEventTypes).toEqual(expect.arrayContaining(["bounce", "complaint"]));
    const topicId = p.EventDestination.SnsDestination.TopicARN.Ref;
    // Encrypted with a key SES may use, TLS-only publishers, SES allowed to publish for this set only.
    const [keyId, key] = ofType(prod.api, "AWS::KMS::Key")[0]!;
    expect(props(prod.api.Resources[topicId]).KmsMasterKeyId).toEqual({ "Fn::GetAtt": [keyId, "Arn"] });
    expect(JSON.stringify(props(key).KeyPolicy)).toContain("ses.amazonaws.com");
    const [, topicPolicy] = ofType(prod.api, "AWS::SNS::TopicPolicy")[0]!;
    const statements = props<{ PolicyDocument: { Statement: Statement[] } }>(topicPolicy).PolicyDocument.Statement;
    expect(statements.find((s) => s.Effect === "Deny")).toMatchObject({ Condition: { Bool: { "aws:SecureTransport": "false" } } });
    const publish = statements.find((s) => JSON.stringify(s.Principal).includes("ses.amazonaws.com"))!;
    expect(JSON.stringify(publish.Condition)).toContain(":configuration-set/");
    // The subscriber is the SES event handler, with a dead-letter queue for undeliverable events.
    const [fnId] = functionByHandler(prod.api, SES_EVENTS_HANDLER);
    const [, subscription] = ofType(prod.api, "AWS::SNS::Subscription")[0]!;
    expect(props(subscription)).toMatchObject({ Protocol: "lambda", TopicArn: { Ref: topicId }, Endpoint: { "Fn::GetAtt": [fnId, "Arn"] } });
    expect(JSON.stringify(props(subscription).RedrivePolicy)).toContain("BackgroundFailures");
  });

  it("lets the SES event handler read and write the table (Get, Put, Update) and nothing else", () => {
    const statements = statementsOf(prod.api, SES_EVENTS_HANDLER);
    const table = statements.filter((s) => sortedActions(s).every((a) => a.startsWith("dynamodb:")));
    expect(table.map(sortedActions)).toEqual([["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"]]);
    expect(JSON.stringify(table[0]!.Resource)).toMatch(/ExportsOutputFnGetAttTable\w*Arn/);
    const rest = statements.filter((s) => !table.includes(s));
    expect(rest.flatMap(sortedActions).every((a) => a.startsWith("sqs:"))).toBe(true);
  });
});

describe("share host", () => {
  const aliasesOf = (s: Stage) => props<{ DistributionConfig: { Aliases?: string[] } }>(ofType(s.web, "AWS::CloudFront::Distribution")[0]![1]).DistributionConfig.Aliases;
  const recordNames = (s: Stage, type: string) => ofType(s.web, "AWS::Route53::RecordSet").filter(([, r]) => props(r).Type === type).map(([, r]) => props(r).Name);

  it("is the public host when HANGAR_SHARE_BASE_URL is unset: no alias, no certificate, no records", () => {
    expect(aliasesOf(dev)).toBeUndefined();
    expect(ofType(dev.web, "AWS::Route53::RecordSet")).toHaveLength(0);
    expect(ofType(dev.web, "AWS::CloudFormation::CustomResource")).toHaveLength(0);
  });

  it("is served by the distribution on a host of its own: alternate name, one us-east-1 certificate for both names, A/AAAA aliases", () => {
    expect(aliasesOf(prod)).toEqual(["hangar.example.com", "apps.example.com"]);
    const [certId, certificate] = ofType(prod.web, "AWS::CloudFormation::CustomResource").find(([id]) => id.startsWith("DomainCertificate"))!;
    expect(props(certificate)).toMatchObject({ DomainName: "hangar.example.com", SubjectAlternativeNames: ["apps.example.com"], Region: "us-east-1" });
    const viewer = props<{ DistributionConfig: { ViewerCertificate: { AcmCertificateArn: unknown } } }>(ofType(prod.web, "AWS::CloudFront::Distribution")[0]![1]).DistributionConfig.ViewerCertificate;
    expect(JSON.stringify(viewer.AcmCertificateArn)).toContain(certId);
    for (const type of ["A", "AAAA"]) expect(recordNames(prod, type).sort()).toEqual(["apps.example.com.", "hangar.example.com."]);
    // DNS outside Route 53: the operator's certificate covers both names, no records.
    expect(aliasesOf(edge)).toEqual(["hangar.example.com", "apps.example.com"]);
    expect(ofType(edge.web, "AWS::Route53::RecordSet")).toHaveLength(0);
  });

  it("serves every path on the share host (one distribution, no host-specific behaviour), so the share page's links and cookie work there", () => {
    const config = props<{ DistributionConfig: { CacheBehaviors: { PathPattern: string }[] } }>(ofType(prod.web, "AWS::CloudFront::Distribution")[0]![1]).DistributionConfig;
    expect(config.CacheBehaviors.map((b) => b.PathPattern).sort()).toEqual(["/api/*", "/apps/*", "/cli/*", "/devices/*", "/download/*", "/install/*", "/share/*", "/unsubscribe/*"]);
    expect(prod.web.Outputs?.ShareBaseUrl?.Value).toBe("https://apps.example.com");
  });

  it("is refused at synth when no Route 53 zone holds it", async () => {
    const message = await refusal("hangartest-nozone", { HANGAR_SHARE_BASE_URL: "https://apps.example.net" });
    expect(message).toContain("HANGAR_SHARE_HOSTED_ZONE");
    expect(message).toContain("apps.example.net");
  });
});

describe("background work", () => {
  const queueId = (s: Stage) => ofType(s.api, "AWS::SQS::Queue").find(([id]) => id.startsWith("BackgroundFailures"))![0];

  it("parks every self-invoking function's failed run in an encrypted, TLS-only queue after two retries", () => {
    for (const stage of [dev, prod]) {
      const configs = ofType(stage.api, "AWS::Lambda::EventInvokeConfig").map(([, c]) => props(c));
      for (const name of routeFunctions.filter((n) => accessOf(n).selfInvoke)) {
        const [fnId] = functionByHandler(stage.api, handlerOf(name));
        const config = configs.find((c) => JSON.stringify(c.FunctionName) === JSON.stringify({ Ref: fnId }))!;
        expect(config, name).toMatchObject({
          MaximumRetryAttempts: 2,
          DestinationConfig: { OnFailure: { Destination: { "Fn::GetAtt": [queueId(stage), "Arn"] } } },
        });
        expect(config.MaximumEventAgeInSeconds).toBeLessThanOrEqual(6 * 3600);
      }
      expect(props(stage.api.Resources[queueId(stage)])).toMatchObject({ SqsManagedSseEnabled: true });
      const [, policy] = ofType(stage.api, "AWS::SQS::QueuePolicy").find(([, p]) => JSON.stringify(props(p).Queues).includes(queueId(stage)))!;
      const deny = props<{ PolicyDocument: { Statement: Statement[] } }>(policy).PolicyDocument.Statement.find((s) => s.Effect === "Deny");
      expect(deny).toMatchObject({ Condition: { Bool: { "aws:SecureTransport": "false" } } });
    }
  });

  it("resumes deletes every 15 minutes with exactly the projects function's table, index, listing, object and secret grants and environment", () => {
    for (const stage of [dev, prod]) {
      const [fnId] = functionByHandler(stage.api, RESUME_DELETES_HANDLER);
      const [, rule] = ofType(stage.api, "AWS::Events::Rule")[0]!;
      expect(props(rule).ScheduleExpression).toBe("rate(15 minutes)");
      expect(props<{ Targets: { Arn: unknown; DeadLetterConfig: unknown }[] }>(rule).Targets[0]).toMatchObject({
        Arn: { "Fn::GetAtt": [fnId, "Arn"] },
        DeadLetterConfig: { Arn: { "Fn::GetAtt": [queueId(stage), "Arn"] } },
      });
      const background = (s: Statement) => sortedActions(s).some((a) => a.startsWith("sqs:") || a.startsWith("lambda:"));
      const normalize = (statements: Statement[]) => statements.filter((s) => !background(s)).map((s) => JSON.stringify({ ...s, Action: sortedActions(s) })).sort();
      expect(normalize(roleStatements(stage.api, fnId))).toEqual(normalize(statementsOf(stage.api, handlerOf("projects"))));
      expect(envVars(stage.api, fnId)).toEqual(envVars(stage.api, functionByHandler(stage.api, handlerOf("projects"))[0]));
    }
  });
});

describe("daily housekeeping", () => {
  it("runs once a day with the grants of a build's removal, the webhook queue and mail, and no origin secret", () => {
    const queueId = (s: Stage) => ofType(s.api, "AWS::SQS::Queue").find(([id]) => id.startsWith("BackgroundFailures"))![0];
    for (const stage of [dev, prod]) {
      const [fnId] = functionByHandler(stage.api, DAILY_HOUSEKEEPING_HANDLER);
      const rule = ofType(stage.api, "AWS::Events::Rule").map(([, r]) => props<{ ScheduleExpression: string; Targets: { Arn: unknown; DeadLetterConfig: unknown }[] }>(r)).find((r) => JSON.stringify(r.Targets).includes(fnId))!;
      expect(rule.ScheduleExpression).toBe("rate(1 day)");
      expect(rule.Targets[0]).toMatchObject({ Arn: { "Fn::GetAtt": [fnId, "Arn"] }, DeadLetterConfig: { Arn: { "Fn::GetAtt": [queueId(stage), "Arn"] } } });
      const statements = roleStatements(stage.api, fnId);
      const actions = statements.flatMap(sortedActions);
      for (const action of ["dynamodb:Query", "dynamodb:BatchWriteItem", "dynamodb:PutItem", "s3:DeleteObjectVersion", "s3:ListBucketVersions", "sqs:SendMessage"]) expect(actions, action).toContain(action);
      expect(actions).not.toContain("secretsmanager:GetSecretValue");
      expect(actions.some((a) => a.endsWith("*"))).toBe(false);
      // SES only where the stage sends mail.
      expect(actions.includes("ses:SendEmail"), "ses").toBe(stage === prod);
    }
  });
});

describe("limits", () => {
  it("puts a WAF web ACL with a per-IP rate rule on the distribution only when HANGAR_WAF is on (us-east-1)", () => {
    for (const stage of [dev, prod]) expect(ofType(stage.web, "AWS::WAFv2::WebACL")).toHaveLength(0);
    const [aclId, acl] = ofType(edge.web, "AWS::WAFv2::WebACL")[0]!;
    expect(props(acl)).toMatchObject({
      Scope: "CLOUDFRONT",
      DefaultAction: { Allow: {} },
      Rules: [{ Action: { Block: {} }, Statement: { RateBasedStatement: { AggregateKeyType: "IP", Limit: 500, EvaluationWindowSec: 300 } } }],
    });
    // CI's API-key uploads are limited per key in the functions, not per address by WAF.
    const scope = JSON.stringify(props<{ Rules: { Statement: { RateBasedStatement: { ScopeDownStatement: unknown } } }[] }>(acl).Rules[0]!.Statement.RateBasedStatement.ScopeDownStatement);
    expect(scope).toContain('"NotStatement"');
    expect(scope).toContain('"SearchString":"/api/upload/"');
    const config = props<{ DistributionConfig: { WebACLId?: unknown } }>(ofType(edge.web, "AWS::CloudFront::Distribution")[0]![1]).DistributionConfig;
    expect(config.WebACLId).toEqual({ "Fn::GetAtt": [aclId, "Arn"] });
  });

  it("refuses HANGAR_WAF outside us-east-1, where a CloudFront web ACL cannot live", async () => {
    const message = await refusal("hangartest-waf", { HANGAR_WAF: "on" });
    expect(message).toContain("us-east-1");
  });
});

describe("who called", () => {
  it("sends the API every request header the functions read (a test of the code, not a list to remember)", async () => {
    const dir = path.join(REPO_ROOT, "packages", "functions", "src");
    const read = new Set<string>();
    for (const entry of await readdir(dir, { recursive: true })) {
      if (!entry.endsWith(".ts")) continue;
      for (const m of (await readFile(path.join(dir, entry), "utf8")).matchAll(/header\([\w.]+,\s*"([A-Za-z0-9-]+)"\)/g)) read.add(m[1]!.toLowerCase());
    }
    // Authorization is forwarded by CloudFront itself on the POSTs that carry it.
    read.delete("authorization");
    // Accept-Encoding may not be named in an origin request policy: CloudFront normalizes it and
    // compresses answers at the edge (the behaviours' `compress`, on by default), so only a client
    // calling API Gateway directly gets the openapi function's own gzip.
    read.delete("accept-encoding");
    expect(read.size).toBeGreaterThan(3);
    expect([...read].filter((h) => !API_ORIGIN_HEADERS.map((a) => a.toLowerCase()).includes(h))).toEqual([]);
  });

  it("writes CloudFront standard logs to an encrypted, private bucket that expires them, by default on production only", () => {
    const logsOf = (s: Stage) => ofType(s.web, "AWS::S3::Bucket").find(([id]) => id.startsWith("CloudFrontLogs"));
    expect(logsOf(dev)).toBeUndefined();
    expect(logsOf(edge)).toBeUndefined();
    const [logId, bucket] = logsOf(prod)!;
    expect(props(bucket)).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerPreferred" }] },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 90, Status: "Enabled" }] },
    });
    expect(bucket).toMatchObject({ DeletionPolicy: "Retain" });
    const logging = props<{ DistributionConfig: { Logging?: { Bucket: unknown } } }>(ofType(prod.web, "AWS::CloudFront::Distribution")[0]![1]).DistributionConfig.Logging;
    expect(logging?.Bucket).toEqual({ "Fn::GetAtt": [logId, "RegionalDomainName"] });
  });
});

describe("more alarms", () => {
  const alarmsIn = (...templates: CfnTemplate[]) => templates.flatMap((t) => ofType(t, "AWS::CloudWatch::Alarm").map(([id, a]) => [id, props(a)] as const));
  const metricsText = (a: Record<string, unknown>) => JSON.stringify(a.Metrics ?? null);

  it("watch the API 429 rate (counted from the access log with the functions' dimensions)", () => {
    const [, filter] = ofType(prod.api, "AWS::Logs::MetricFilter")[0]!;
    expect(props(filter)).toMatchObject({
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [{ MetricNamespace: "Hangar", MetricName: "ApiTooManyRequests", Dimensions: [{ Key: "service", Value: "$.service" }, { Key: "stage", Value: "$.stage" }] }],
    });
    const rate = alarmsIn(prod.api).find(([, a]) => metricsText(a).includes("ApiTooManyRequests"))!;
    expect(metricsText(rate[1])).toContain("100 * throttled / requests");
    expect(metricsText(rate[1])).toContain('{"Name":"stage","Value":"hangartest-prod"}');
  });

  it("watch DynamoDB throttles and system errors, SES bounce (5 %) and complaint (0.1 %) rates, and every queue's depth", () => {
    const storage = alarmsIn(prod.storage).map(([, a]) => metricsText(a));
    expect(storage.some((m) => m.includes("ThrottledRequests"))).toBe(true);
    expect(storage.some((m) => m.includes("ReadThrottleEvents") && m.includes("WriteThrottleEvents") && m.includes("GlobalSecondaryIndexName"))).toBe(true);
    expect(storage.some((m) => m.includes("SystemErrors"))).toBe(true);
    const all = alarmsIn(prod.storage, prod.api, prod.web).map(([, a]) => a);
    expect(all.find((a) => a.MetricName === "Reputation.BounceRate")).toMatchObject({ Namespace: "AWS/SES", Threshold: 0.05 });
    expect(all.find((a) => a.MetricName === "Reputation.ComplaintRate")).toMatchObject({ Namespace: "AWS/SES", Threshold: 0.001 });
    for (const [template, id] of [...ofType(prod.storage, "AWS::SQS::Queue").map(([q]) => [prod.storage, q] as const), ...ofType(prod.api, "AWS::SQS::Queue").map(([q]) => [prod.api, q] as const)]) {
      // The build-mail queue holds mails waiting for their turn (its depth is normal work): the age
      // of its oldest message is watched instead; its dead-letter queue's depth like every other.
      if (id.startsWith("BuildMail") && !id.startsWith("BuildMailFailures")) {
        const age = alarmsIn(template).find(([, a]) => a.MetricName === "ApproximateAgeOfOldestMessage" && JSON.stringify(a.Dimensions).includes(id));
        expect(age?.[1], id).toMatchObject({ Threshold: 900, ComparisonOperator: "GreaterThanOrEqualToThreshold" });
        continue;
      }
      const depth = alarmsIn(template).find(([, a]) => a.MetricName === "ApproximateNumberOfMessagesVisible" && JSON.stringify(a.Dimensions).includes(id));
      // Every queue of failures alarms on its first message; the webhook queue is a work queue,
      // busy by design: it alarms on a backlog.
      const threshold = id.startsWith("WebhookQueue") ? WEBHOOK_QUEUE_DEPTH_ALARM : 1;
      expect(depth?.[1], id).toMatchObject({ Threshold: threshold, ComparisonOperator: "GreaterThanOrEqualToThreshold" });
    }
  });

  it("watch CloudFront's 5xx rate where its metrics are (us-east-1, Region=Global); elsewhere it is on the dashboard", () => {
    const cf = alarmsIn(edge.web).find(([, a]) => a.MetricName === "5xxErrorRate")!;
    expect(cf[1]).toMatchObject({ Namespace: "AWS/CloudFront", Threshold: 5 });
    expect(JSON.stringify(cf[1].Dimensions)).toContain('{"Name":"Region","Value":"Global"}');
    expect(alarmsIn(prod.web).filter(([, a]) => a.MetricName === "5xxErrorRate")).toEqual([]);
  });
});

describe("dashboard", () => {
  it("shows uploads, completes by outcome, downloads, installs, sign-ins, latencies and errors of the stage (with the alarms: production by default)", () => {
    expect(ofType(dev.web, "AWS::CloudWatch::Dashboard")).toHaveLength(0);
    for (const [stage, name] of [[prod, "hangartest-prod"], [edge, "hangartest-edge"]] as const) {
      const [, dashboard] = ofType(stage.web, "AWS::CloudWatch::Dashboard")[0]!;
      expect(props(dashboard).DashboardName).toBeUndefined();
      const body = JSON.stringify(props(dashboard).DashboardBody);
      for (const metric of ["UploadsCompleted", "UploadsRejected", "Downloads", "InstallStarts", "SignIns", "SignInFailures", "ExtractionTime", "RateLimited", "MailsSent", "MailBounces"]) {
        expect(body, metric).toContain(`\\"Hangar\\",\\"${metric}\\",\\"service\\",\\"hangar\\",\\"stage\\",\\"${name}\\"`);
      }
      for (const piece of ['\\"AWS/ApiGateway\\",\\"Latency\\"', '\\"stat\\":\\"p50\\"', '\\"stat\\":\\"p99\\"', '\\"AWS/Lambda\\",\\"Duration\\"', '\\"AWS/ApiGateway\\",\\"5xx\\"', '\\"AWS/Lambda\\",\\"Errors\\"', '\\"AWS/CloudFront\\",\\"5xxErrorRate\\"']) {
        expect(body, piece).toContain(piece);
      }
    }
  });
});

describe("execute-api endpoint", () => {
  it("is disabled in production behind CloudFront, which reaches the API on an origin domain of its own", () => {
    expect(props(ofType(prod.api, "AWS::ApiGatewayV2::Api")[0]![1]).DisableExecuteApiEndpoint).toBe(true);
    expect(props(ofType(prod.api, "AWS::ApiGatewayV2::DomainName")[0]![1]).DomainName).toBe("origin.hangar.example.com");
    expect(prod.api.Outputs?.ApiUrl?.Value).toBe("https://origin.hangar.example.com");
    const origins = props<{ DistributionConfig: { Origins: { DomainName: unknown; CustomOriginConfig?: object }[] } }>(ofType(prod.web, "AWS::CloudFront::Distribution")[0]![1]).DistributionConfig.Origins;
    expect(origins.find((o) => o.CustomOriginConfig)!.DomainName).toBe("origin.hangar.example.com");
    // Without a zone for that domain (DNS outside Route 53) it stays on, with a synth warning.
    expect(props(ofType(edge.api, "AWS::ApiGatewayV2::Api")[0]![1]).DisableExecuteApiEndpoint).toBe(false);
  });
});

describe("re-deployable production", () => {
  const NAME_PROPERTIES = ["TableName", "BucketName", "LogGroupName", "QueueName", "TopicName", "Name", "KeyAlias", "DashboardName", "AliasName"];

  it("gives no retained resource a fixed physical name, so removing and redeploying a stage cannot collide", () => {
    for (const template of [prod.storage, prod.api, prod.web]) {
      for (const [id, resource] of Object.entries(template.Resources)) {
        if (resource.DeletionPolicy !== "Retain") continue;
        for (const name of NAME_PROPERTIES) {
          const value = props(resource)[name];
          // A name built from another resource's generated id (the access log group's holds the
          // API's id) changes with a new deployment; a literal one would collide.
          const generated = value === undefined || /"(Ref|Fn::GetAtt)":\[?"(?!AWS::)/.test(JSON.stringify(value));
          expect(generated, `${id}.${name} = ${JSON.stringify(value)}`).toBe(true);
        }
      }
    }
    expect(ofType(prod.storage, "AWS::DynamoDB::Table")[0]![1].DeletionPolicy).toBe("Retain");
  });

  it("keeps the old table name only for stages that ask (HANGAR_LEGACY_TABLE_NAME), with a warning otherwise", () => {
    expect(props(ofType(edge.storage, "AWS::DynamoDB::Table")[0]![1]).TableName).toBe("hangartest-edge-hangar-Table");
    const warnings = prod.assembly.getStackByName("hangartest-prod-hangar-StorageStack").messages.filter((m) => m.level === "warning").map((m) => String(m.entry.data));
    expect(warnings.some((w) => w.includes("HANGAR_LEGACY_TABLE_NAME"))).toBe(true);
  });
});

describe("response headers", () => {
  it("add nosniff to every response (dashboard and API) and a CSP to the dashboard's", () => {
    const policies = ofType(dev.web, "AWS::CloudFront::ResponseHeadersPolicy").map(([, p]) => props<{ ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Record<string, unknown> } }>(p).ResponseHeadersPolicyConfig.SecurityHeadersConfig);
    expect(policies).toHaveLength(2);
    for (const headers of policies) expect(headers.ContentTypeOptions).toBeDefined();
    expect(policies.filter((h) => h.ContentSecurityPolicy)).toHaveLength(1);
  });
});

describe("docs/deploy.md", () => {
  it("lists every function's permissions exactly as stacks/access.ts grants them", async () => {
    const doc = await readFile(path.join(REPO_ROOT, "docs", "deploy.md"), "utf8");
    const block = /<!-- permissions:start -->\n([\s\S]*?)\n<!-- permissions:end -->/.exec(doc)?.[1];
    expect(block, "run `npm run docs:permissions` (it rewrites the table between the markers from permissionsTable())").toBe(permissionsTable(routeFunctions));
  });

  it("names the stage's public Url, not ApiUrl, as the URL CI calls, and the Node versions used", async () => {
    for (const file of ["README.md", "docs/deploy.md"]) {
      const text = await readFile(path.join(REPO_ROOT, file), "utf8");
      // ApiUrl is for debugging; the public Url is what CI calls.
      expect(text, file).not.toMatch(/ApiUrl[^\n]*(HANGAR_URL|base_url|URL CI calls)/);
      expect(text, file).toMatch(/`Url`[^\n]*URL CI calls/);
      expect(text, file).toContain("nodejs24.x");
      expect(text, file).not.toMatch(/Node\.js 22\b/);
    }
  });
});
