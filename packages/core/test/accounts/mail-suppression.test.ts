import { describe, expect, it } from "vitest";
import { requestPasswordReset, resendVerification, signUp } from "../support/through-http";
import { recordMailEvent, ValidationError } from "../../src";
import { getAccount } from "../../src/accounts";
import { PASSWORD, accountWorld, client, links } from "./account-fakes";

/**
 * SES event-publishing records as a configuration set's SNS destination delivers them (the
 * `Message` of each SNS record), trimmed of fields Hangar does not read, in the format of
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-examples.html
 */
export const permanentBounce = (address: string) => ({
  eventType: "Bounce",
  bounce: {
    bounceType: "Permanent",
    bounceSubType: "General",
    bouncedRecipients: [{ emailAddress: address, action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" }],
    timestamp: "2026-11-20T08:15:30.000Z",
    feedbackId: "0100017b2d5d8f9a-3b1f1c1e-0000-0000-0000-000000000000-000000",
    reportingMTA: "dsn; e226-55.smtp-out.eu-west-1.amazonses.com",
  },
  mail: {
    timestamp: "2026-11-20T08:15:29.000Z",
    source: "Hangar <noreply@example.com>",
    sourceArn: "arn:aws:ses:eu-west-1:000000000000:identity/example.com",
    sendingAccountId: "000000000000",
    messageId: "0100017b2d5d8e6a-8f1e5b7e-0000-0000-0000-000000000000-000000",
    destination: [address],
    headersTruncated: false,
    tags: { "ses:configuration-set": ["hangar-prod"] },
  },
});

const transientBounce = (address: string) => {
  const event = permanentBounce(address);
  return { ...event, bounce: { ...event.bounce, bounceType: "Transient", bounceSubType: "MailboxFull" } };
};

const complaint = (address: string, named = true) => ({
  eventType: "Complaint",
  complaint: {
    complainedRecipients: named ? [{ emailAddress: address }] : [],
    timestamp: "2026-11-21T09:00:00.000Z",
    feedbackId: "0100017b2d5e1c2d-00000000-0000-0000-0000-000000000000-000000",
    complaintFeedbackType: "abuse",
    userAgent: "Mozilla/5.0",
    arrivalDate: "2026-11-21T08:59:00.000Z",
  },
  mail: { timestamp: "2026-11-21T08:00:00.000Z", source: "noreply@example.com", messageId: "m-2", destination: [address] },
});

describe("bounce and complaint suppression", () => {
  it("a permanent bounce suppresses the address from the bounce's time; transient bounces do not", async () => {
    const { deps, suppressions } = accountWorld();
    expect(await recordMailEvent({ suppressions, clock: deps.clock }, transientBounce("full@example.com"))).toEqual({
      eventType: "Bounce",
      suppressed: [],
      bouncedTransient: ["full@example.com"],
    });
    expect(await suppressions.get("full@example.com")).toBeUndefined();

    const outcome = await recordMailEvent({ suppressions, clock: deps.clock }, permanentBounce("Gone@Example.com"));
    expect(outcome.suppressed).toEqual(["gone@example.com"]);
    expect(await suppressions.get("gone@example.com")).toEqual({
      email: "gone@example.com",
      reason: "bounce",
      since: "2026-11-20T08:15:30.000Z",
      lastEventAt: "2026-11-20T08:15:30.000Z",
    });
  });

  it("a complaint suppresses, with or without named recipients (then the message's destination)", async () => {
    const { deps, suppressions } = accountWorld();
    await recordMailEvent({ suppressions, clock: deps.clock }, complaint("spam@example.com"));
    await recordMailEvent({ suppressions, clock: deps.clock }, complaint("quiet@example.com", false));
    expect((await suppressions.get("spam@example.com"))?.reason).toBe("complaint");
    expect((await suppressions.get("quiet@example.com"))?.reason).toBe("complaint");
  });

  it("ignores other event types, and refuses a malformed event with a ValidationError", async () => {
    const { deps, suppressions } = accountWorld();
    expect((await recordMailEvent({ suppressions, clock: deps.clock }, { eventType: "Delivery", mail: { destination: ["a@example.com"] } })).suppressed).toEqual([]);
    expect(suppressions.items.size).toBe(0);
    await expect(recordMailEvent({ suppressions, clock: deps.clock }, { eventType: "Bounce", bounce: { bouncedRecipients: "x" } })).rejects.toBeInstanceOf(ValidationError);
    await expect(recordMailEvent({ suppressions, clock: deps.clock }, "not an object")).rejects.toBeInstanceOf(ValidationError);
  });

  it("no mail goes to a suppressed address, account-security mails included, and the account says since when", async () => {
    const noticed: string[] = [];
    const { deps, mailer, users, suppressions } = accountWorld({ onMailSuppressed: (mail) => void noticed.push(mail.subject) });
    // The verification mail is the background step's (run inline here, as the local stack does after the answer).
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    expect(mailer.to("ada@example.com")).toHaveLength(1);
    await recordMailEvent({ suppressions, clock: deps.clock }, permanentBounce("ada@example.com"));

    await resendVerification(deps, { email: "ada@example.com" }, client, links);
    // Sign-up again with the taken address would mail the owner a notice: not to a bouncing address.
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    await requestPasswordReset(deps, { email: "ada@example.com" }, client, links);
    expect(mailer.to("ada@example.com")).toHaveLength(1);
    expect(noticed).toHaveLength(3);

    const user = (await users.findByEmail("ada@example.com"))!;
    const account = await getAccount(deps, { userId: user.userId, sessionId: "s" });
    expect(account.mailSuppressed).toEqual({ reason: "bounce", since: "2026-11-20T08:15:30.000Z" });
  });

  it("a second delivery of the same event (SNS delivers at least once) changes nothing", async () => {
    const { deps, suppressions } = accountWorld();
    await recordMailEvent({ suppressions, clock: deps.clock }, permanentBounce("gone@example.com"));
    await recordMailEvent({ suppressions, clock: deps.clock }, permanentBounce("gone@example.com"));
    expect(suppressions.items.size).toBe(1);
    expect((await suppressions.get("gone@example.com"))?.since).toBe("2026-11-20T08:15:30.000Z");
  });
});
