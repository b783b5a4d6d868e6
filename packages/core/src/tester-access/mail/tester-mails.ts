import { composeMail } from "../../accounts/mail/account-mails";
import type { MailMessage } from "../../ports";

/**
 * The tester portal's sign-in page, which POSTs the token (`POST /api/tester/session`): a GET (a
 * mail scanner's prefetch) changes nothing. Sign-in and join confirmations use the same page.
 */
export const testerSignInLink = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/tester/sign-in?token=${encodeURIComponent(token)}`;

/**
 * The magic link. A security mail: it goes to the address that asked, once per request, and
 * carries no unsubscribe (that would only let a third party stop a tester from signing in). It
 * says why the address got it, so a tester who did not ask knows nothing happened.
 */
export function testerSignInMail(to: string, link: string, minutes: number): MailMessage {
  return composeMail({
    to,
    subject: "Your sign-in link for Hangar's tester portal",
    before: [
      `Someone, hopefully you, asked to sign in to Hangar's tester portal as ${to}.`,
      "You got this mail because test builds were sent to this address through Hangar, or it is in a tester group. Open the link to see every build sent to you:",
    ],
    action: { label: "Sign in to the tester portal", url: link },
    after: [
      `The link works once and expires in ${minutes} minutes. It signs this browser in for 30 days; no password is needed.`,
      "If you did not ask for it, ignore this mail: nothing happens without the link.",
    ],
  });
}

/**
 * The confirmation of a self-service join (a group's invite link). The group's and the workspace's
 * names are other people's typing: escaped in the HTML part like every value, and kept out of the
 * subject's first words so they cannot pose as Hangar.
 */
export function testerJoinMail(to: string, link: string, minutes: number, group: { groupName: string; workspaceName: string }): MailMessage {
  return composeMail({
    to,
    subject: `Hangar: confirm your address to join the testers “${group.groupName}”`,
    before: [
      `Someone, hopefully you, opened an invite link to the tester group “${group.groupName}” of “${group.workspaceName}” on Hangar and entered ${to}.`,
      "Confirm the address to join the group: its builds will then be sent to you, and you will be signed in to the tester portal.",
    ],
    action: { label: "Join and sign in", url: link },
    after: [
      `The link works once and expires in ${minutes} minutes.`,
      "If you did not ask to join, ignore this mail: nothing happens without the link, and you are not added to any group.",
    ],
  });
}
