import { html } from "@hangar/core/html";
import { frame } from "../share/share-page";

/**
 * The build mail's unsubscribe pages (server-rendered with core's escaping `html`, no script, the
 * share pages' frame and CSP): the question with its button, the confirmation, and the page of a
 * link that names nothing. The project's name is other people's typing: escaped like every value.
 */
export function renderUnsubscribePage(action: string, projectName: string, email: string): string {
  return frame({
    title: `Unsubscribe from ${projectName}`,
    body: html`<section class="card" aria-labelledby="unsub-title"><h1 id="unsub-title">Stop mails about ${projectName}?</h1>
<p>${email} will no longer get a mail when a new build of ${projectName} is ready. Builds already sent stay in the tester portal.</p>
<form method="post" action="${action}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button class="button primary" type="submit">Unsubscribe</button>
</form></section>`,
  });
}

export function renderUnsubscribedPage(projectName: string, email: string): string {
  return frame({
    title: "Unsubscribed",
    body: html`<section class="card" aria-labelledby="unsub-title"><h1 id="unsub-title">Unsubscribed</h1>
<p>You will no longer get mail about ${projectName} at ${email}.</p>
<p>Builds already sent to you stay in the tester portal. Being added to a tester group again does not undo this.</p></section>`,
  });
}

export function renderUnknownUnsubscribePage(): string {
  return frame({
    title: "Link not valid",
    body: html`<section class="card" aria-labelledby="unsub-title"><h1 id="unsub-title">This unsubscribe link is not valid</h1>
<p>The link may be cut short by your mail program. Open it from the mail again, or use your mail program's own unsubscribe button.</p></section>`,
  });
}

/** The expiry-warning mail's opt-out (docs/release-safety.md): one person, every workspace. */
export function renderExpiryUnsubscribePage(action: string, email: string): string {
  return frame({
    title: "Stop expiry warnings",
    body: html`<section class="card" aria-labelledby="unsub-title"><h1 id="unsub-title">Stop expiry warnings?</h1>
<p>${email} will no longer get a mail when a build's provisioning profile or share link is about to expire, in any workspace. The dashboard's banner keeps showing what expires soon.</p>
<form method="post" action="${action}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button class="button primary" type="submit">Stop these mails</button>
</form></section>`,
  });
}

export function renderExpiryUnsubscribedPage(email: string): string {
  return frame({
    title: "Unsubscribed",
    body: html`<section class="card" aria-labelledby="unsub-title"><h1 id="unsub-title">Unsubscribed</h1>
<p>${email} will no longer get expiry warnings. The dashboard's banner still shows builds whose profile or link expires soon.</p></section>`,
  });
}
