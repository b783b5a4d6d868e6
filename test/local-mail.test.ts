import nodemailer from "nodemailer";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stack } from "./support/api";

/** The stack's mail catcher (MailDev): what is sent to its SMTP port shows in its REST API. */
interface CaughtMail {
  subject: string;
  text: string;
  to: { address: string }[];
}

describe("local mail catcher", () => {
  it("shows a message sent to the stack's SMTP port in GET <mailUrl>/api/email, and keeps it in the data directory", async () => {
    const s = stack();
    const subject = `Hangar mail test ${Date.now()}`;
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: s.smtpPort, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ from: "hangar@hangar.test", to: "newcomer@example.test", subject, text: "Verify: <link>", html: "<p>Verify</p>" });
    } finally {
      transport.close();
    }
    const res = await fetch(`${s.mailUrl}/api/email`);
    expect(res.status).toBe(200);
    const mails = (await res.json()) as CaughtMail[];
    const mail = mails.find((m) => m.subject === subject);
    expect(mail?.to.map((t) => t.address)).toEqual(["newcomer@example.test"]);
    expect(mail?.text).toContain("Verify: <link>");
    expect(readdirSync(join(s.dataDir, "mail")).some((f) => f.endsWith(".eml"))).toBe(true);
  });
});
