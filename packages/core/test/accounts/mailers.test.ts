import { createServer } from "node:net";
import type { SESv2Client } from "@aws-sdk/client-sesv2";
import { describe, expect, it } from "vitest";
import { DependencyError } from "../../src";
import { SesMailer } from "../../src/adapters/mail/ses-mailer";
import { SmtpMailer } from "../../src/adapters/mail/smtp-mailer";

const message = { to: "ada@example.com", subject: "Subject ✓", text: "plain", html: "<p>html</p>" };

describe("SES mailer", () => {
  it("sends one SendEmail with both parts, UTF-8, from the configured sender", async () => {
    const sent: unknown[] = [];
    const client = { send: async (command: { input: unknown }) => void sent.push(command.input) } as unknown as SESv2Client;
    await new SesMailer(client, "Hangar <no-reply@hangar.example>").send(message);
    expect(sent).toEqual([
      {
        FromEmailAddress: "Hangar <no-reply@hangar.example>",
        Destination: { ToAddresses: ["ada@example.com"] },
        Content: {
          Simple: {
            Subject: { Data: "Subject ✓", Charset: "UTF-8" },
            Body: { Text: { Data: "plain", Charset: "UTF-8" }, Html: { Data: "<p>html</p>", Charset: "UTF-8" } },
          },
        },
      },
    ]);
  });

  it("turns SES failures into DependencyError(mail)", async () => {
    const client = { send: async () => Promise.reject(Object.assign(new Error("Email address is not verified"), { name: "MessageRejected" })) } as unknown as SESv2Client;
    const error = await new SesMailer(client, "x@hangar.example").send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as DependencyError).dependency).toBe("mail");
    expect((error as Error).message).toBe("SES SendEmail failed (MessageRejected)");
  });
});

describe("SMTP mailer", () => {
  it("turns an unreachable relay into DependencyError(mail), without the URL's password in the message", async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const address = server.address() as { port: number };
        server.close(() => resolve(address.port));
      });
    });
    const error = await new SmtpMailer(`smtp://user:hunter2secret@127.0.0.1:${port}`, "x@hangar.example").send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as Error).message).toMatch(/^SMTP delivery failed \(/);
    expect((error as Error).message).not.toContain("hunter2secret");
  });
});
