import { existsSync } from "node:fs";
import path from "node:path";
import { Annotations, Duration, Fn, RemovalPolicy, type Stack } from "aws-cdk-lib";
import { Certificate, DnsValidatedCertificate, type ICertificate } from "aws-cdk-lib/aws-certificatemanager";
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import { Dashboard, GraphWidget, Metric, TextWidget, type IMetric } from "aws-cdk-lib/aws-cloudwatch";
import { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import { AaaaRecord, ARecord, HostedZone, RecordTarget, type IHostedZone } from "aws-cdk-lib/aws-route53";
import { CloudFrontTarget } from "aws-cdk-lib/aws-route53-targets";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Config, use, type Api, type StackContext } from "sst/constructs";
import { functions as functionTable, ORIGIN_VERIFY_HEADER, routes, VIEWER_HOST_HEADER } from "@hangar/functions";
import { alarm, ALARM_PERIOD, customMetric, type CustomMetricName } from "./alarms";
import { API_429_METRIC, ApiStack } from "./api-stack";
import { StorageStack } from "./storage-stack";
import { suppressProviders } from "./nag";
import { CLIENT_IP_HEADER, domainZone, inZone, stageSettings, StageSettingsError, type StageSettings } from "./settings";

/** The dashboard's build output (`npm run build:web`). */
export const DASHBOARD_DIST = "packages/web/dist";
/** Synthesized in its place when the dashboard was not built and only templates are wanted. */
export const DASHBOARD_PLACEHOLDER = "stacks/web-placeholder";

/**
 * Path patterns sent to the API: one per first segment of the routes in routes.ts (`/api/*`,
 * `/share/*`, `/download/*`), so a new route is served without touching this file.
 */
export const apiPathPatterns = (): string[] => [...new Set(routes.map((r) => `/${r.path.split("/")[1]}/*`))].sort();

/**
 * CloudFront waits this long for the API. Its default (30 s) is one second above complete's
 * 29 s; beyond 60 s needs a quota increase. Derived from the slowest function, so a longer
 * timeout in routes.ts moves it.
 */
export const ORIGIN_READ_TIMEOUT_SECONDS = Math.min(60, Math.max(...Object.values(functionTable).map((f) => f.timeoutSeconds)) + 10);

/**
 * The dashboard's CSP: no inline script or style, no framing, nothing from other origins but
 * the uploads bucket's own origin (the address S3UrlSigner signs for; the local stack allows its
 * object store the same way): build icons are short-lived signed GETs on it (img-src), and
 * browser uploads PUT to presigned URLs on it (connect-src).
 */
export const dashboardCsp = (imageOrigin: string) =>
  `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: ${imageOrigin}; connect-src 'self' ${imageOrigin}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

/**
 * Viewer request of the dashboard: client routes (`/`, `/login`, `/verify-email`…) have no file
 * extension and get the app's shell; files keep their path, so a missing one stays an error
 * instead of an HTML 200. Only on the default behaviour: the API's JSON 404s pass untouched
 * (a distribution-wide error page would turn them into index.html).
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.slice(uri.lastIndexOf("/") + 1).indexOf(".") === -1) request.uri = "/index.html";
  return request;
}`;

/**
 * Viewer request of the API paths: API Gateway must receive its own Host (forwarding the
 * viewer's makes it answer 403), so the viewer's host travels in a header the functions trust
 * only next to the origin secret. Overwrites whatever the viewer sent under that name, and drops
 * a viewer's own `cloudfront-viewer-address`: CloudFront adds the real one at the origin request
 * (API_ORIGIN_HEADERS).
 */
export const VIEWER_HOST_CODE = `function handler(event) {
  var request = event.request;
  request.headers["${VIEWER_HOST_HEADER}"] = { value: request.headers.host ? request.headers.host.value : "" };
  delete request.headers["${CLIENT_IP_HEADER}"];
  return request;
}`;

