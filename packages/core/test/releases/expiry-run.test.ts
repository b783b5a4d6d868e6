import { describe, expect, it } from "vitest";
import type { FileRecord } from "../../src/ports";
import { expiryMail, expiryUnsubscribeToken, expiryUnsubscribeUserOf, type ExpiryMailInput } from "../../src/releases/expiry-mail";
import { latestBuilds } from "../../src/releases/expiry-run";

const file = (fileId: string, completedAt: string, platform: "ios" | "android", bundleId: string, status: FileRecord["status"] = "completed"): FileRecord => ({
  fileId,
  key: `uploads/p/${fileId}/a`,
  projectId: "p",
  clientId: "c",
  fileName: "a",
  fileType: "x",
  fileSize: 1,
  status,
  createdAt: completedAt,
  completedAt,
  metadata: { appName: "A", bundleId, version: "1", platform },
});

describe("latestBuilds", () => {
  it("keeps the newest completed build per platform and bundle id", () => {
    const builds = latestBuilds([
      file("ios-old", "2026-01-01T00:00:00Z", "ios", "com.a"),
      file("ios-new", "2026-01-03T00:00:00Z", "ios", "com.a"),
      file("ios-pending", "2026-01-04T00:00:00Z", "ios", "com.a", "pending"),
      file("android", "2026-01-02T00:00:00Z", "android", "com.a"),
      file("other-app", "2026-01-01T00:00:00Z", "ios", "com.b"),
    ]);
    expect(builds.map((b) => b.fileId)).toEqual(["ios-new", "android", "other-app"]);
  });
});

describe("the opt-out token", () => {
  const secret = new Uint8Array(32).fill(7);
  it("names its user and nothing else; a changed byte or another secret names nobody", () => {
    const token = expiryUnsubscribeToken(secret, "usr_abc");
    expect(expiryUnsubscribeUserOf(secret, token)).toBe("usr_abc");
    expect(expiryUnsubscribeUserOf(new Uint8Array(32).fill(8), token)).toBeUndefined();
    const other = expiryUnsubscribeToken(secret, "usr_abd");
    expect(expiryUnsubscribeUserOf(secret, `${token.split(".")[0]}.${other.split(".")[1]}`)).toBeUndefined();
    expect(expiryUnsubscribeUserOf(secret, "nonsense")).toBeUndefined();
  });
});

describe("the mail", () => {
  const input: ExpiryMailInput = {
    to: "ada@example.com",
    workspaceName: "<b>Team</b>",
    role: "admin",
    projectName: "Rocket\r\nBcc: x@y",
    appName: "<script>alert(1)</script>",
    version: "1.0",
    build: "7",
    platform: "ios",
    kind: "profile",
    profileKind: "ad-hoc",
    expiresAt: "2026-03-03T12:00:00.000Z",
    daysLeft: 7,
    buildUrl: "https://hangar.example/files/fil_1",
    unsubscribeUrl: "https://hangar.example/unsubscribe/expiry/t.k",
  };

  it("escapes what people typed, keeps the subject on one line, says why and how to stop", () => {
    const mail = expiryMail(input);
    expect(mail.subject).toBe("Profile expires in 7 days: <script>alert(1)</script> 1.0 (7) for iOS");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain("&lt;b&gt;Team&lt;/b&gt;");
    expect(mail.text).toContain("ad-hoc provisioning profile");
    expect(mail.text).toContain("Tue, 3 Mar 2026, 12:00 UTC");
    expect(mail.text).toContain("you are an admin of the workspace <b>Team</b>");
    expect(mail.headers).toEqual({ "List-Unsubscribe": "<https://hangar.example/unsubscribe/expiry/t.k>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
  });

  it("without a public URL names the page instead of linking it, and carries no unsubscribe header", () => {
    const mail = expiryMail({ ...input, buildUrl: null, unsubscribeUrl: null });
    expect(mail.headers).toBeUndefined();
    expect(mail.text).toContain("The build's page: the dashboard → Rocket Bcc: x@y → ");
    expect(mail.html).not.toContain("href=");
  });
});
