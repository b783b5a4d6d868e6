import { SESv2Client, SendEmailCommand, type SendEmailCommandInput } from "@aws-sdk/client-sesv2";
import { DependencyError } from "../../errors/domain-errors";
import { parseMailFrom, type MailFrom } from "../../mail/mail-from";
import type { MailMessage, Mailer } from "../../ports";

export interface SesMailerOptions {
  /** HANGAR_MAIL_FROM, already parsed: `Name <address>` or an address (a bare domain never gets here). */
  from: MailFrom;
  /**
   * The stage's configuration set (HANGAR_SES_CONFIGURATION_SET): SES publishes each message's
   * bounces and complaints through it to the suppression handler. Without it SES still sends, but
   * nobody hears of a bounce.
   */
  configurationSet?: string | undefined;
}

/**
 * Amazon SES v2 SendEmail from the stage's sender identity (HANGAR_MAIL_FROM); the function's
 * IAM policy allows ses:SendEmail on that identity only. Every SDK failure (throttling, an
 * unverified identity, SES sandbox limits) becomes DependencyError("mail").
 */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: Pick<SESv2Client, "send">,
    private readonly options: SesMailerOptions,
  ) {}

  /** The SendEmail request for one message. */
  request(message: MailMessage): SendEmailCommandInput {
    return {
      // SES needs an address here (a domain is refused with MessageRejected), optionally with a display name.
      FromEmailAddress: this.options.from.header,
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: "UTF-8" },
          Body: { Text: { Data: message.text, Charset: "UTF-8" }, Html: { Data: message.html, Charset: "UTF-8" } },
          // SES v2 adds these to the message it builds (List-Unsubscribe of the build mail, RFC 8058).
          ...(message.headers ? { Headers: Object.entries(message.headers).map(([Name, Value]) => ({ Name, Value })) } : {}),
        },
      },
      ...(this.options.configurationSet ? { ConfigurationSetName: this.options.configurationSet } : {}),
    };
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.client.send(new SendEmailCommand(this.request(message)));
    } catch (error) {
      const name = error instanceof Error ? error.name : "UnknownError";
      throw new DependencyError("mail", `SES SendEmail failed (${name})`, { cause: error });
    }
  }
}

/** `from` is HANGAR_MAIL_FROM as written; a value parseMailFrom refuses throws MailFromError here. */
export function sesMailer(options: { region: string; from: string; configurationSet?: string | undefined }): SesMailer {
  return new SesMailer(new SESv2Client({ region: options.region }), {
    from: parseMailFrom(options.from),
    configurationSet: options.configurationSet,
  });
}