/**
 * What CloudFront sends the API besides cookies, query strings, Authorization (always forwarded
 * on POST/PUT/PATCH/DELETE; never on the GETs, which authenticate by cookie) and the origin
 * secret: the request headers the functions read (`header(event, …)`; a stack test keeps this
 * list and the code in step), the viewer's host copied by VIEWER_HOST_CODE, and CloudFront's own
 * `CloudFront-Viewer-Address` (`<ip>:<port>`), which a policy must name to be sent at all
 * (the managed AllViewerExceptHostHeader policy forwards viewer headers only). An allow-list
 * rather than "all but Host": a viewer cannot smuggle headers the functions would read, and the
 * quota is 10 names.
 */
export const API_ORIGIN_HEADERS = [
  "accept",
  "content-type",
  "origin",
  "sec-fetch-site",
  "user-agent",
  "x-client-id",
  // The served CLI's ETag revalidation (`/cli/*`, 304 Not Modified).
  "if-none-match",
  VIEWER_HOST_HEADER,
  "CloudFront-Viewer-Address",
] as const;

/**
 * Paths of the API-key routes (CI uploads: `/api/upload/`), which the WAF rate rule does not
 * count: one CI egress address may send thousands of uploads an hour, and each key has its own
 * limit in the functions (HANGAR_RATE_LIMIT). Derived from routes.ts.
 */
export const apiKeyPathPrefixes = (): string[] =>
  [...new Set(routes.filter((r) => r.auth === "apiKey").map((r) => `/${r.path.split("/").slice(1, 3).join("/")}/`))].sort();

/** A WAF rate-based rule counts over this window (AWS's default; HANGAR_WAF_RATE_LIMIT is per window). */
export const WAF_WINDOW_SECONDS = 300;
/** CloudFront's share of 5xx answers (percent) above which the distribution alarm fires. */
export const CLOUDFRONT_5XX_RATE_ALARM_PERCENT = 5;
/** Days CloudFront's standard logs are kept. */
export const CLOUDFRONT_LOG_DAYS = 90;

/** The host of an http(s) URL. */
const hostOf = (url: string) => new URL(url).hostname.toLowerCase();

function dashboardFolder(scope: Construct): string {
  // Relative to the working directory, like SST's handler paths: sst runs from the repo root.
  if (existsSync(path.join(DASHBOARD_DIST, "index.html"))) return DASHBOARD_DIST;
  // Set by synthesize() (npm run synth, stack tests): templates without a build are fine there,
  // a deploy that would publish this page is not.
  if (process.env.HANGAR_SYNTH_ONLY !== "1") {
    throw new Error(`${DASHBOARD_DIST}/index.html is missing: run \`npm run build:web\` before deploying.`);
  }
  Annotations.of(scope).addWarning(`${DASHBOARD_DIST} is not built: synthesized with a placeholder page (npm run build:web).`);
  return DASHBOARD_PLACEHOLDER;
}

/**
 * The share host, when HANGAR_SHARE_BASE_URL names a host the distribution would not otherwise
 * serve (not the public URL's, not the custom domain). Share links, the share page's own links
 * and the link-password cookie all live on it, so the distribution must answer there too.
 */
export function separateShareHost(settings: StageSettings): string | undefined {
  if (!settings.shareBaseUrl) return undefined;
  const share = hostOf(settings.shareBaseUrl);
  const publicHost = settings.publicUrl ? hostOf(settings.publicUrl) : settings.customDomain?.domainName;
  if (share === publicHost || share === settings.customDomain?.domainName) return undefined;
  return share;
}

interface ServedDomains {
  /** The distribution's alternate domain names: the custom domain, then the share host. */
  domainNames: string[];
  certificate: ICertificate;
  /** A/AAAA alias records to create (empty when DNS is outside Route 53). */
  records: { name: string; zone: IHostedZone }[];
}

/**
 * The names the distribution answers to and their certificate. With HANGAR_DOMAIN_CERTIFICATE_ARN
 * DNS is outside Route 53 and that certificate must cover every name (ACM's SANs; CloudFront
 * refuses the distribution otherwise). Otherwise one certificate, DNS-validated in one zone, covers
 * the custom domain and the share host, and both get alias records. A share host no zone holds
 * cannot be served: synth stops with what to set.
 */
