import { Annotations, CfnOutput, Duration } from "aws-cdk-lib";
import { CfnRoute, CfnStage, HttpMethod, HttpRoute, HttpRouteKey, PayloadFormatVersion } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { Effect, Policy, PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import { SqsDestination } from "aws-cdk-lib/aws-lambda-destinations";
import { FilterPattern, LogGroup, MetricFilter, RetentionDays } from "aws-cdk-lib/aws-logs";
import { CnameRecord, HostedZone } from "aws-cdk-lib/aws-route53";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import { ConfigurationSet, EmailIdentity, EmailSendingEvent, EventDestination, Identity, SuppressionReasons } from "aws-cdk-lib/aws-ses";
import { Topic, type ITopic } from "aws-cdk-lib/aws-sns";
import { LambdaSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Api, Function, Script, use, type StackContext } from "sst/constructs";
import { BUILD_MAIL_MAX_RECEIVES, BUILD_MAIL_TIMEOUT_SECONDS, buildMailPace, CLI_PACKAGE_FILES, functions as functionTable, routeKey, routes, type FunctionDefinition, type FunctionName, type RouteDefinition, type RouteFunctionName } from "@hangar/functions";
import { accessOf, dailyHousekeepingStatements, distributionMailStatements, functionStatements, mailIdentityArns, migrationStatements, RESUME_DELETES_AS, sesEventsStatements, webhookDeliveryStatements } from "./access";
import { ALARM_PERIOD, alarm, CUSTOM_METRICS_NAMESPACE, deadLetterAlarm, functionAlarms, sesReputationAlarms } from "./alarms";
import { DAILY_HOUSEKEEPING_HANDLER, DISTRIBUTION_MAIL_HANDLER, MIGRATE_WORKSPACES_HANDLER, RESUME_DELETES_HANDLER, SES_EVENTS_HANDLER, WEBHOOK_DELIVERY_HANDLER } from "./handlers";
import { suppressHttpFunction, suppressProviders, suppressScript, suppressWebhookDelivery } from "./nag";
import { appStoreConnectEnvironment, domainZone, enrollSigningEnvironment, functionEnvironment, stageSettings, type StageSettings, type Throttle } from "./settings";
import { StorageStack } from "./storage-stack";

/**
 * One JSON object per request; the fields an operator needs to trace a request to its logs. The
 * literal `service` and `stage` fields let a metric filter count 429s with the same dimensions as
 * the functions' metrics. API Gateway cannot log request headers, so the viewer's address (in
 * `cloudfront-viewer-address`) is in the function's request log line, under the same requestId.
 */
export const accessLogFormat = (stage: string) => JSON.stringify({
  service: "hangar",
  stage,
  requestId: "$context.requestId",
  requestTime: "$context.requestTimeEpoch",
  ip: "$context.identity.sourceIp",
  userAgent: "$context.identity.userAgent",
  httpMethod: "$context.httpMethod",
  routeKey: "$context.routeKey",
  path: "$context.path",
  status: "$context.status",
  responseLength: "$context.responseLength",
  latency: "$context.responseLatency",
  integrationLatency: "$context.integrationLatency",
  integrationStatus: "$context.integrationStatus",
  integrationError: "$context.integrationErrorMessage",
});

/** p99 of complete above this many ms means uploads are close to the 29 s API ceiling. */
export const COMPLETE_P99_ALARM_MS = 20_000;
/** Share of 5xx answers, in percent, above which the API alarm fires. */
export const SERVER_ERROR_RATE_ALARM_PERCENT = 5;
/**
 * Share of 429 answers, in percent, above which the API alarm fires: a few clients over their
 * own limits are normal; a tenth of all answers means a flood or a limit set too low.
 */
export const TOO_MANY_REQUESTS_RATE_ALARM_PERCENT = 10;
/** One webhook attempt takes at most 10 s; a batch of them runs in parallel with the writes around each. */
export const WEBHOOK_DELIVERY_TIMEOUT_SECONDS = 60;
/** Visible webhook tasks (due, not yet taken) above which deliveries are falling behind. */
export const WEBHOOK_QUEUE_DEPTH_ALARM = 1000;
/** The metric filter's count of 429 answers (namespace Hangar, the functions' dimensions). */
export const API_429_METRIC = "ApiTooManyRequests";

/**
 * Background work (a function invoking itself to finish a long delete, the scheduled resume,
 * SES events): Lambda retries a failed asynchronous invocation twice, then parks the event in the
 * stage's BackgroundFailures queue. Events older than this are parked too: past it, the scheduled
 * resume-deletes run has picked the work up anyway.
 */
export const BACKGROUND_RETRY_ATTEMPTS = 2;
export const BACKGROUND_MAX_EVENT_AGE = Duration.hours(6);
/** resume-deletes runs this often and may purge for this long (well under the interval). */
export const RESUME_DELETES_EVERY = Duration.minutes(15);
export const RESUME_DELETES_TIMEOUT_SECONDS = 300;
/**
 * The daily housekeeping (retention, expiry warnings: docs/release-safety.md) runs once a day for
 * at most 15 minutes, Lambda's longest; what a run leaves (a project with thousands of builds to
 * remove), the next day's run continues, as the rule gives the same answer for what is left.
 */
export const DAILY_HOUSEKEEPING_EVERY = Duration.days(1);
export const DAILY_HOUSEKEEPING_TIMEOUT_SECONDS = 900;
/**
 * The workspaces migration Script's version: it runs when created and when this changes (a fixed
 * value keeps the template the same from synth to synth; the migrations' own markers make a rerun
 * cheap anyway). `storage-1`: the run that also counts every project's storage.
 */
export const WORKSPACES_MIGRATION_VERSION = "workspaces-1+storage-1";

/**
 * The host CloudFront reaches the API at when the execute-api endpoint is disabled (production
 * with a Route 53 zone): an API Gateway custom domain, `origin.<custom domain>` unless set.
 */
export function apiOriginDomain(settings: StageSettings): { domainName: string; hostedZone: string } | undefined {
  const zone = domainZone(settings);
  if (!settings.production || !zone || !settings.customDomain) return undefined;
  return { domainName: `origin.${settings.customDomain.domainName}`, hostedZone: zone };
}

const retentionDays = (settings: StageSettings) =>
  RetentionDays[settings.logRetention.toUpperCase() as keyof typeof RetentionDays];

/**
 * The API Gateway budget of one route: `complete`'s routes have the smallest (each holds a GB
 * of memory for up to 29 s), unauthenticated routes (/share, /download, …) their own, so a
 * flood on public links cannot take the Lambda capacity CI uploads need; the rest the stage's.
 */
export function routeThrottle(route: Pick<RouteDefinition, "fn" | "auth">, settings: StageSettings): Throttle {
  if (route.fn === "complete") return settings.completeThrottle;
  if (route.auth === "none") return settings.publicThrottle;
  return settings.throttle;
}

export function ApiStack({ stack, app }: StackContext) {
  const settings = stageSettings(app.stage);
  const { table, bucket, arns, topic } = use(StorageStack);

  /*
   * CloudFront sends this in x-hangar-origin-verify (web-stack.ts); the functions trust the
   * viewer host and address CloudFront passes only next to it. Generated by Secrets Manager at
   * deploy, so no value is in the repository or the templates: CloudFront's origin header takes it
   * by dynamic reference, the functions read it at cold start by ARN (HANGAR_ORIGIN_VERIFY_SECRET_ARN).
   */
  const originVerify = new Secret(stack, "OriginVerifySecret", {
    description: `${app.stage}: shared by CloudFront and the API functions (x-hangar-origin-verify)`,
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });
  NagSuppressions.addResourceSuppressions(originVerify, [
    {
      id: "AwsSolutions-SMG4",
      reason: "Not a credential: it only lets the functions trust CloudFront's viewer headers. Rotation is a new value and a redeploy of the web stack (docs/deploy.md, \"Rotating the origin secret\"), not a Lambda rotation.",
    },
  ]);

  // Every asynchronous invocation that fails for good ends here, never silently.
  const backgroundFailures = new Queue(stack, "BackgroundFailures", {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  NagSuppressions.addResourceSuppressions(backgroundFailures, [
    { id: "AwsSolutions-SQS3", reason: "This queue is itself the on-failure destination (dead letters) of the stage's asynchronous invocations." },
    { id: "Serverless-SQSRedrivePolicy", reason: "This queue is itself the on-failure destination (dead letters) of the stage's asynchronous invocations." },
  ]);
  const background = {
    onFailure: new SqsDestination(backgroundFailures),
    retryAttempts: BACKGROUND_RETRY_ATTEMPTS,
    maxEventAge: BACKGROUND_MAX_EVENT_AGE,
  };

  /*
   * Webhook deliveries (docs/webhooks.md): events and delivery attempts are messages of this queue,
   * retries are messages sent with a delay (at most 15 minutes; longer waits are re-sent by the
   * worker), and the WebhookDelivery function below takes them. A message whose handling keeps
   * throwing (not a receiver's failure: that is a recorded attempt) lands in the dead letters.
   */
  const webhookDeadLetters = new Queue(stack, "WebhookDeadLetters", {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  NagSuppressions.addResourceSuppressions(webhookDeadLetters, [
    { id: "AwsSolutions-SQS3", reason: "This queue is itself the dead-letter queue of the webhook queue." },
    { id: "Serverless-SQSRedrivePolicy", reason: "This queue is itself the dead-letter queue of the webhook queue." },
  ]);
  const webhookQueue = new Queue(stack, "WebhookQueue", {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    // Six times the function's timeout, as Lambda's SQS event source asks.
    visibilityTimeout: Duration.seconds(6 * WEBHOOK_DELIVERY_TIMEOUT_SECONDS),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: webhookDeadLetters, maxReceiveCount: 5 },
  });

  // The table and the stage, no origin secret: for functions that answer no HTTP request.
  const baseEnvironment = functionEnvironment(settings, { tableName: table.tableName, bucketName: bucket.bucketName, webhookQueueUrl: webhookQueue.queueUrl });
  const mail = settings.mailFrom ? mailResources(stack, settings, backgroundFailures, baseEnvironment) : undefined;

  /*
   * Build mails (docs/testers.md "Distribution and build mail"): one message per mail, sent by the
   * distribution-mail function at SES's per-second quota. A message received
   * BUILD_MAIL_MAX_RECEIVES times without being sent lands in its dead-letter queue (alarmed).
   */
  const buildMailFailures = new Queue(stack, "BuildMailFailures", { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
  NagSuppressions.addResourceSuppressions(buildMailFailures, [
    { id: "AwsSolutions-SQS3", reason: "This queue is itself the dead-letter queue of the build-mail queue." },
    { id: "Serverless-SQSRedrivePolicy", reason: "This queue is itself the dead-letter queue of the build-mail queue." },
  ]);
  const buildMail = new Queue(stack, "BuildMail", {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(BUILD_MAIL_TIMEOUT_SECONDS * 2),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: buildMailFailures, maxReceiveCount: BUILD_MAIL_MAX_RECEIVES },
  });

  const environment = {
    ...functionEnvironment(settings, {
      tableName: table.tableName,
      bucketName: bucket.bucketName,
      originVerifySecretArn: originVerify.secretArn,
      ...(mail ? { sesConfigurationSet: mail.configurationSet.configurationSetName } : {}),
      webhookQueueUrl: webhookQueue.queueUrl,
    }),
    HANGAR_BUILD_MAIL_QUEUE_URL: buildMail.queueUrl,
  };
  const mailIdentities = mailIdentityArns(settings.mailFrom, mail?.configurationSet.configurationSetName, stack.partition, stack.region, stack.account);

  const define = (id: string, fn: Pick<FunctionDefinition, "handler" | "memoryMB" | "timeoutSeconds">, env: Record<string, string> = environment) =>
    new Function(stack, id, {
      handler: fn.handler,
      memorySize: fn.memoryMB,
      timeout: fn.timeoutSeconds,
      environment: env,
      logGroup: new LogGroup(stack, `${id}Logs`, { retention: retentionDays(settings) }),
      // Opt-in: keeps capacity for uploads when other functions are flooded, and caps complete.
      // The CLI tarball is packed at cold start from these files, copied beside the bundle.
      ...(id === "cli" ? { copyFiles: CLI_PACKAGE_FILES.map((from) => ({ from })) } : {}),
      ...(id === "complete" && settings.completeReservedConcurrency !== undefined
        ? { reservedConcurrentExecutions: settings.completeReservedConcurrency }
        : {}),
    });

  // One Lambda per entry of routes.ts's function table; a function serves all its routes.
  const functions = new Map<RouteFunctionName, Function>();
  for (const name of Object.keys(functionTable) as FunctionName[]) {
    if (name === "fallback") continue;
    // Only the function that may read the App Store Connect key learns where it is (docs/devices.md).
    // Likewise the enroll profile's signing identity: the devices function only.
    const fn = define(name, functionTable[name], {
      ...environment,
      ...(accessOf(name).appStoreConnectSecret ? appStoreConnectEnvironment(settings) : {}),
      ...(accessOf(name).enrollSigningSecret ? enrollSigningEnvironment(settings) : {}),
    });
    // Explicit statements instead of `bind`, which would grant dynamodb:* and s3:*.
    fn.attachPermissions(
      functionStatements(name, {
        ...arns,
        mailIdentityArns: mailIdentities,
        originVerifySecretArn: originVerify.secretArn,
        buildMailQueueArn: buildMail.queueArn,
        webhookQueueArn: webhookQueue.queueArn,
        appStoreConnectSecretArn: settings.appStoreConnect?.privateKeySecretArn,
        enrollSigningSecretArn: settings.enrollSigningSecretArn,
      }),
    );
    if (accessOf(name).selfInvoke) {
      // Its own policy, not the role's default one: the function depends on that, so naming the
      // function's ARN there would be a dependency cycle.
      new Policy(stack, `${name}SelfInvoke`, {
        roles: [fn.role!],
        statements: [new PolicyStatement({ effect: Effect.ALLOW, actions: ["lambda:InvokeFunction"], resources: [fn.functionArn] })],
      });
      // Its background run retries twice, then lands in the failures queue (alarmed), and the
      // scheduled resume-deletes picks the work up again.
      fn.configureAsyncInvoke(background);
    }
    // After the grants: suppressions reach only the children that exist (the role's policy).
    suppressHttpFunction(fn, accessOf(name).selfInvoke === true);
    if (accessOf(name).mail?.length && mailIdentities.length === 0) {
      Annotations.of(fn).addWarning(`${name} sends mail but HANGAR_MAIL_FROM is not set: it has no SES permission and its mails fail.`);
    }
    functions.set(name, fn);
  }
  // Answers unknown paths (404) and wrong methods (405); it touches no resource.
  const fallback = define("fallback", functionTable.fallback, baseEnvironment);
  suppressHttpFunction(fallback);

  // Projects and accounts left in "deleting" (a background run that failed for good, a timeout)
  // are finished by this schedule, with the projects function's own permissions.
  const resumeDeletes = define("ResumeDeletes", { handler: RESUME_DELETES_HANDLER, memoryMB: 512, timeoutSeconds: RESUME_DELETES_TIMEOUT_SECONDS });
  resumeDeletes.attachPermissions(functionStatements(RESUME_DELETES_AS, { ...arns, originVerifySecretArn: originVerify.secretArn }));
  resumeDeletes.configureAsyncInvoke(background);
  new Rule(stack, "ResumeDeletesSchedule", {
    description: `${app.stage}: finish projects and accounts left in "deleting"`,
    schedule: Schedule.rate(RESUME_DELETES_EVERY),
    targets: [new LambdaFunction(resumeDeletes, { retryAttempts: BACKGROUND_RETRY_ATTEMPTS, maxEventAge: Duration.hours(1), deadLetterQueue: backgroundFailures })],
  });
  suppressHttpFunction(resumeDeletes, true);

  // Retention policies and expiry warnings, once a day (housekeeping/daily.handler.ts). Its grants
  // are its own (access.ts dailyHousekeepingStatements): a build's removal as the files function
  // does it, the webhook queue for build.deleted, mail for the warnings; no origin secret.
  const dailyHousekeeping = define(
    "DailyHousekeeping",
    { handler: DAILY_HOUSEKEEPING_HANDLER, memoryMB: 512, timeoutSeconds: DAILY_HOUSEKEEPING_TIMEOUT_SECONDS },
    functionEnvironment(settings, {
      tableName: table.tableName,
      bucketName: bucket.bucketName,
      webhookQueueUrl: webhookQueue.queueUrl,
      ...(mail ? { sesConfigurationSet: mail.configurationSet.configurationSetName } : {}),
    }),
  );
  dailyHousekeeping.attachPermissions(dailyHousekeepingStatements({ ...arns, mailIdentityArns: mailIdentities, webhookQueueArn: webhookQueue.queueArn }));
  dailyHousekeeping.configureAsyncInvoke(background);
  new Rule(stack, "DailyHousekeepingSchedule", {
    description: `${app.stage}: apply retention policies and mail expiry warnings`,
    schedule: Schedule.rate(DAILY_HOUSEKEEPING_EVERY),
    targets: [new LambdaFunction(dailyHousekeeping, { retryAttempts: BACKGROUND_RETRY_ATTEMPTS, maxEventAge: Duration.hours(6), deadLetterQueue: backgroundFailures })],
  });
  suppressHttpFunction(dailyHousekeeping, true);

  // Data written before workspaces moves onto them (docs/teams.md "Migration"): once, when this
  // Script is created (the first deploy with teams), and again only when its version changes. After
  // every API function, so no function of the old code writes the old layout after it ran.
  const migrateFn = define("MigrateWorkspaces", { handler: MIGRATE_WORKSPACES_HANDLER, memoryMB: 512, timeoutSeconds: 900 }, baseEnvironment);
  migrateFn.attachPermissions(migrationStatements(arns));
  const migrate = new Script(stack, "MigrateWorkspacesScript", { version: WORKSPACES_MIGRATION_VERSION, onCreate: migrateFn, onUpdate: migrateFn });
  for (const fn of functions.values()) migrate.node.addDependency(fn);
  suppressScript(migrate, migrateFn);

  // The build-mail sender: reserved concurrency and batch size from SES's per-second quota
  // (build-mail-pace.ts), so all instances together never send faster than SES allows.
  const pace = buildMailPace(settings.buildMailPerSecond ?? 14);
  const distributionMail = new Function(stack, "DistributionMail", {
    handler: DISTRIBUTION_MAIL_HANDLER,
    memorySize: 256,
    timeout: BUILD_MAIL_TIMEOUT_SECONDS,
    environment: {
      ...baseEnvironment,
      ...(mail ? { HANGAR_SES_CONFIGURATION_SET: mail.configurationSet.configurationSetName } : {}),
    },
    reservedConcurrentExecutions: pace.concurrency,
    logGroup: new LogGroup(stack, "DistributionMailLogs", { retention: retentionDays(settings) }),
  });
  distributionMail.attachPermissions(distributionMailStatements({ ...arns, mailIdentityArns: mailIdentities }));
  distributionMail.addEventSource(new SqsEventSource(buildMail, { batchSize: pace.batchSize, reportBatchItemFailures: true, maxConcurrency: Math.max(2, pace.concurrency) }));
  suppressHttpFunction(distributionMail, true);
  NagSuppressions.addResourceSuppressions(
    distributionMail,
    [{ id: "Serverless-LambdaEventSourceMappingDestination", reason: "Failed messages go to the queue's own dead-letter queue (BuildMailFailures, redrive after 5 receives, alarmed); an SQS event source has no on-failure destination of its own." }],
    true,
  );
  // The webhook delivery worker: up to ten tasks a batch, failed ones reported back one by one.
  const webhookDeliveryEnvironment = functionEnvironment(settings, {
    tableName: table.tableName,
    bucketName: bucket.bucketName,
    webhookQueueUrl: webhookQueue.queueUrl,
    ...(mail ? { sesConfigurationSet: mail.configurationSet.configurationSetName } : {}),
  });
  const webhookDelivery = define("WebhookDelivery", { handler: WEBHOOK_DELIVERY_HANDLER, memoryMB: 256, timeoutSeconds: WEBHOOK_DELIVERY_TIMEOUT_SECONDS }, webhookDeliveryEnvironment);
  webhookDelivery.attachPermissions(webhookDeliveryStatements({ tableArn: arns.tableArn, webhookQueueArn: webhookQueue.queueArn, mailIdentityArns: mailIdentities }));
  webhookDelivery.addEventSource(new SqsEventSource(webhookQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 10 }));
  suppressWebhookDelivery(webhookDelivery);

  if (mail) {
    mail.events.attachPermissions(sesEventsStatements(arns));
    suppressHttpFunction(mail.events, true);
  }

  // Production behind CloudFront: the API is reached through a custom domain only and the
  // execute-api endpoint is off, so nobody goes around the distribution (its WAF and logs).
  const originDomain = apiOriginDomain(settings);
  if (settings.production && !originDomain) {
    Annotations.of(stack).addWarning(
      "The execute-api endpoint stays enabled: disabling it needs a Route 53 zone for the API's origin domain (HANGAR_DOMAIN_NAME with HANGAR_DOMAIN_HOSTED_ZONE); see docs/deploy.md.",
    );
  }

  const api = new Api(stack, "Api", {
    // The routes of routes.ts are added below, one integration per function; SST's routes would make
    // an integration and a Lambda permission per route (three resources each: past CloudFormation's
    // 500 per stack with the testers' routes).
    routes: { $default: { function: fallback } },
    defaults: { throttle: { rate: settings.throttle.rate, burst: settings.throttle.burst } },
    accessLog: { format: accessLogFormat(app.stage), retention: settings.logRetention },
    ...(originDomain ? { customDomain: originDomain } : {}),
    cdk: { httpApi: { disableExecuteApiEndpoint: originDomain !== undefined } },
    // The dashboard is served from the same origin (web-stack.ts): CORS only for origins configured.
    cors:
      settings.corsOrigins.length > 0
        ? {
            allowOrigins: settings.corsOrigins,
            allowMethods: ["GET", "HEAD", "POST"],
            allowHeaders: ["content-type", "authorization", "x-client-id"],
            exposeHeaders: ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"],
            maxAge: "1 hour",
          }
        : false,
  });
  addRoutes(api, functions);
  throttleRoutes(api, settings);
  NagSuppressions.addResourceSuppressions(
    api,
    [
      {
        id: "AwsSolutions-APIG4",
        reason: "Authorization is per route in the functions (API key, session cookie, or public by design: /share, /download); routes.ts names each route's kind.",
      },
    ],
    true,
  );

  // 429 answers (API Gateway's throttle and the functions' limits alike), from the access log.
  new MetricFilter(stack, "ApiTooManyRequestsFilter", {
    logGroup: api.cdk.accessLogGroup!,
    filterPattern: FilterPattern.stringValue("$.status", "=", "429"),
    metricNamespace: CUSTOM_METRICS_NAMESPACE,
    metricName: API_429_METRIC,
    metricValue: "1",
    dimensions: { service: "$.service", stage: "$.stage" },
  });

  const backgroundFunctions: [string, Function][] = [
    ["ResumeDeletes", resumeDeletes],
    ["DailyHousekeeping", dailyHousekeeping],
    ["DistributionMail", distributionMail],
    ["WebhookDelivery", webhookDelivery],
    ...(mail ? [["SesEvents", mail.events] as [string, Function]] : []),
  ];
  if (topic) {
    addApiAlarms(stack, api, functions, fallback, topic);
    for (const [id, fn] of backgroundFunctions) functionAlarms(stack, id, fn, topic);
    deadLetterAlarm(stack, backgroundFailures, topic, "BackgroundFailuresDepth", "Background work failed for good (a delete, the resume schedule, SES events): see docs/deploy.md");
    deadLetterAlarm(stack, buildMailFailures, topic, "BuildMailFailuresDepth", "Build mails given up after retries (SES down or refusing): see docs/testers.md");
    // Mails waiting longer than 15 minutes: the sender is stuck or far slower than distributions arrive.
    alarm(stack, "BuildMailAge", "Build mails have waited in the queue for more than 15 minutes", buildMail.metricApproximateAgeOfOldestMessage({ period: ALARM_PERIOD, statistic: "Maximum" }), 900, topic);
    deadLetterAlarm(stack, webhookDeadLetters, topic, "WebhookDeadLettersDepth", "Webhook tasks the delivery worker gave up on (events not fanned out, attempts not made): see docs/webhooks.md");
    alarm(
      stack,
      "WebhookQueueDepth",
      `More than ${WEBHOOK_QUEUE_DEPTH_ALARM} webhook tasks wait to be taken: deliveries are falling behind (docs/webhooks.md)`,
      webhookQueue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: "Maximum" }),
      WEBHOOK_QUEUE_DEPTH_ALARM,
      topic,
      3,
    );
    if (mail) sesReputationAlarms(stack, topic);
    const tooMany = new MathExpression({
      expression: "IF(requests > 0, 100 * throttled / requests, 0)",
      usingMetrics: {
        throttled: new Metric({ namespace: CUSTOM_METRICS_NAMESPACE, metricName: API_429_METRIC, dimensionsMap: { service: "hangar", stage: app.stage }, statistic: "Sum", period: ALARM_PERIOD }),
        requests: api.cdk.httpApi.metricCount({ period: ALARM_PERIOD, statistic: "Sum" }),
      },
      period: ALARM_PERIOD,
    });
    alarm(stack, "ApiTooManyRequestsRate", `More than ${TOO_MANY_REQUESTS_RATE_ALARM_PERCENT}% of API answers are 429`, tooMany, TOO_MANY_REQUESTS_RATE_ALARM_PERCENT, topic, 2);
  }

  suppressProviders(stack);
  // With the execute-api endpoint disabled, the API's own URL is its origin domain.
  stack.addOutputs({ ApiUrl: api.customDomainUrl ?? api.url });

  return {
    api,
    functions,
    fallback,
    resumeDeletes,
    mail,
    originVerify,
    backgroundFailures,
    buildMail,
    distributionMail,
    /** The host CloudFront sends API requests to (web-stack.ts). */
    originHost: originDomain?.domainName,
  };
}

/**
 * SES for HANGAR_MAIL_FROM: the sender's domain as an identity with Easy DKIM (its three CNAMEs
 * in Route 53 when the zone is known, else stack outputs to add by hand), a configuration set
 * every send names, and its bounce, complaint and reject events through an encrypted SNS topic to
 * the function that suppresses those addresses.
 */
function mailResources(stack: StackContext["stack"], settings: StageSettings, failures: Queue, environment: Record<string, string>) {
  const mailFrom = settings.mailFrom!;
  // No fixed name: CloudFormation names it, the functions get it in HANGAR_SES_CONFIGURATION_SET.
  // SES also refuses, on its own, to send to addresses of its account-level suppression list:
  // a second line behind the handler's suppression.
  const configurationSet = new ConfigurationSet(stack, "MailConfigurationSet", {
    reputationMetrics: true,
    sendingEnabled: true,
    suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
  });

  if (!settings.mailIdentityExists) {
    const identity = new EmailIdentity(stack, "MailIdentity", { identity: Identity.domain(mailFrom.domain), configurationSet, dkimSigning: true });
    if (settings.mailHostedZone) {
      const zone = HostedZone.fromLookup(stack, "MailZone", { domainName: settings.mailHostedZone });
      // The record names SES gives are fully qualified: the trailing dot keeps CDK from appending the zone.
      identity.dkimRecords.forEach((record, i) => new CnameRecord(stack, `MailDkim${i + 1}`, { zone, recordName: `${record.name}.`, domainName: record.value }));
    } else {
      identity.dkimRecords.forEach((record, i) => {
        new CfnOutput(stack, `MailDkim${i + 1}Name`, { value: record.name, description: `DKIM CNAME ${i + 1} of ${mailFrom.domain}: name` });
        new CfnOutput(stack, `MailDkim${i + 1}Value`, { value: record.value, description: `DKIM CNAME ${i + 1} of ${mailFrom.domain}: value` });
      });
    }
  }

  // SES publishes to an encrypted topic only with a customer key whose policy lets it.
  const key = new Key(stack, "MailEventsKey", { description: `Encrypts the SES event topic of ${settings.stage}`, enableKeyRotation: true });
  key.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal("ses.amazonaws.com")],
      actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
      resources: ["*"],
      conditions: { StringEquals: { "aws:SourceAccount": stack.account } },
    }),
  );
  const topic = new Topic(stack, "MailEvents", { masterKey: key, enforceSSL: true });
  configurationSet.addEventDestination("MailEventsToSns", {
    destination: EventDestination.snsTopic(topic),
    events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.REJECT],
  });

  const events = new Function(stack, "SesEvents", {
    handler: SES_EVENTS_HANDLER,
    memorySize: 256,
    timeout: 30,
    environment,
    logGroup: new LogGroup(stack, "SesEventsLogs", { retention: retentionDays(settings) }),
  });
  // Lambda's async retries, then the failures queue; SNS's own delivery failures go there too.
  events.configureAsyncInvoke({ onFailure: new SqsDestination(failures), retryAttempts: BACKGROUND_RETRY_ATTEMPTS, maxEventAge: BACKGROUND_MAX_EVENT_AGE });
  topic.addSubscription(new LambdaSubscription(events, { deadLetterQueue: failures }));
  return { configurationSet, topic, events };
}

