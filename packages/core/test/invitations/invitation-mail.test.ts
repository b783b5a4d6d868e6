import { describe, expect, it } from "vitest";
import { acceptLink, invitationMail, maskEmail } from "../../src/invitations";
import { CreateInvitation, InvitationRef, InvitationTokenInput } from "../../src/invitations/invitation.schema";

const mail = () =>
  invitationMail({
    to: "dev@example.com",
    workspaceName: `<img src=x onerror=alert(1)> & "Co"`,
    inviter: { email: "lead@example.com", displayName: "Lea <script>" },
    role: "admin",
    link: acceptLink("https://hangar.example", "tok_en-123"),
    expiresAt: new Date("2030-01-08T09:30:00Z"),
  });

describe("the invitation mail", () => {
  it("says who invited whom to what with which role, why, the link, the expiry and how to ignore it", () => {
    const { to, subject, text } = mail();
    expect(to).toBe("dev@example.com");
    expect(subject).toBe(`Hangar: Lea <script> invited you to the workspace “<img src=x onerror=alert(1)> & "Co"”`);
    expect(text).toContain(`Lea <script> (lead@example.com) invited you to join the workspace “<img src=x onerror=alert(1)> & "Co"” on Hangar as an admin.`);
    expect(text).toContain("As an admin you can invite and manage members");
    expect(text).toContain("You got this mail because lead@example.com entered your address, dev@example.com,");
    expect(text).toContain("Accept the invitation:\nhttps://hangar.example/invitations/accept?token=tok_en-123");
    expect(text).toContain("expires on 2030-01-08 09:30 UTC");
    expect(text).toContain("ignore this mail: nothing happens without the link");
  });

  it("escapes the workspace's and the inviter's names in the HTML part", () => {
    const { html } = mail();
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;");
    expect(html).toContain("Lea &lt;script&gt;");
    expect(html).toContain('href="https://hangar.example/invitations/accept?token=tok_en-123"');
  });
});

describe("invitation input and masking", () => {
  it("normalizes the address like the accounts do and takes only the four roles", () => {
    expect(CreateInvitation.parse({ email: "  Dev@Example.COM ", role: "viewer" })).toEqual({ email: "dev@example.com", role: "viewer" });
    expect(CreateInvitation.safeParse({ email: "dev@example.com", role: "root" }).success).toBe(false);
    expect(InvitationTokenInput.safeParse({ token: "x".repeat(42) }).success).toBe(false);
    expect(InvitationRef.safeParse({ workspaceId: "ws_0123456789abcdef", invitationId: "inv_0123456789ABCDEF" }).success).toBe(true);
    expect(InvitationRef.safeParse({ workspaceId: "ws_0123456789abcdef", invitationId: "inv_short" }).success).toBe(false);
  });

  it("masks an address to its first letters and top-level domain", () => {
    expect(maskEmail("jane.doe@example.com")).toBe("j•••@e•••.com");
    expect(maskEmail("a@b.co.uk")).toBe("a•••@b•••.uk");
  });
});
