import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Match, Template } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Settings, fallbackHandler, functions as functionTable, routeKey, routes, type RouteFunctionName } from "@hangar/functions";
import { reaperActions, tableActions, uploadActions } from "../access";
import { accessLogFormat, COMPLETE_P99_ALARM_MS } from "../api-stack";
import { expiredUploadFilter, REAPER_HANDLER } from "../storage-stack";
import { REPO_ROOT, synthesize } from "../synthesize";
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
];
const unset = Object.fromEntries(SETTING_KEYS.map((k) => [k, undefined]));

const CERT = "arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000000";
const prodEnv = {
  ...unset,
  HANGAR_PRODUCTION: "true",
  HANGAR_SHARE_BASE_URL: "https://apps.example.com/",
  HANGAR_MAX_FILE_SIZE: String(1024 ** 3),
  HANGAR_DOMAIN_NAME: "hangar.example.com",
  HANGAR_DOMAIN_CERTIFICATE_ARN: CERT,
  HANGAR_LOG_LEVEL: "warn",
  HANGAR_CORS_ORIGINS: "https://dashboard.example.com, https://admin.example.com",
  HANGAR_ALARM_EMAIL: "ops@example.com",
  HANGAR_API_THROTTLE_RATE: "20",
  HANGAR_API_THROTTLE_BURST: "40",
};

interface Stage {
  storage: CfnTemplate;
  api: CfnTemplate;
  outdir: string;
}
let dev: Stage;
let prod: Stage;
let tmp: string;

async function synthStage(stage: string, env: Record<string, string | undefined>): Promise<Stage> {
  const outdir = path.join(tmp, stage);
  const { assembly } = await synthesize({ stage, env, outdir, region: "eu-west-1" });
  const template = (name: string) => assembly.getStackByName(`${stage}-hangar-${name}`).template as CfnTemplate;
  return { storage: template("StorageStack"), api: template("ApiStack"), outdir };
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-synth-"));
  dev = await synthStage("hangartest-dev", unset);
  prod = await synthStage("hangartest-prod", prodEnv);
}, 180_000);

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
      expect.arrayContaining(["hangartest-dev-hangar-StorageStack.template.json", "hangartest-dev-hangar-ApiStack.template.json"]),
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

  it("run ESM bundles on nodejs22.x, arm64, without X-Ray", () => {
    for (const stage of [dev, prod]) {
      const fns = allOwn(stage);
      expect(fns).toHaveLength(routeFunctions.length + 2);
      for (const [, fn] of fns) {
        expect(props(fn)).toMatchObject({ Runtime: "nodejs22.x", Architectures: ["arm64"] });
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
      share: { memoryMB: 256, timeoutSeconds: 10 },
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

  it("passes the stage's settings through", () => {
    const env = envOf(prod, handlerOf("presign"));
    expect(env).toMatchObject({
      HANGAR_SHARE_BASE_URL: "https://apps.example.com",
      HANGAR_MAX_FILE_SIZE: String(1024 ** 3),
      POWERTOOLS_LOG_LEVEL: "WARN",
    });
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
  const bucketOf = (s: Stage) => ofType(s.storage, "AWS::S3::Bucket")[0]!;

  it("blocks all public access, disables ACLs and encrypts with S3-managed keys", () => {
    for (const stage of [dev, prod]) {
      expect(props(bucketOf(stage)[1])).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] },
      });
    }
  });

  it("denies every request not made over TLS", () => {
    const [bucketId] = bucketOf(dev);
    const [, policy] = ofType(dev.storage, "AWS::S3::BucketPolicy")[0]!;
    const statements = props<{ PolicyDocument: { Statement: Statement[] } }>(policy).PolicyDocument.Statement;
    const tls = statements.find((s) => s.Effect === "Deny");
    expect(tls).toMatchObject({
      Action: "s3:*",
      Principal: { AWS: "*" },
      Condition: { Bool: { "aws:SecureTransport": "false" } },
    });
    expect(JSON.stringify(tls!.Resource)).toContain(bucketId);
    expect(JSON.stringify(tls!.Resource)).toContain('"/*"');
  });

  it("allows browser PUT/GET/HEAD from the stage's origins (default *)", () => {
    expect(props(bucketOf(dev)[1]).CorsConfiguration).toEqual({
      CorsRules: [
        { AllowedMethods: ["PUT", "GET", "HEAD"], AllowedOrigins: ["*"], AllowedHeaders: ["*"], ExposedHeaders: ["ETag"], MaxAge: 3600 },
      ],
    });
    expect(props(bucketOf(prod)[1]).CorsConfiguration).toMatchObject({
      CorsRules: [{ AllowedOrigins: ["https://dashboard.example.com", "https://admin.example.com"] }],
    });
  });

  it("aborts incomplete multipart uploads after one day", () => {
    expect(props(bucketOf(dev)[1]).LifecycleConfiguration).toEqual({
      Rules: [{ Id: "abort-incomplete-multipart-uploads", Status: "Enabled", AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }],
    });
  });

  it("is retained on production and emptied then destroyed elsewhere", () => {
    expect(bucketOf(prod)[1]).toMatchObject({ DeletionPolicy: "Retain", UpdateReplacePolicy: "Retain" });
    expect(ofType(prod.storage, "Custom::S3AutoDeleteObjects")).toHaveLength(0);
    expect(bucketOf(dev)[1]).toMatchObject({ DeletionPolicy: "Delete" });
    expect(ofType(dev.storage, "Custom::S3AutoDeleteObjects")).toHaveLength(1);
  });
});

