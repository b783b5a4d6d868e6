import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { SNSEvent } from "aws-lambda";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { dash, mailsTo, signedIn, type Browser } from "./support/accounts";
import { db, stack } from "./support/api";

/**
 * SES bounce and complaint suppression, end to end on the local stack: the SNS handler the
 * configuration set's topic invokes (run here in-process against the stack's DynamoDB Local, as
 * Lambda would run it against the table), then the service's own HTTP answers and MailDev.
 */

/** An SNS delivery of one SES event-publishing record, in the format of AWS's documented examples. */
function snsDelivery(sesEvent: unknown): SNSEvent {
  return {
    Records: [
      {
        EventSource: "aws:sns",
        EventVersion: "1.0",
        EventSubscriptionArn: "arn:aws:sns:eu-west-1:000000000000:hangar-prod-ses-events:6b0e71bd-7e97-4d97-80ce-4a0994e55286",
        Sns: {
          Type: "Notification",
          MessageId: "95df01b4-ee98-5cb9-9903-4c221d41eb5e",
          TopicArn: "arn:aws:sns:eu-west-1:000000000000:hangar-prod-ses-events",
          Subject: "",
          Message: JSON.stringify(sesEvent),
          Timestamp: "2026-11-20T08:15:31.000Z",
          SignatureVersion: "1",
          Signature: "EXAMPLE",
          SigningCertUrl: "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-EXAMPLE.pem",
          UnsubscribeUrl: "https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe",
          MessageAttributes: {},
        },
      },
    ],
  };
}

/** SES's "Bounce" event record (event publishing), as the docs show it, for one recipient. */
const bounceEvent = (address: string, bounceType: "Permanent" | "Transient") => ({
  eventType: "Bounce",
  bounce: {
    feedbackId: "0100017b2d5d8f9a-3b1f1c1e-7c1d-4a8e-9d43-2f3f3f3f3f3f-000000",
    bounceType,
    bounceSubType: bounceType === "Permanent" ? "General" : "MailboxFull",
    bouncedRecipients: [{ emailAddress: address, action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" }],
    timestamp: "2026-11-20T08:15:30.000Z",
    reportingMTA: "dsn; e226-55.smtp-out.eu-west-1.amazonses.com",
  },
  mail: {
    timestamp: "2026-11-20T08:15:29.000Z",
    source: "Hangar <noreply@example.com>",
    sourceArn: "arn:aws:ses:eu-west-1:000000000000:identity/example.com",
    sendingAccountId: "000000000000",
    messageId: "0100017b2d5d8e6a-8f1e5b7e-1f7a-4a3e-9d43-000000000000-000000",
    destination: [address],
    headersTruncated: false,
    headers: [{ name: "From", value: "Hangar <noreply@example.com>" }, { name: "To", value: address }],
    commonHeaders: { from: ["Hangar <noreply@example.com>"], to: [address], subject: "Reset your Hangar password" },
    tags: { "ses:configuration-set": ["hangar-prod"], "ses:source-ip": ["192.0.2.10"] },
  },
});

let handler: (event: SNSEvent) => Promise<void>;

beforeAll(async () => {
  // The function's environment on AWS, pointed at the local stack's table.
  const s = stack();
  vi.stubEnv("HANGAR_TABLE_NAME", s.tableName);
  vi.stubEnv("HANGAR_BUCKET_NAME", s.bucketName);
  vi.stubEnv("HANGAR_DYNAMODB_ENDPOINT", s.dynamoEndpoint);
  vi.stubEnv("HANGAR_LOCAL", "1");
  vi.stubEnv("AWS_REGION", s.region);
  vi.stubEnv("AWS_ACCESS_KEY_ID", s.credentials.accessKeyId);
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", s.credentials.secretAccessKey);
  ({ handler } = await import("../packages/functions/src/mail/ses-events.handler"));
});

describe("SES bounce and complaint events", () => {
  let owner: Browser;
  let email: string;
  beforeAll(async () => {
    ({ b: owner, email } = await signedIn());
  });

  it("a transient bounce changes nothing: mail still goes out and the account page says nothing", async () => {
    await handler(snsDelivery(bounceEvent(email, "Transient")));
    const account = await dash(owner, "GET", "/api/account");
    expect(account.json).not.toHaveProperty("mailSuppressed");
  });

  it("a permanent bounce suppresses the address: the account says since when, and no further mail goes there", async () => {
    await handler(snsDelivery(bounceEvent(email, "Permanent")));
    const item = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `SUPPRESSED#${email}`, sk: "SUPPRESSED" } }));
    expect(item.Item).toMatchObject({ type: "mailSuppression", email, reason: "bounce", since: "2026-11-20T08:15:30.000Z" });

    const account = await dash(owner, "GET", "/api/account");
    expect(account.status).toBe(200);
    expect(account.json.mailSuppressed).toEqual({ reason: "bounce", since: "2026-11-20T08:15:30.000Z" });

    const before = (await mailsTo(email)).length;
    // The same 202 as for any address (the answer says nothing about accounts), and no mail.
    const reset = await dash(owner, "POST", "/api/account/password-reset", { email });
    expect(reset.status).toBe(202);
    expect((await mailsTo(email)).length).toBe(before);
  });

  it("a malformed SNS message is dropped without failing the batch (retrying cannot fix it)", async () => {
    const event = snsDelivery({});
    event.Records[0]!.Sns.Message = "not json";
    await expect(handler(event)).resolves.toBeUndefined();
  });
});
