import { createServer } from "node:net";
import type { SESv2Client } from "@aws-sdk/client-sesv2";
import { describe, expect, it } from "vitest";
import { DependencyError } from "../../src";
import { SesMailer, sesMailer } from "../../src/adapters/mail/ses-mailer";
import { MailFromError, parseMailFrom } from "../../src/mail/mail-from";
import { SmtpMailer } from "../../src/adapters/mail/smtp-mailer";

const message = { to: "ada@example.com", subject: "Subject ✓", text: "plain", html: "<p>html</p>" };

describe("SES mailer", () => {
  it("sends one SendEmail with both parts, UTF-8, from the configured sender", async () => {
    const sent: unknown[] = [];
    const client = { send: async (command: { input: unknown }) => void sent.push(command.input) } as unknown as SESv2Client;
    await new SesMailer(client, { from: parseMailFrom("Hangar <no-reply@hangar.example>") }).send(message);
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
    const error = await new SesMailer(client, { from: parseMailFrom("x@hangar.example") }).send(message).catch((e: unknown) => e);
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

/**
 * The request as the SDK puts it on the wire (SES v2 SendEmail is `POST /v2/email/outbound-emails`
 * with a JSON body), captured by a request handler that answers like SES: no network.
 */
async function sentOnTheWire(from: string, configurationSet?: string): Promise<{ path: string; body: Record<string, unknown> }> {
  const { SESv2Client } = await import("@aws-sdk/client-sesv2");
  const captured: { path: string; body: Record<string, unknown> }[] = [];
  const client = new SESv2Client({
    region: "eu-west-1",
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
    requestHandler: {
      handle: async (request: { path: string; body: string | Uint8Array }) => {
        const text = typeof request.body === "string" ? request.body : new TextDecoder().decode(request.body);
        captured.push({ path: request.path, body: JSON.parse(text) as Record<string, unknown> });
        const { Readable } = await import("node:stream");
        return {
          response: { statusCode: 200, headers: { "content-type": "application/json" }, body: Readable.from([Buffer.from('{"MessageId":"0100-example"}')]) },
        };
      },
    } as never,
  });
  await new SesMailer(client, { from: parseMailFrom(from), configurationSet }).send(message);
  return captured[0]!;
}

describe("SES v2 SendEmail request, field by field", () => {
  it("an address: FromEmailAddress is the address, Destination.ToAddresses the recipient, Simple content in UTF-8", async () => {
    const { path, body } = await sentOnTheWire("noreply@example.com");
    expect(path).toBe("/v2/email/outbound-emails");
    expect(body.FromEmailAddress).toBe("noreply@example.com");
    expect(body.Destination).toEqual({ ToAddresses: ["ada@example.com"] });
    expect(body.Content).toEqual({
      Simple: {
        Subject: { Data: "Subject ✓", Charset: "UTF-8" },
        Body: { Text: { Data: "plain", Charset: "UTF-8" }, Html: { Data: "<p>html</p>", Charset: "UTF-8" } },
      },
    });
    // No configuration set configured: the field is absent, not empty (SES refuses an unknown set's name).
    expect(body).not.toHaveProperty("ConfigurationSetName");
  });

  it("`Name <address>`: FromEmailAddress carries the display name; the configuration set is named", async () => {
    const { body } = await sentOnTheWire("Hangar <noreply@example.com>", "hangar-prod");
    expect(body.FromEmailAddress).toBe("Hangar <noreply@example.com>");
    expect(body.ConfigurationSetName).toBe("hangar-prod");
  });

  it("a bare domain never reaches SES: a configuration error that says what to write", () => {
    expect(() => sesMailer({ region: "eu-west-1", from: "example.com" })).toThrow(MailFromError);
    expect(() => sesMailer({ region: "eu-west-1", from: "example.com" })).toThrow(/"noreply@example.com" or "Hangar <noreply@example.com>"/);
  });
});