function servedDomains(scope: Construct, settings: StageSettings): ServedDomains | undefined {
  const domain = settings.customDomain;
  const share = separateShareHost(settings);
  if (!domain && !share) return undefined;
  if (domain?.certificateArn) {
    const certificate = Certificate.fromCertificateArn(scope, "DomainCertificate", domain.certificateArn);
    return { domainNames: [domain.domainName, ...(share ? [share] : [])], certificate, records: [] };
  }
  const siteZone = domainZone(settings);
  const shareZone = share ? (settings.shareHostedZone ?? (siteZone && inZone(share, siteZone) ? siteZone : undefined)) : undefined;
  if (share && !shareZone) {
    throw new StageSettingsError(
      "HANGAR_SHARE_BASE_URL",
      `its host ${share} is not the public URL's, so the distribution must serve it with a certificate and DNS: set HANGAR_SHARE_HOSTED_ZONE to the Route 53 zone holding ${share}` +
        (domain ? ` (the custom domain's zone ${siteZone} does not)` : "") +
        `, or use a share URL on the public host`,
    );
  }
  if (share && siteZone && shareZone !== siteZone) {
    throw new StageSettingsError(
      "HANGAR_SHARE_HOSTED_ZONE",
      `${shareZone} is not the custom domain's zone ${siteZone}: one DNS-validated certificate covers both names, so both must be in one zone`,
    );
  }
  if (share && shareZone && !inZone(share, shareZone)) {
    throw new StageSettingsError("HANGAR_SHARE_HOSTED_ZONE", `${share} is not in the zone ${shareZone}`);
  }
  const zone = HostedZone.fromLookup(scope, "Zone", { domainName: (siteZone ?? shareZone)! });
  const domainNames = [...(domain ? [domain.domainName] : []), ...(share ? [share] : [])];
  // CloudFront takes certificates from us-east-1 only, whatever the stage's region.
  const certificate = new DnsValidatedCertificate(scope, "DomainCertificate", {
    domainName: domainNames[0]!,
    ...(domainNames.length > 1 ? { subjectAlternativeNames: domainNames.slice(1) } : {}),
    hostedZone: zone,
    region: "us-east-1",
  });
  NagSuppressions.addResourceSuppressions(
    certificate,
    [
      { id: "AwsSolutions-IAM4", reason: "CDK's certificate requestor (a custom-resource provider): logs-only managed policy." },
      { id: "AwsSolutions-IAM5", reason: "CDK's certificate requestor requests, describes and deletes ACM certificates and writes the validation records; ACM takes no resource ARN before the certificate exists." },
      { id: "AwsSolutions-L1", reason: "CDK's certificate requestor pins its runtime." },
      { id: "Serverless-LambdaLatestVersion", reason: "CDK's certificate requestor pins its runtime." },
      { id: "Serverless-LambdaDefaultMemorySize", reason: "CDK's certificate requestor keeps CDK's sizing." },
      { id: "Serverless-LambdaDLQ", reason: "Invoked synchronously by CloudFormation, which reports failures." },
      { id: "Serverless-LambdaTracing", reason: "CDK's certificate requestor: no tracing." },
    ],
    true,
  );
  return { domainNames, certificate, records: domainNames.map((name) => ({ name, zone })) };
}

/**
 * Optional AWS WAF in front of everything: one rate-based rule blocking an IP above
 * HANGAR_WAF_RATE_LIMIT requests per 5 minutes. A web ACL for CloudFront must be created in
 * us-east-1; SST v2 deploys a stage's stacks in one region, so other regions are refused with
 * what to do instead.
 */