/**
 * Every route of routes.ts, on one Lambda integration per function (payload v2) and one permission
 * per function for the whole API (`*\/*\/*`): a route is then one resource, not three, and a
 * function's permission does not grow with its routes. API Gateway still matches each route
 * exactly, so unknown paths reach the fallback (`$default`) and the handlers see the route key.
 */
function addRoutes(api: Api, functions: Map<RouteFunctionName, Function>) {
  const httpApi = api.cdk.httpApi;
  const integrations = new Map<RouteFunctionName, HttpLambdaIntegration>();
  for (const route of routes) {
    let integration = integrations.get(route.fn);
    if (!integration) {
      integration = new HttpLambdaIntegration(`Integration_${route.fn}`, functions.get(route.fn)!, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        scopePermissionToRoute: false,
      });
      integrations.set(route.fn, integration);
    }
    new HttpRoute(api, `Route_${routeKey(route).replace(/[^A-Za-z0-9]/g, "_")}`, {
      httpApi,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration,
    });
  }
}

/** Stage route settings: SST's Api only has stage-wide defaults. */
function throttleRoutes(api: Api, settings: StageSettings) {
  const stage = api.cdk.httpApi.defaultStage!.node.defaultChild as CfnStage;
  const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
  for (const route of routes) {
    const throttle = routeThrottle(route, settings);
    if (throttle === settings.throttle) continue;
    routeSettings[routeKey(route)] = { ThrottlingRateLimit: throttle.rate, ThrottlingBurstLimit: throttle.burst };
  }
  stage.addPropertyOverride("RouteSettings", routeSettings);
  // API Gateway refuses settings for a route key that does not exist yet.
  for (const child of api.node.findAll()) if (child instanceof CfnRoute) stage.addDependency(child);
}

