import { Duration } from "aws-cdk-lib";
import { Certificate } from "aws-cdk-lib/aws-certificatemanager";
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import { Api, Config, Function, use, type ApiDomainProps, type StackContext } from "sst/constructs";
import { functions as functionTable, routeKey, routes, type FunctionDefinition, type RouteFunctionName } from "@hangar/functions";
import { functionStatements } from "./access";
import { functionEnvironment, stageSettings, type StageSettings } from "./settings";
import { StorageStack } from "./storage-stack";

/** One JSON object per request; the fields an operator needs to trace a request to its logs. */
export const accessLogFormat = JSON.stringify({
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

const retentionDays = (settings: StageSettings) =>
  RetentionDays[settings.logRetention.toUpperCase() as keyof typeof RetentionDays];

function customDomain(stack: StackContext["stack"], settings: StageSettings): ApiDomainProps | undefined {
  const domain = settings.customDomain;
  if (!domain) return undefined;
  if (domain.certificateArn) {
    // DNS outside Route 53: nothing is looked up at synth, the operator adds the CNAME.
    return {
      domainName: domain.domainName,
      isExternalDomain: true,
      cdk: { certificate: Certificate.fromCertificateArn(stack, "DomainCertificate", domain.certificateArn) },
    };
  }
  return { domainName: domain.domainName, ...(domain.hostedZone ? { hostedZone: domain.hostedZone } : {}) };
}

export function ApiStack({ stack, app }: StackContext) {
  const settings = stageSettings(app.stage);
  const { table, bucket, arns } = use(StorageStack);
  const environment = functionEnvironment(settings, { tableName: table.tableName, bucketName: bucket.bucketName });

  const define = (id: string, fn: FunctionDefinition) =>
    new Function(stack, id, {
      handler: fn.handler,
      memorySize: fn.memoryMB,
      timeout: fn.timeoutSeconds,
      environment,
      logGroup: new LogGroup(stack, `${id}Logs`, { retention: retentionDays(settings) }),
    });

  // One Lambda per entry of routes.ts's function table; a function serves all its routes.
  const functions = new Map<RouteFunctionName, Function>();
  for (const name of Object.keys(functionTable) as (keyof typeof functionTable)[]) {
    if (name === "fallback") continue;
    const fn = define(name, functionTable[name]);
    // Explicit statements instead of `bind`, which would grant dynamodb:* and s3:*.
    fn.attachPermissions(functionStatements(name, arns));
    functions.set(name, fn);
  }
  // Answers unknown paths (404) and wrong methods (405); it touches no resource.
  const fallback = define("fallback", functionTable.fallback);

  const domain = customDomain(stack, settings);
  const api = new Api(stack, "Api", {
    routes: {
      ...Object.fromEntries(routes.map((r) => [routeKey(r), { function: functions.get(r.fn)! }])),
      $default: { function: fallback },
    },
    defaults: { throttle: { rate: settings.throttle.rate, burst: settings.throttle.burst } },
    accessLog: { format: accessLogFormat, retention: settings.logRetention },
    cors: {
      allowOrigins: settings.corsOrigins,
      allowMethods: ["GET", "POST"],
      allowHeaders: ["content-type", "authorization", "x-client-id"],
      exposeHeaders: ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"],
      maxAge: "1 hour",
    },
    ...(domain ? { customDomain: domain } : {}),
  });

  const baseUrl = api.customDomainUrl ?? api.url;
  // Recorded in SSM (/sst/hangar/<stage>/Parameter/...) for scripts and a future dashboard;
  // not bound to the functions, which get the same values as plain environment variables.
  new Config.Parameter(stack, "HANGAR_BASE_URL", { value: settings.publicUrl ?? baseUrl });
  new Config.Parameter(stack, "HANGAR_SHARE_BASE_URL", { value: settings.shareBaseUrl ?? settings.publicUrl ?? baseUrl });

  if (settings.alarms) addAlarms(stack, api, functions.get("complete")!, settings);

  stack.addOutputs({
    ApiUrl: api.url,
    BaseUrl: settings.publicUrl ?? baseUrl,
    ShareBaseUrl: settings.shareBaseUrl ?? settings.publicUrl ?? baseUrl,
    ...(api.customDomainUrl ? { CustomDomainUrl: api.customDomainUrl } : {}),
  });

  return { api, functions, fallback };
}

function addAlarms(stack: StackContext["stack"], api: Api, complete: Function, settings: StageSettings) {
  const httpApi = api.cdk.httpApi;
  const period = Duration.minutes(5);
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
    metric: complete.metricDuration({ period, statistic: "p99" }),
    threshold: COMPLETE_P99_ALARM_MS,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  if (settings.alarmEmail) {
    const topic = new Topic(stack, "Alarms");
    topic.addSubscription(new EmailSubscription(settings.alarmEmail));
    for (const alarm of [serverErrors, slowComplete]) alarm.addAlarmAction(new SnsAction(topic));
  }
}
