import { html } from "../../html/html";
import type { MailMessage } from "../../ports";

/** Links point at dashboard pages, which POST the token: a GET (a mail scanner's prefetch) changes nothing. */
export const verifyLink = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/verify-email?token=${encodeURIComponent(token)}`;
export const resetLink = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;

export interface Paragraphs {
  to: string;
  subject: string;
  /** Plain paragraphs: text, escaped in the HTML part like every other value (the address is the person's own typing). */
  before: string[];
  action?: { label: string; url: string };
  after: string[];
}

/**
 * The text part and the HTML part say the same; the HTML is written with core's escaping `html` template.
 * Every transactional mail of the service is composed here (the invitations' too), so they look alike.
 */
export function composeMail({ to, subject, before, action, after }: Paragraphs): MailMessage {
  const text = [...before, ...(action ? [`${action.label}:\n${action.url}`] : []), ...after, "— Hangar"].join("\n\n");
  const p = (s: string) => html`<p style="margin:0 0 16px">${s}</p>`;
  const button =
    action &&
    html`<p style="margin:0 0 16px"><a href="${action.url}" style="display:inline-block;padding:10px 18px;background:#0969da;color:#ffffff;border-radius:6px;text-decoration:none">${action.label}</a></p><p style="margin:0 0 16px;font-size:13px;color:#57606a">Or paste this address into your browser:<br>${action.url}</p>`;
  const body = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1b1f24;max-width:560px;margin:0 auto;padding:24px">${before.map(p)}${button}${after.map(p)}<p style="margin:0;color:#57606a">— Hangar</p></body></html>`;
  return { to, subject, text, html: body.toString() };
}

export function verificationMail(to: string, link: string, hours: number): MailMessage {
  return composeMail({
    to,
    subject: "Confirm your e-mail address for Hangar",
    before: [`Someone, hopefully you, created a Hangar account for ${to}.`, "Confirm the address to finish signing up:"],
    action: { label: "Confirm e-mail address", url: link },
    after: [`The link works once and expires in ${hours} hours. If you did not sign up, ignore this mail: nothing happens without the link.`],
  });
}

/** Sent instead of a verification mail when someone signs up with an address that has an account. */
export function accountExistsMail(to: string, links: { signIn: string; forgotPassword: string }): MailMessage {
  return composeMail({
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
  return composeMail({
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