function addApiAlarms(
  stack: StackContext["stack"],
  api: Api,
  functions: Map<RouteFunctionName, Function>,
  fallback: Function,
  topic: ITopic,
) {
  const httpApi = api.cdk.httpApi;
  const period = ALARM_PERIOD;
  const serverErrors = new Alarm(stack, "ApiServerErrorRate", {
    alarmDescription: `More than ${SERVER_ERROR_RATE_ALARM_PERCENT}% of API answers are 5xx`,
    metric: new MathExpression({
      // IF avoids a division by zero when there is no traffic.
      expression: "IF(requests > 0, 100 * errors / requests, 0)",
      usingMetrics: {
        errors: httpApi.metricServerError({ period, statistic: "Sum" }),
        requests: httpApi.metricCount({ period, statistic: "Sum" }),
      },
      period,
    }),
    threshold: SERVER_ERROR_RATE_ALARM_PERCENT,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  const slowComplete = new Alarm(stack, "CompleteDurationP99", {
    alarmDescription: `p99 of complete is above ${COMPLETE_P99_ALARM_MS} ms (API Gateway gives up at 29 s)`,
    metric: functions.get("complete")!.metricDuration({ period, statistic: "p99" }),
    threshold: COMPLETE_P99_ALARM_MS,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  for (const alarm of [serverErrors, slowComplete]) alarm.addAlarmAction(new SnsAction(topic));
  for (const [name, fn] of [...functions, ["fallback", fallback] as const]) functionAlarms(stack, name, fn, topic);
}