function webAcl(stack: Stack, settings: StageSettings): CfnWebACL | undefined {
  if (!settings.waf) return undefined;
  if (stack.region !== "us-east-1") {
    throw new StageSettingsError(
      "HANGAR_WAF",
      `a web ACL for CloudFront must live in us-east-1 and this stage deploys to ${stack.region}: deploy the stage to us-east-1, or leave HANGAR_WAF off and attach a web ACL you manage in us-east-1 to the distribution`,
    );
  }
  const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
  return new CfnWebACL(stack, "WebAcl", {
    scope: "CLOUDFRONT",
    description: `Hangar ${settings.stage}: per-IP rate limit`,
    defaultAction: { allow: {} },
    visibilityConfig: visibility(`hangar-${settings.stage}-web-acl`),
    rules: [
      {
        name: "rate-per-ip",
        priority: 0,
        action: { block: {} },
        statement: {
          rateBasedStatement: {
            aggregateKeyType: "IP",
            limit: settings.wafRateLimit,
            evaluationWindowSec: WAF_WINDOW_SECONDS,
            // Everything but the API-key upload routes (limited per key in the functions).
            scopeDownStatement: notApiKeyPaths(),
          },
        },
        visibilityConfig: visibility(`hangar-${settings.stage}-rate-per-ip`),
      },
    ],
  });
}

function notApiKeyPaths(): CfnWebACL.StatementProperty {
  const startsWith = (prefix: string): CfnWebACL.StatementProperty => ({
    byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: "STARTS_WITH", searchString: prefix, textTransformations: [{ priority: 0, type: "NONE" }] },
  });
  const prefixes = apiKeyPathPrefixes().map(startsWith);
  return { notStatement: { statement: prefixes.length === 1 ? prefixes[0]! : { orStatement: { statements: prefixes } } } };
}

/** CloudFront standard logs: SSE-S3 (the only encryption log delivery supports), ACLs for the log writer, expiry. */
function cloudFrontLogBucket(stack: Stack, settings: StageSettings): Bucket | undefined {
  if (!settings.cloudfrontLogs) return undefined;
  const bucket = new Bucket(stack, "CloudFrontLogs", {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    // CloudFront's standard logging writes with the awslogsdelivery account's ACL grant.
    objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    lifecycleRules: [{ id: "expire-cloudfront-logs", expiration: Duration.days(CLOUDFRONT_LOG_DAYS) }],
    removalPolicy: settings.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    autoDeleteObjects: !settings.production,
  });
  NagSuppressions.addResourceSuppressions(bucket, [
    { id: "AwsSolutions-S1", reason: "This is the CloudFront log bucket itself: logging its own reads would recurse." },
  ]);
  return bucket;
}

/**
 * One origin per stage: the dashboard (private bucket, read by CloudFront through Origin Access
 * Control) as the default behaviour, and the API's paths forwarded to the HTTP API uncached.
 * Plain CDK rather than SST's StaticSite: StaticSite reads its bucket through a legacy Origin
 * Access Identity, maps every 403/404 of the distribution to index.html (the API's JSON errors
 * included), and adds its own uploader and invalidator functions; here each of those is explicit.
 */
