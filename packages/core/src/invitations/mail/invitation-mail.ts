import { composeMail } from "../../accounts/mail/account-mails";
import type { MailMessage } from "../../ports";
import type { Role } from "../../workspaces/roles";

/** The dashboard page that shows the invitation and POSTs the token: a GET (a mail scanner's prefetch) changes nothing. */
export const acceptLink = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/invitations/accept?token=${encodeURIComponent(token)}`;

/** What each role may do, in the words of docs/teams.md's table. */
const ROLE_WORDS: Record<Role, string> = {
  owner: "everything, including managing owners and deleting the workspace",
  admin: "invite and manage members, and manage projects, builds, share links and API keys",
  developer: "upload and delete builds, change share links, and create and revoke API keys",
  viewer: "see projects, builds, share links and usage, without changing anything",
};

const article = (role: Role) => (role === "owner" || role === "admin" ? "an" : "a");

export interface InvitationMailInput {
  to: string;
  workspaceName: string;
  inviter: { email: string; displayName?: string };
  role: Role;
  link: string;
  expiresAt: Date;
}

/**
 * The invitation mail, text and HTML (core's escaping `html` template through composeMail): who
 * invited whom to what with which role, why this address got it, the link and its expiry, and how
 * to ignore it. The workspace's and the inviter's names are other people's typing: escaped in the
 * HTML part like every value, and kept out of the subject's first words so it cannot pose as Hangar.
 */
export function invitationMail({ to, workspaceName, inviter, role, link, expiresAt }: InvitationMailInput): MailMessage {
  const who = inviter.displayName ? `${inviter.displayName} (${inviter.email})` : inviter.email;
  const expiry = `${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return composeMail({
    to,
    subject: `Hangar: ${inviter.displayName ?? inviter.email} invited you to the workspace “${workspaceName}”`,
    before: [
      `${who} invited you to join the workspace “${workspaceName}” on Hangar as ${article(role)} ${role}.`,
      `As ${article(role)} ${role} you can ${ROLE_WORDS[role]}.`,
      `You got this mail because ${inviter.email} entered your address, ${to}, on the workspace's Members page.`,
    ],
    action: { label: "Accept the invitation", url: link },
    after: [
      `The link works once and expires on ${expiry} (7 days after it was sent). No Hangar account yet? Open the link and sign up with ${to}; once the address is confirmed and you are signed in, open this link again to join.`,
      "If you do not know this person or do not want to join, ignore this mail: nothing happens without the link, and the invitation expires by itself.",
    ],
  });
}
