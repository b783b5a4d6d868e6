export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Extra header fields, by name (the build mail's `List-Unsubscribe` and `List-Unsubscribe-Post`,
   * RFC 8058). Names are fixed by the code that composes the mail; values never hold a line break.
   */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Throws DependencyError("mail") when the message could not be handed over. */
  send(message: MailMessage): Promise<void>;
}