export function WebStack({ stack, app }: StackContext) {
  const settings = stageSettings(app.stage);
  const { api, functions, fallback, resumeDeletes, mail, originVerify, originHost, backgroundFailures } = use(ApiStack);
  const { bucket: uploads, table, reaper, topic } = use(StorageStack);
  // Virtual-hosted style, as core's S3UrlSigner signs icon GETs.
  const uploadsOrigin = `https://${uploads.bucketName}.s3.${stack.region}.amazonaws.com`;

  const site = new Bucket(stack, "Dashboard", {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    // Build output only: every deploy rewrites it, nothing to keep when a stage is removed.
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: true,
  });
  NagSuppressions.addResourceSuppressions(site, [
    { id: "AwsSolutions-S1", reason: "Public build output of the dashboard, read only by CloudFront; there is nothing to audit per object." },
  ]);

  const dashboardHeaders = new ResponseHeadersPolicy(stack, "DashboardHeaders", {
    comment: "Hangar dashboard: strict CSP, no framing, no sniffing, HSTS",
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: dashboardCsp(uploadsOrigin), override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: false, override: true },
    },
  });
  // The functions set their own headers (CSP of the share page, the API's); these only fill gaps.
  const apiHeaders = new ResponseHeadersPolicy(stack, "ApiHeaders", {
    comment: "Hangar API: HSTS and nosniff where the function did not set them",
    securityHeadersBehavior: {
      contentTypeOptions: { override: false },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: false },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: false, override: false },
    },
  });

  const spaRewrite = new CloudFrontFunction(stack, "SpaRewrite", {
    code: FunctionCode.fromInline(SPA_REWRITE_CODE),
    runtime: FunctionRuntime.JS_2_0,
    comment: "Dashboard client routes -> /index.html",
  });
  const viewerHost = new CloudFrontFunction(stack, "ViewerHost", {
    code: FunctionCode.fromInline(VIEWER_HOST_CODE),
    runtime: FunctionRuntime.JS_2_0,
    comment: `Viewer Host -> ${VIEWER_HOST_HEADER}; drops a viewer's ${CLIENT_IP_HEADER}`,
  });
  const apiRequests = new OriginRequestPolicy(stack, "ApiOriginRequests", {
    comment: "Hangar API: the headers the functions read, the viewer's address, cookies, query strings",
    headerBehavior: OriginRequestHeaderBehavior.allowList(...API_ORIGIN_HEADERS),
    cookieBehavior: OriginRequestCookieBehavior.all(),
    queryStringBehavior: OriginRequestQueryStringBehavior.all(),
  });

  // The API's origin domain when execute-api is off (production), else `https://<id>.execute-api…` → its host.
  const apiOrigin = new HttpOrigin(originHost ?? Fn.select(2, Fn.split("/", api.url)), {
    protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    readTimeout: Duration.seconds(ORIGIN_READ_TIMEOUT_SECONDS),
    // A CloudFormation dynamic reference ({{resolve:secretsmanager:…}}), resolved at deploy.
    customHeaders: { [ORIGIN_VERIFY_HEADER]: originVerify.secretValue.unsafeUnwrap() },
  });
  const apiBehavior: BehaviorOptions = {
    origin: apiOrigin,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    // HTTPS only, no redirect: a POST redirected to https would arrive as a GET.
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: apiRequests,
    responseHeadersPolicy: apiHeaders,
    functionAssociations: [{ function: viewerHost, eventType: FunctionEventType.VIEWER_REQUEST }],
  };

  const served = servedDomains(stack, settings);
  const acl = webAcl(stack, settings);
  const logs = cloudFrontLogBucket(stack, settings);
  const distribution = new Distribution(stack, "Distribution", {
    // HANGAR_ORIGIN_SECRET_GENERATION changes the distribution, so CloudFormation re-reads the
    // origin secret's dynamic reference (it does so only for resources it updates).
    comment: `Hangar ${app.stage}${settings.originSecretGeneration ? ` (origin secret ${settings.originSecretGeneration})` : ""}`,
    defaultRootObject: "index.html",
    defaultBehavior: {
      origin: S3BucketOrigin.withOriginAccessControl(site),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: dashboardHeaders,
      functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
    },
    additionalBehaviors: Object.fromEntries(apiPathPatterns().map((pattern) => [pattern, apiBehavior])),
    // No errorResponses: a 403/404 must reach the viewer as the origin sent it.
    httpVersion: HttpVersion.HTTP2_AND_3,
    minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
    // Every path on every name: the share host serves the share page and everything it links to.
    ...(served ? { domainNames: served.domainNames, certificate: served.certificate } : {}),
    ...(acl ? { webAclId: acl.attrArn } : {}),
    ...(logs ? { enableLogging: true, logBucket: logs, logFilePrefix: "cloudfront/" } : {}),
  });
  NagSuppressions.addResourceSuppressions(distribution, [
    { id: "AwsSolutions-CFR1", reason: "A distribution service for app testers anywhere: no geo restriction." },
    ...(acl
      ? []
      : [{ id: "AwsSolutions-CFR2", reason: "WAF is a stage setting (HANGAR_WAF, off by default: cost at rest); the functions limit per client and per key, API Gateway per route." }]),
    ...(logs
      ? []
      : [{ id: "AwsSolutions-CFR3", reason: "CloudFront standard logs are a stage setting (HANGAR_CLOUDFRONT_LOGS, on for production); API requests are in API Gateway's access logs." }]),
    ...(served?.domainNames.length
      ? []
      : [{ id: "AwsSolutions-CFR4", reason: "Without a custom domain the *.cloudfront.net certificate is used, whose TLS policy CloudFront fixes." }]),
  ]);

  const target = RecordTarget.fromAlias(new CloudFrontTarget(distribution));
  (served?.records ?? []).forEach(({ name, zone }, i) => {
    // The first keeps the ids existing stages were deployed with.
    const suffix = i === 0 ? "" : `Share`;
    new ARecord(stack, `Alias${suffix}A`, { zone, recordName: name, target });
    new AaaaRecord(stack, `Alias${suffix}Aaaa`, { zone, recordName: name, target });
  });

  /*
   * Publishing the build: hashed files (Vite's assets/) first, immutable and never pruned, so
   * pages still open on an older build keep loading theirs; then index.html and the other
   * unhashed files with no-cache, and the invalidation. The order is a CloudFormation
   * dependency: a new index.html never goes out before the assets it names.
   */
  const folder = dashboardFolder(stack);
  const source = Source.asset(folder);
  const assets = new BucketDeployment(stack, "DashboardAssets", {
    sources: [source],
    destinationBucket: site,
    exclude: ["*"],
    include: ["assets/*"],
    prune: false,
    cacheControl: [CacheControl.fromString("public, max-age=31536000, immutable")],
  });
  const files = new BucketDeployment(stack, "DashboardFiles", {
    sources: [source],
    destinationBucket: site,
    exclude: ["assets/*"],
    // Unhashed files only; old assets/ are excluded from pruning as well.
    cacheControl: [CacheControl.fromString("no-cache")],
    distribution,
    distributionPaths: ["/*"],
  });
  files.node.addDependency(assets);

  if (topic) {
    // AWS/CloudFront metrics exist in us-east-1 only (dimension Region=Global), and an alarm reads
    // metrics of its own region: elsewhere the rate is on the dashboard (docs/deploy.md).
    if (stack.region === "us-east-1") {
      alarm(stack, "CloudFront5xxRate", `More than ${CLOUDFRONT_5XX_RATE_ALARM_PERCENT}% of the distribution's answers are 5xx`, cloudFront5xxRate(distribution.distributionId), CLOUDFRONT_5XX_RATE_ALARM_PERCENT, topic, 2);
    } else {
      Annotations.of(distribution).addInfo("No CloudFront 5xx alarm: AWS/CloudFront metrics are in us-east-1 and alarms read their own region; the rate is on the dashboard.");
    }
  }

  // With the alarms (production by default): a disposable stage needs neither, nor their cost.
  if (settings.alarms) operationsDashboard(stack, app.stage, {
    api,
    functions: [...functions, ["fallback", fallback] as const, ["ResumeDeletes", resumeDeletes] as const, ...(mail ? [["SesEvents", mail.events] as const] : []), ["ReapExpiredUploads", reaper] as const],
    complete: functions.get("complete")!,
    distributionId: distribution.distributionId,
    tableName: table.tableName,
    queues: [backgroundFailures],
  });

  suppressProviders(stack);

  const origin = `https://${settings.customDomain?.domainName ?? distribution.distributionDomainName}`;
  const baseUrl = settings.publicUrl ?? origin;
  const shareBaseUrl = settings.shareBaseUrl ?? baseUrl;
  // Recorded in SSM (/sst/hangar/<stage>/Parameter/...) for scripts; the functions get the same
  // values from their environment or, by default, from the viewer's host (link-bases.ts).
  new Config.Parameter(stack, "HANGAR_BASE_URL", { value: baseUrl });
  new Config.Parameter(stack, "HANGAR_SHARE_BASE_URL", { value: shareBaseUrl });

  stack.addOutputs({
    Url: origin,
    DistributionDomainName: distribution.distributionDomainName,
    BaseUrl: baseUrl,
    ShareBaseUrl: shareBaseUrl,
    DashboardBucket: site.bucketName,
    ...(logs ? { CloudFrontLogBucket: logs.bucketName } : {}),
  });
  return { distribution, site, assets, files, acl, logs };
}

