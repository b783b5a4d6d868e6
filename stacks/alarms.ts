import { Duration } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from "aws-cdk-lib/aws-cloudwatch";
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

function alarm(scope: Construct, id: string, description: string, metric: IMetric, threshold: number, topic: ITopic, periods = 1): Alarm {
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

export function deadLetterAlarm(scope: Construct, queue: IQueue, topic: ITopic): Alarm {
  return alarm(
    scope,
    "ReapExpiredUploadsFailuresDepth",
    "Stream batches the reaper gave up on: their uploads' objects were not deleted (see docs/deploy.md)",
    queue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: "Maximum" }),
    1,
    topic,
  );
}
