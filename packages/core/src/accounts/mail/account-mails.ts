import type { MailMessage } from "../../ports";

/** Every value that did not come from us is escaped before it goes into HTML. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Links point at dashboard pages, which POST the token: a GET (a mail scanner's prefetch) changes nothing. */
export const verifyLink = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/verify-email?token=${encodeURIComponent(token)}`;
export const resetLink = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;

interface Paragraphs {
  to: string;
  subject: string;
  /** Plain paragraphs (escaped for HTML). */
  before: string[];
  action?: { label: string; url: string };
  after: string[];
}

function compose({ to, subject, before, action, after }: Paragraphs): MailMessage {
  const text = [...before, ...(action ? [`${action.label}:\n${action.url}`] : []), ...after, "— Hangar"].join("\n\n");
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const button = action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#0969da;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#57606a">Or paste this address into your browser:<br>${escapeHtml(action.url)}</p>`
    : "";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1b1f24;max-width:560px;margin:0 auto;padding:24px">` +
    `${before.map(p).join("")}${button}${after.map(p).join("")}<p style="margin:0;color:#57606a">— Hangar</p></body></html>`;
  return { to, subject, text, html };
}

export function verificationMail(to: string, link: string, hours: number): MailMessage {
  return compose({
    to,
    subject: "Confirm your e-mail address for Hangar",
    before: [`Someone, hopefully you, created a Hangar account for ${to}.`, "Confirm the address to finish signing up:"],
    action: { label: "Confirm e-mail address", url: link },
    after: [`The link works once and expires in ${hours} hours. If you did not sign up, ignore this mail: nothing happens without the link.`],
  });
}

/** Sent instead of a verification mail when someone signs up with an address that has an account. */
export function accountExistsMail(to: string, links: { signIn: string; forgotPassword: string }): MailMessage {
  return compose({
    to,
    subject: "Someone tried to sign up to Hangar with your address",
    before: [
      `Someone tried to create a Hangar account for ${to}, but there already is one.`,
      `If it was you, sign in at ${links.signIn}. If you do not remember the password, you can choose a new one:`,
    ],
    action: { label: "Reset your password", url: links.forgotPassword },
    after: ["If it was not you, you can ignore this mail: your account has not changed."],
  });
}

export function passwordResetMail(to: string, link: string, minutes: number): MailMessage {
  return compose({
    to,
    subject: "Reset your Hangar password",
    before: [`Someone, hopefully you, asked to reset the password of the Hangar account ${to}.`],
    action: { label: "Choose a new password", url: link },
    after: [
      `The link works once and expires in ${minutes} minutes. Choosing a new password signs you out everywhere.`,
      "If you did not ask for this, ignore this mail: your password has not changed.",
    ],
  });
}
