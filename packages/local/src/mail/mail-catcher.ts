import { mkdirSync } from "node:fs";
import { MailDev } from "maildev";

export interface MailCatcherOptions {
  /** Where received mail is kept (survives restarts), inside the stack's data directory. */
  mailDir: string;
  smtpPort: number;
  webPort: number;
}

export interface RunningMailCatcher {
  /** Web UI and REST API (`GET <url>/api/email`). */
  url: string;
  smtpPort: number;
  close(): Promise<void>;
}

/** Mail is read by anyone who can reach the catcher, tokens and all: loopback only, always. */
const LOOPBACK = "127.0.0.1";

/**
 * MailDev (the local stand-in for SES): an SMTP server the handlers send to and a web UI that
 * shows what was sent. It runs inside the stack's own process, so it cannot outlive it.
 */
export async function startMailCatcher(options: MailCatcherOptions): Promise<RunningMailCatcher> {
  mkdirSync(options.mailDir, { recursive: true });
  const maildev = new MailDev({
    smtp: options.smtpPort,
    ip: LOOPBACK,
    web: options.webPort,
    webIp: LOOPBACK,
    mailDirectory: options.mailDir,
    silent: true,
  });
  try {
    await maildev.start();
  } catch (error) {
    // MailDev stops only what it reports as running; a half-started one (SMTP up, web port
    // taken) would keep its SMTP port open in our process. Its servers are not public API.
    const half = maildev as unknown as { orchestrator?: { smtp?: { stop(): Promise<void> } | null } };
    await half.orchestrator?.smtp?.stop().catch(() => undefined);
    throw error;
  }
  return {
    url: `http://${LOOPBACK}:${options.webPort}`,
    smtpPort: options.smtpPort,
    close: () => maildev.stop(),
  };
}