describe("uploads never completed", () => {
  it("are deleted by the reaper, triggered only by TTL deletions of pending file records", () => {
    const [fnId] = functionByHandler(dev.storage, REAPER_HANDLER);
    const [, mapping] = ofType(dev.storage, "AWS::Lambda::EventSourceMapping")[0]!;
    const p = props<{ FilterCriteria: { Filters: { Pattern: string }[] } } & Record<string, unknown>>(mapping);
    expect(p.FunctionName).toEqual({ Ref: fnId });
    expect(JSON.stringify(p.EventSourceArn)).toContain("StreamArn");
    expect(p).toMatchObject({ StartingPosition: "LATEST", FunctionResponseTypes: ["ReportBatchItemFailures"], BisectBatchOnFunctionError: true });
    expect(p.FilterCriteria.Filters).toHaveLength(1);
    const pattern = JSON.parse(p.FilterCriteria.Filters[0]!.Pattern);
    expect(pattern).toEqual(expiredUploadFilter);
    expect(pattern).toMatchObject({
      eventName: ["REMOVE"],
      userIdentity: { type: ["Service"], principalId: ["dynamodb.amazonaws.com"] },
      dynamodb: { OldImage: { type: { S: ["file"] }, status: { S: expect.arrayContaining(["pending"]) } } },
    });
    expect(pattern.dynamodb.OldImage.status.S).not.toContain("completed");
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

  it.each(routeFunctions)("%s gets exactly its table and uploads/* actions", (name) => {
    for (const stage of [dev, prod]) {
      const [fnId] = functionByHandler(stage.api, handlerOf(name));
      const statements = roleStatements(stage.api, fnId);
      const objectAccess: readonly string[] = uploadActions[name];
      expect(statements).toHaveLength(objectAccess.length > 0 ? 2 : 1);
      const table = statements.find((s) => actionsOf(s).every((a) => a.startsWith("dynamodb:")))!;
      const uploads = statements.find((s) => actionsOf(s).every((a) => a.startsWith("s3:")))!;
      expect(table).toMatchObject({ Effect: "Allow" });
      expect(actionsOf(table)).toEqual([...tableActions[name]].sort());
      expect(JSON.stringify(table.Resource)).toMatch(tableArnImport);
      if (objectAccess.length === 0) continue;
      expect(uploads).toMatchObject({ Effect: "Allow" });
      expect(actionsOf(uploads)).toEqual([...uploadActions[name]].sort());
      expect(isUploadsArn(uploads.Resource)).toBe(true);
    }
  });

  it("grants the actions the use cases need, and nothing more", () => {
    expect(tableActions).toEqual({
      presign: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem"],
      complete: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:ConditionCheckItem"],
      download: ["dynamodb:GetItem"],
      share: ["dynamodb:GetItem"],
      accounts: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:BatchWriteItem"],
    });
    expect(uploadActions).toEqual({
      presign: ["s3:PutObject"],
      complete: ["s3:GetObject", "s3:PutObject"],
      download: ["s3:GetObject"],
      share: ["s3:GetObject"],
      accounts: [],
    });
  });

  it("gives the fallback function no permission beyond writing its logs", () => {
    const [fnId] = functionByHandler(dev.api, fallbackHandler);
    expect(roleStatements(dev.api, fnId)).toEqual([]);
  });

  it("lets the reaper delete uploads/* objects and read the table's stream only", () => {
    const [fnId] = functionByHandler(dev.storage, REAPER_HANDLER);
    const statements = roleStatements(dev.storage, fnId);
    expect(statements).toHaveLength(2);
    const del = statements.find((s) => actionsOf(s).includes("s3:DeleteObject"))!;
    expect(actionsOf(del)).toEqual([...reaperActions.uploads]);
    expect(JSON.stringify(del.Resource)).toMatch(/"\/uploads\/\*"/);
    const stream = statements.find((s) => actionsOf(s).includes("dynamodb:GetRecords"))!;
    expect(actionsOf(stream)).toEqual([...reaperActions.stream].sort());
    expect(JSON.stringify(stream.Resource)).toMatch(/Table\w+","Arn"\]\},"\/stream\/\*"/);
  });

  it("has no wildcard action and no * resource on any S3 or DynamoDB action, in any stack", () => {
    for (const stage of [dev, prod]) {
      for (const template of [stage.storage, stage.api]) {
        for (const statement of allIdentityStatements(template)) {
          for (const action of asList(statement.Action)) {
            expect(action).not.toBe("*");
            if (/^(s3|dynamodb):/.test(action)) {
              expect(action, `wildcard action ${action}`).toMatch(/^(s3|dynamodb):[A-Za-z]+$/);
              expect(asList(statement.Resource), `${action} on *`).not.toContain("*");
            }
          }
        }
      }
    }
    // And our own functions' policies stay on the table and the uploads/ prefix.
    for (const stage of [dev, prod]) {
      for (const [template, fns] of [[stage.api, ownFunctions(stage.api)], [stage.storage, ownFunctions(stage.storage)]] as const) {
        for (const [fnId] of fns) {
          for (const s of roleStatements(template, fnId)) {
            for (const resource of asList(s.Resource as unknown)) {
              const text = JSON.stringify(resource);
              expect(text.includes("Table") || text.includes('"/uploads/*"'), text).toBe(true);
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
  const stageOf = (s: Stage) => props(ofType(s.api, "AWS::ApiGatewayV2::Stage")[0]![1]);

  it("throttles every route (defaults 50 rps, burst 100; per stage)", () => {
    expect(stageOf(dev).DefaultRouteSettings).toEqual({ ThrottlingBurstLimit: 100, ThrottlingRateLimit: 50 });
    expect(stageOf(prod).DefaultRouteSettings).toEqual({ ThrottlingBurstLimit: 40, ThrottlingRateLimit: 20 });
  });

  it("writes JSON access logs with requestId, ip, routeKey, status and latency to a retained-per-stage group", () => {
    for (const [stage, days] of [[dev, 7], [prod, 90]] as const) {
      const settings = stageOf(stage).AccessLogSettings as { Format: string; DestinationArn: { "Fn::GetAtt": [string, string] } };
      expect(settings.Format).toBe(accessLogFormat);
      const format = JSON.parse(settings.Format) as Record<string, string>;
      expect(format).toMatchObject({
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

  it("serves the custom domain only when one is set", () => {
    expect(ofType(dev.api, "AWS::ApiGatewayV2::DomainName")).toHaveLength(0);
    const [, domain] = ofType(prod.api, "AWS::ApiGatewayV2::DomainName")[0]!;
    expect(props(domain)).toMatchObject({
      DomainName: "hangar.example.com",
      DomainNameConfigurations: [{ CertificateArn: CERT, EndpointType: "REGIONAL" }],
    });
    expect(ofType(prod.api, "AWS::ApiGatewayV2::ApiMapping")).toHaveLength(1);
    expect(JSON.stringify(prod.api.Outputs?.CustomDomainUrl)).toContain("hangar.example.com");
  });
});

describe("alarms", () => {
  it("are off by default outside production", () => {
    expect(ofType(dev.api, "AWS::CloudWatch::Alarm")).toHaveLength(0);
    expect(ofType(dev.api, "AWS::SNS::Topic")).toHaveLength(0);
  });

  it("watch the API 5xx rate and complete's p99 duration, notifying the alarm e-mail", () => {
    const alarms = ofType(prod.api, "AWS::CloudWatch::Alarm").map(([, a]) => props(a));
    expect(alarms).toHaveLength(2);
    const rate = alarms.find((a) => Array.isArray(a.Metrics))!;
    expect(JSON.stringify(rate.Metrics)).toContain("100 * errors / requests");
    expect(JSON.stringify(rate.Metrics)).toContain('"MetricName":"5xx"');
    const [completeId] = functionByHandler(prod.api, handlerOf("complete"));
    const slow = alarms.find((a) => a.MetricName === "Duration")!;
    expect(slow).toMatchObject({ Namespace: "AWS/Lambda", ExtendedStatistic: "p99", Threshold: COMPLETE_P99_ALARM_MS });
    expect(slow.Dimensions).toEqual([{ Name: "FunctionName", Value: { Ref: completeId } }]);
    const [topicId] = ofType(prod.api, "AWS::SNS::Topic")[0]!;
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    Template.fromJSON(prod.api).hasResourceProperties("AWS::SNS::Subscription", { Protocol: "email", Endpoint: "ops@example.com" });
  });
});

describe("outputs and parameters", () => {
  it("outputs the API and share base URLs and records them as SST Config parameters", () => {
    expect(Object.keys(dev.api.Outputs ?? {})).toEqual(expect.arrayContaining(["ApiUrl", "BaseUrl", "ShareBaseUrl"]));
    expect(prod.api.Outputs?.ShareBaseUrl?.Value).toBe("https://apps.example.com");
    Template.fromJSON(prod.api).hasResourceProperties("AWS::SSM::Parameter", {
      Name: "/sst/hangar/hangartest-prod/Parameter/HANGAR_SHARE_BASE_URL/value",
      Value: "https://apps.example.com",
    });
    expect(Object.keys(dev.storage.Outputs ?? {})).toEqual(expect.arrayContaining(["TableName", "BucketName"]));
  });
});

describe("same code everywhere", () => {
  it("points functions at the handler files of routes.ts, which exist", async () => {
    for (const handler of [...Object.values(functionTable).map((f) => f.handler), REAPER_HANDLER]) {
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
