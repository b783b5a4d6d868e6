import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { Topic, type ITopic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import type { StageSettings } from "./settings";

/** Every alarm looks at five-minute periods. */
export const ALARM_PERIOD = Duration.minutes(5);
/**
 * The reaper reads a stream that keeps records for 24 h; an hour behind means it is stuck (the
 * batching window is one minute) and there is still time to act before records are lost.
 */
export const REAPER_ITERATOR_AGE_ALARM_MS = 3_600_000;

/**
 * The one topic every alarm of a stage notifies. Encrypted with a key of its own: CloudWatch
 * cannot publish to a topic under the AWS-managed `aws/sns` key, so the key's policy lets
 * CloudWatch use it. The topic refuses publishers that do not use TLS.
 */
export function alarmTopic(scope: Construct, settings: StageSettings): Topic {
  const key = new Key(scope, "AlarmsKey", {
    description: `Encrypts the alarm topic of ${settings.stage}`,
    enableKeyRotation: true,
  });
  key.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal("cloudwatch.amazonaws.com")],
      actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
      resources: ["*"],
    }),
  );
  const topic = new Topic(scope, "Alarms", { masterKey: key, enforceSSL: true });
  if (settings.alarmEmail) {
    topic.addSubscription(new EmailSubscription(settings.alarmEmail));
    NagSuppressions.addResourceSuppressions(
      topic,
      [{ id: "Serverless-SNSRedrivePolicy", reason: "E-mail subscription: SNS retries delivery itself, and a dead-letter queue of alarm mails would need an alarm of its own." }],
      true,
    );
  }
  return topic;
}

export function alarm(scope: Construct, id: string, description: string, metric: IMetric, threshold: number, topic: ITopic, periods = 1): Alarm {
  const a = new Alarm(scope, id, {
    alarmDescription: description,
    metric,
    threshold,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: periods,
    datapointsToAlarm: periods,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  a.addAlarmAction(new SnsAction(topic));
  return a;
}

/**
 * Errors and throttles of one function. The HTTP functions answer their own failures with the
 * JSON envelope, so Lambda's Errors count crashes and timeouts only: one is worth a look.
 * A throttle means a request got API Gateway's 503 instead of an answer.
 */
export function functionAlarms(scope: Construct, id: string, fn: IFunction, topic: ITopic): Alarm[] {
  return [
    alarm(scope, `${id}Errors`, `${id}: a function error (crash or timeout)`, fn.metricErrors({ period: ALARM_PERIOD, statistic: "Sum" }), 1, topic),
    alarm(scope, `${id}Throttles`, `${id}: invocations throttled`, fn.metricThrottles({ period: ALARM_PERIOD, statistic: "Sum" }), 1, topic),
  ];
}

export function iteratorAgeAlarm(scope: Construct, reaper: IFunction, topic: ITopic): Alarm {
  return alarm(
    scope,
    "ReapExpiredUploadsIteratorAge",
    "The reaper is more than an hour behind the table's stream (records are kept 24 h)",
    reaper.metric("IteratorAge", { period: ALARM_PERIOD, statistic: "Maximum" }),
    REAPER_ITERATOR_AGE_ALARM_MS,
    topic,
  );
}

/** Any message in a dead-letter (or on-failure) queue is work that did not happen: depth > 0 alarms. */
export function deadLetterAlarm(
  scope: Construct,
  queue: IQueue,
  topic: ITopic,
  id = "ReapExpiredUploadsFailuresDepth",
  description = "Stream batches the reaper gave up on: their uploads' objects were not deleted (see docs/deploy.md)",
): Alarm {
  return alarm(scope, id, description, queue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: "Maximum" }), 1, topic);
}

/**
 * SES pauses an account's sending at a bounce rate of 10 % or a complaint rate of 0.5 % and
 * reviews it from 5 % / 0.1 %: alarm at the review thresholds. The metrics are the account's
 * (AWS/SES, no dimension) and are ratios (0.05 = 5 %).
 */
export const SES_BOUNCE_RATE_ALARM = 0.05;
export const SES_COMPLAINT_RATE_ALARM = 0.001;

