import { existsSync } from "node:fs";
import path from "node:path";
import { Annotations, Duration, Fn, RemovalPolicy } from "aws-cdk-lib";
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
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import { AaaaRecord, ARecord, HostedZone, RecordTarget, type IHostedZone } from "aws-cdk-lib/aws-route53";
import { CloudFrontTarget } from "aws-cdk-lib/aws-route53-targets";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import { Config, use, type StackContext } from "sst/constructs";
import { functions as functionTable, ORIGIN_VERIFY_HEADER, routes, VIEWER_ADDRESS_HEADER, VIEWER_HOST_HEADER } from "@hangar/functions";
import { ApiStack } from "./api-stack";
import { StorageStack } from "./storage-stack";
import { suppressProviders } from "./nag";
import { stageSettings, type StageSettings } from "./settings";

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
 * build icons, which are short-lived signed GETs on the uploads bucket's own origin (the
 * address S3UrlSigner signs for; the local stack allows its object store the same way).
 */
export const dashboardCsp = (imageOrigin: string) =>
  `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: ${imageOrigin}; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

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
 * viewer's makes it answer 403) and sees CloudFront's address, so the viewer's host and address
 * travel in headers the functions trust only next to the origin secret. Overwrites whatever the
 * viewer sent under those names.
 */
export const VIEWER_HOST_CODE = `function handler(event) {
  var request = event.request;
  request.headers["${VIEWER_HOST_HEADER}"] = { value: request.headers.host ? request.headers.host.value : "" };
  request.headers["${VIEWER_ADDRESS_HEADER}"] = { value: event.viewer.ip };
  return request;
}`;

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

function certificateFor(scope: Construct, settings: StageSettings): { certificate: ICertificate; domainName: string; zone?: IHostedZone } | undefined {
  const domain = settings.customDomain;
  if (!domain) return undefined;
  if (domain.certificateArn) {
    // DNS outside Route 53: nothing is looked up at synth; the operator adds the CNAME.
    return { domainName: domain.domainName, certificate: Certificate.fromCertificateArn(scope, "DomainCertificate", domain.certificateArn) };
  }
  const zoneName = domain.hostedZone ?? domain.domainName.split(".").slice(-2).join(".");
  const zone = HostedZone.fromLookup(scope, "Zone", { domainName: zoneName });
  // CloudFront takes certificates from us-east-1 only, whatever the stage's region.
  const certificate = new DnsValidatedCertificate(scope, "DomainCertificate", { domainName: domain.domainName, hostedZone: zone, region: "us-east-1" });
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
  return { domainName: domain.domainName, certificate, zone };
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
  const { api, originVerify } = use(ApiStack);
  const { bucket: uploads } = use(StorageStack);
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
    comment: `Viewer Host and IP -> ${VIEWER_HOST_HEADER}, ${VIEWER_ADDRESS_HEADER}`,
  });

  // `https://<id>.execute-api.<region>.amazonaws.com` → its host name.
  const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split("/", api.url)), {
    protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    readTimeout: Duration.seconds(ORIGIN_READ_TIMEOUT_SECONDS),
    customHeaders: { [ORIGIN_VERIFY_HEADER]: originVerify.secretValue.unsafeUnwrap() },
  });
  const apiBehavior: BehaviorOptions = {
    origin: apiOrigin,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    // HTTPS only, no redirect: a POST redirected to https would arrive as a GET.
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    // Headers (but Host), cookies and query strings of the client, as API Gateway needs them.
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    responseHeadersPolicy: apiHeaders,
    functionAssociations: [{ function: viewerHost, eventType: FunctionEventType.VIEWER_REQUEST }],
  };

  const domain = certificateFor(stack, settings);
  const distribution = new Distribution(stack, "Distribution", {
    comment: `Hangar ${app.stage}`,
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
    ...(domain ? { domainNames: [domain.domainName], certificate: domain.certificate } : {}),
  });
  NagSuppressions.addResourceSuppressions(distribution, [
    { id: "AwsSolutions-CFR1", reason: "A distribution service for app testers anywhere: no geo restriction." },
    { id: "AwsSolutions-CFR2", reason: "No WAF by default (cost at rest); API Gateway throttles per route and the functions rate-limit per key and per IP." },
    { id: "AwsSolutions-CFR3", reason: "Requests to the API are in API Gateway's access logs; dashboard files are static build output." },
    ...(domain
      ? []
      : [{ id: "AwsSolutions-CFR4", reason: "Without a custom domain the *.cloudfront.net certificate is used, whose TLS policy CloudFront fixes." }]),
  ]);

  if (domain?.zone) {
    const target = RecordTarget.fromAlias(new CloudFrontTarget(distribution));
    new ARecord(stack, "AliasA", { zone: domain.zone, recordName: domain.domainName, target });
    new AaaaRecord(stack, "AliasAaaa", { zone: domain.zone, recordName: domain.domainName, target });
  }

  // Hashed files (Vite's assets/) are immutable; everything else is revalidated, so a deploy
  // shows at once. Old hashed files are kept for pages still open on the previous build.
  const folder = dashboardFolder(stack);
  const source = Source.asset(folder);
  new BucketDeployment(stack, "DashboardAssets", {
    sources: [source],
    destinationBucket: site,
    exclude: ["*"],
    include: ["assets/*"],
    prune: false,
    cacheControl: [CacheControl.fromString("public, max-age=31536000, immutable")],
  });
  new BucketDeployment(stack, "DashboardFiles", {
    sources: [source],
    destinationBucket: site,
    exclude: ["assets/*"],
    cacheControl: [CacheControl.fromString("no-cache")],
    distribution,
    distributionPaths: ["/*"],
  });

  suppressProviders(stack);

  const origin = `https://${domain?.domainName ?? distribution.distributionDomainName}`;
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
  });
  return { distribution, site };
}
