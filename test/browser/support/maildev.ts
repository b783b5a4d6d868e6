/** Reads the local stack's mail through MailDev 3's REST API (`GET /api/email`). */

export interface CaughtMail {
  id: string;
  subject: string;
  text?: string;
  html?: string;
  to: { address: string; name?: string }[];
  date?: string;
}

export async function listMail(mailUrl: string): Promise<CaughtMail[]> {
  const response = await fetch(new URL("/api/email", mailUrl));
  if (!response.ok) throw new Error(`MailDev answered ${response.status} for GET /api/email`);
  return (await response.json()) as CaughtMail[];
}

/**
 * Waits for the newest mail to `address` whose text holds a link to `pathname` (for example
 * `/verify-email`), and returns that link. `after` skips links already used.
 */
export async function waitForLink(mailUrl: string, address: string, pathname: string, options: { exclude?: readonly string[]; timeoutMs?: number } = {}): Promise<{ link: string; mail: CaughtMail }> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  const wanted = address.toLowerCase();
  for (;;) {
    const mails = (await listMail(mailUrl)).filter((m) => m.to.some((t) => t.address.toLowerCase() === wanted));
    for (const mail of mails.reverse()) {
      const link = linksIn(mail).find((l) => new URL(l).pathname === pathname && !options.exclude?.includes(l));
      if (link) return { link, mail };
    }
    if (Date.now() > deadline) {
      throw new Error(`no mail to ${address} with a ${pathname} link within the wait; subjects seen: ${mails.map((m) => m.subject).join(" | ") || "none"}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function linksIn(mail: CaughtMail): string[] {
  const text = `${mail.text ?? ""}\n${(mail.html ?? "").replaceAll("&amp;", "&")}`;
  return [...new Set(text.match(/https?:\/\/[^\s"'<>)]+/g) ?? [])];
}
