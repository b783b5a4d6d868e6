import * as z from "zod/mini";
import { normalizeEmail } from "../accounts/account.schema";
import { parseInput } from "../validation/parse-input";
import type { Clock, MailSuppressionRepository, SuppressionReason } from "../ports";

/**
 * The parts of an SES event-publishing record (configuration set → SNS) this use case reads;
 * every other field (mail headers, diagnostic codes, feedback ids) is ignored. Shape:
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html
 */
const Recipient = z.object({ emailAddress: z.string().check(z.maxLength(1024)) });
const SesMailEvent = z.object({
  eventType: z.string().check(z.maxLength(64)),
  mail: z.optional(z.object({ destination: z.optional(z.array(z.string().check(z.maxLength(1024)))) })),
  bounce: z.optional(
    z.object({
      bounceType: z.string(),
      bouncedRecipients: z.array(Recipient),
      timestamp: z.optional(z.string()),
    }),
  ),
  complaint: z.optional(
    z.object({
      complainedRecipients: z.array(Recipient),
      timestamp: z.optional(z.string()),
    }),
  ),
});

export interface MailEventDeps {
  suppressions: MailSuppressionRepository;
  clock: Clock;
}

export interface MailEventOutcome {
  eventType: string;
  /** Addresses now suppressed (normalized). */
  suppressed: string[];
  /** Addresses that bounced without being suppressed (transient bounces: a full mailbox, a greylist). */
  bouncedTransient: string[];
}

/** `Name <a@b>` or `a@b` → the normalized address. */
const addressOf = (raw: string) => normalizeEmail(/<([^<>]+)>\s*$/.exec(raw)?.[1] ?? raw);

const atOf = (timestamp: string | undefined, clock: Clock) =>
  timestamp && !Number.isNaN(Date.parse(timestamp)) ? new Date(timestamp).toISOString() : clock.now().toISOString();

/**
 * One SES bounce or complaint event. A permanent bounce (the mailbox does not exist) or a
 * complaint (the recipient pressed "spam") suppresses the address: SES pauses accounts whose
 * bounce rate passes 5 % or complaint rate 0.1 %, and every further mail there would count
 * again. A transient bounce suppresses nothing (SES already retried; the next mail may pass), nor
 * does an `Undetermined` one. Other event types (Send, Delivery, …) are no concern here.
 * A malformed event is a ValidationError (the handler logs and drops it: retrying cannot fix it).
 */
export async function recordMailEvent(deps: MailEventDeps, raw: unknown): Promise<MailEventOutcome> {
  const event = parseInput(SesMailEvent, raw);
  const outcome: MailEventOutcome = { eventType: event.eventType, suppressed: [], bouncedTransient: [] };
  let reason: SuppressionReason | undefined;
  let recipients: string[] = [];
  let at = deps.clock.now().toISOString();
  if (event.eventType === "Bounce" && event.bounce) {
    recipients = event.bounce.bouncedRecipients.map((r) => addressOf(r.emailAddress));
    if (event.bounce.bounceType !== "Permanent") {
      outcome.bouncedTransient = recipients;
      return outcome;
    }
    reason = "bounce";
    at = atOf(event.bounce.timestamp, deps.clock);
  } else if (event.eventType === "Complaint" && event.complaint) {
    // Some providers send complaints without recipients; SES then leaves the list empty and the
    // message's destination is who complained (Hangar mails one recipient per message).
    const named = event.complaint.complainedRecipients.map((r) => addressOf(r.emailAddress));
    recipients = named.length > 0 ? named : (event.mail?.destination ?? []).map(addressOf);
    reason = "complaint";
    at = atOf(event.complaint.timestamp, deps.clock);
  } else {
    return outcome;
  }
  const unique = [...new Set(recipients.filter((r) => r.includes("@")))];
  await Promise.all(unique.map((email) => deps.suppressions.record(email, reason, at)));
  outcome.suppressed = unique;
  return outcome;
}
