import { createTransport, type Transporter } from "nodemailer";
import { DependencyError } from "../../errors/domain-errors";
import type { MailMessage, Mailer } from "../../ports";

/**
 * SMTP through nodemailer: the local stack's mail catcher (MailDev), or any relay given as
 * HANGAR_SMTP_URL (`smtp://user:pass@host:587`, `smtps://…`). Connection and protocol failures
 * become DependencyError("mail"); the URL (which may hold a password) is never put in a message.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // Bounded waits: a relay that hangs must not hold the request until the function times out.
    // Pooled: the build-mail sender hands over many mails a second, and a connection per mail
    // (greeting, EHLO) would cost more than the mail itself; an idle one closes at the socket timeout.
    this.transport = createTransport({ url, pool: true, maxConnections: 5, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html, ...(message.headers ? { headers: message.headers } : {}) });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new DependencyError("mail", `SMTP delivery failed (${typeof code === "string" ? code : "error"})`, { cause: error });
    }
  }
}