export function sesReputationAlarms(scope: Construct, topic: ITopic): Alarm[] {
  const reputation = (metricName: string) =>
    new Metric({ namespace: "AWS/SES", metricName, period: Duration.hours(1), statistic: "Maximum" });
  return [
    alarm(scope, "SesBounceRate", "SES bounce rate at or above 5 % (AWS reviews the account; 10 % pauses sending)", reputation("Reputation.BounceRate"), SES_BOUNCE_RATE_ALARM, topic),
    alarm(scope, "SesComplaintRate", "SES complaint rate at or above 0.1 % (AWS reviews the account; 0.5 % pauses sending)", reputation("Reputation.ComplaintRate"), SES_COMPLAINT_RATE_ALARM, topic),
  ];
}

/** Operations the functions run on the table, for the per-operation throttle and error metrics. */
export const TABLE_OPERATIONS = ["GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "BatchGetItem", "BatchWriteItem", "TransactWriteItems"] as const;

/**
 * DynamoDB throttles and service errors of the table. On-demand tables throttle when one
 * partition key is hotter than a partition serves (3,000 reads / 1,000 writes per second) or
 * a burst passes twice the previous peak: ThrottledRequests per operation and the read/write
 * throttle events of the table and its index; SystemErrors are DynamoDB's own 500s.
 */
export function tableAlarms(scope: Construct, tableName: string, indexName: string, topic: ITopic): Alarm[] {
  const period = ALARM_PERIOD;
  const metric = (metricName: string, dimensionsMap: Record<string, string>) =>
    new Metric({ namespace: "AWS/DynamoDB", metricName, dimensionsMap, period, statistic: "Sum" });
  const perOperation = (metricName: string) =>
    Object.fromEntries(TABLE_OPERATIONS.map((op, i) => [`${metricName.toLowerCase()}${i}`, metric(metricName, { TableName: tableName, Operation: op })]));
  const sum = (metrics: Record<string, IMetric>, label: string) =>
    new MathExpression({ expression: Object.keys(metrics).join(" + "), usingMetrics: metrics, period, label });
  return [
    alarm(scope, "TableThrottledRequests", "DynamoDB throttled requests to the table (a hot key or a burst beyond on-demand's headroom)", sum(perOperation("ThrottledRequests"), "ThrottledRequests"), 1, topic),
    alarm(
      scope,
      "TableThrottleEvents",
      "DynamoDB read or write throttle events on the table or its index",
      sum(
        {
          reads: metric("ReadThrottleEvents", { TableName: tableName }),
          writes: metric("WriteThrottleEvents", { TableName: tableName }),
          indexReads: metric("ReadThrottleEvents", { TableName: tableName, GlobalSecondaryIndexName: indexName }),
          indexWrites: metric("WriteThrottleEvents", { TableName: tableName, GlobalSecondaryIndexName: indexName }),
        },
        "ThrottleEvents",
      ),
      1,
      topic,
    ),
    alarm(scope, "TableSystemErrors", "DynamoDB answered requests to the table with its own 500s", sum(perOperation("SystemErrors"), "SystemErrors"), 1, topic),
  ];
}

/**
 * The custom metrics the functions emit (Embedded Metric Format): namespace `Hangar`, dimensions
 * exactly service=hangar and stage=<stage>, so stages in one account never mix.
 */
export const CUSTOM_METRICS_NAMESPACE = "Hangar";
export const CUSTOM_METRICS = [
  "UploadsCompleted",
  "UploadsRejected",
  "ExtractionTime",
  "BytesRead",
  "RateLimited",
  "Downloads",
  "InstallStarts",
  "SignIns",
  "SignInFailures",
  "MailsSent",
  "MailBounces",
] as const;
export type CustomMetricName = (typeof CUSTOM_METRICS)[number];

export function customMetric(stage: string, metricName: CustomMetricName, statistic = "Sum", period = ALARM_PERIOD): Metric {
  return new Metric({ namespace: CUSTOM_METRICS_NAMESPACE, metricName, dimensionsMap: { service: "hangar", stage }, statistic, period });
}
