export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Throws DependencyError("mail") when the message could not be handed over. */
  send(message: MailMessage): Promise<void>;
}
