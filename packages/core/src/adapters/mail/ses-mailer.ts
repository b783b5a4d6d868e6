import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { DependencyError } from "../../errors/domain-errors";
import type { MailMessage, Mailer } from "../../ports";

/**
 * Amazon SES v2 SendEmail from the stage's sender identity (HANGAR_MAIL_FROM); the function's
 * IAM policy allows ses:SendEmail on that identity only. Every SDK failure (throttling, an
 * unverified identity, SES sandbox limits) becomes DependencyError("mail").
 */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    try {
      await this.client.send(
        new SendEmailCommand({
          FromEmailAddress: this.from,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: "UTF-8" },
              Body: { Text: { Data: message.text, Charset: "UTF-8" }, Html: { Data: message.html, Charset: "UTF-8" } },
            },
          },
        }),
      );
    } catch (error) {
      const name = error instanceof Error ? error.name : "UnknownError";
      throw new DependencyError("mail", `SES SendEmail failed (${name})`, { cause: error });
    }
  }
}

export function sesMailer(options: { region: string; from: string }): SesMailer {
  return new SesMailer(new SESv2Client({ region: options.region }), options.from);
}