/** CloudFront's 5xxErrorRate (percent), in us-east-1 whatever the stage's region. */
function cloudFront5xxRate(distributionId: string): Metric {
  return new Metric({
    namespace: "AWS/CloudFront",
    metricName: "5xxErrorRate",
    dimensionsMap: { DistributionId: distributionId, Region: "Global" },
    region: "us-east-1",
    statistic: "Average",
    period: ALARM_PERIOD,
  });
}

interface DashboardSources {
  api: Api;
  functions: (readonly [string, IFunction])[];
  complete: IFunction;
  distributionId: string;
  tableName: string;
  queues: IQueue[];
}

/**
 * The stage's CloudWatch dashboard: the service's figures from the functions' custom metrics
 * (namespace Hangar, service=hangar, stage=<stage>), then latencies and errors from AWS's own.
 */
function operationsDashboard(stack: Stack, stage: string, sources: DashboardSources): Dashboard {
  const custom = (name: CustomMetricName, label: string, statistic = "Sum") => customMetric(stage, name, statistic).with({ label });
  const graph = (title: string, left: IMetric[], width = 8) => new GraphWidget({ title, left, width, height: 6 });
  const httpApi = sources.api.cdk.httpApi;
  const dashboard = new Dashboard(stack, "OperationsDashboard", { defaultInterval: Duration.days(1) });
  dashboard.addWidgets(new TextWidget({ markdown: `# Hangar ${stage}\nCustom metrics: namespace \`Hangar\`, service=hangar, stage=${stage}. See docs/deploy.md ("Alarms and the dashboard").`, width: 24, height: 2 }));
  dashboard.addWidgets(
    graph("Uploads: completes by outcome", [custom("UploadsCompleted", "completed"), custom("UploadsRejected", "rejected"), sources.complete.metricErrors({ label: "complete errors" })]),
    graph("Downloads and installs", [custom("Downloads", "downloads"), custom("InstallStarts", "install starts")]),
    graph("Sign-ins", [custom("SignIns", "sign-ins"), custom("SignInFailures", "failures")]),
  );
  dashboard.addWidgets(
    graph("API latency (ms)", [httpApi.metricLatency({ statistic: "p50", label: "p50" }), httpApi.metricLatency({ statistic: "p99", label: "p99" })]),
    graph("complete duration (ms)", [sources.complete.metricDuration({ statistic: "p50", label: "p50" }), sources.complete.metricDuration({ statistic: "p99", label: "p99" }), custom("ExtractionTime", "extraction p99", "p99")]),
    graph("Limits and mail", [
      custom("RateLimited", "rate limited"),
      new Metric({ namespace: "Hangar", metricName: API_429_METRIC, dimensionsMap: { service: "hangar", stage }, statistic: "Sum", label: "API 429" }),
      custom("MailsSent", "mails sent"),
      custom("MailBounces", "bounces"),
    ]),
  );
  dashboard.addWidgets(
    graph("API errors", [httpApi.metricServerError({ label: "5xx" }), httpApi.metricClientError({ label: "4xx" }), httpApi.metricCount({ label: "requests" })]),
    graph("Function errors", sources.functions.map(([name, fn]) => fn.metricErrors({ label: name }))),
    graph("Function throttles", sources.functions.map(([name, fn]) => fn.metricThrottles({ label: name }))),
  );
  dashboard.addWidgets(
    graph("CloudFront 5xx rate (%, us-east-1)", [cloudFront5xxRate(sources.distributionId)]),
    graph("DynamoDB throttles", [
      new Metric({ namespace: "AWS/DynamoDB", metricName: "ReadThrottleEvents", dimensionsMap: { TableName: sources.tableName }, statistic: "Sum", label: "read throttles" }),
      new Metric({ namespace: "AWS/DynamoDB", metricName: "WriteThrottleEvents", dimensionsMap: { TableName: sources.tableName }, statistic: "Sum", label: "write throttles" }),
    ]),
    graph("Failed background work", sources.queues.map((q) => q.metricApproximateNumberOfMessagesVisible({ label: "background failures" }))),
  );
  return dashboard;
}
