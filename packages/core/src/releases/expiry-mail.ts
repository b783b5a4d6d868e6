import { createHmac, timingSafeEqual } from "node:crypto";
import { html } from "../html/html";
import type { MailMessage } from "../ports";
import type { ExpiryKind } from "./expiry-warnings";

/**
 * The expiry-warning mail (issue 24 item 4) and its one-click unsubscribe.
 *
 * Product mail, not a security mail: it carries RFC 8058's `List-Unsubscribe` headers and a
 * visible link, and says why it was sent. The opt-out is per person (a dashboard user), for every
 * workspace: the people who get it are owners and admins, who can also be told in a chat channel
 * by a webhook and may want the mail off everywhere.
 *
 * The token names the user and carries an HMAC of it under the stage secret `unsubscribe` (the
 * build mail's, distribution/unsubscribe.ts), with its own domain prefix: a build-mail token can
 * never be replayed here nor the other way round. Stateless for the build mail's reasons: every
 * warning to one person carries the same link, and an old mail's link still works.
 */
const mac = (secret: Uint8Array, userId: string) => createHmac("sha256", secret).update(`expiry-unsubscribe\n${userId}`, "utf8").digest();

const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function expiryUnsubscribeToken(secret: Uint8Array, userId: string): string {
  return `${Buffer.from(userId, "utf8").toString("base64url")}.${mac(secret, userId).toString("base64url")}`;
}

/** The user a well-formed token with a valid MAC names (constant-time compare); undefined otherwise. */
export function expiryUnsubscribeUserOf(secret: Uint8Array, token: string): string | undefined {
  const m = /^([A-Za-z0-9_-]{1,100})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const userId = Buffer.from(m[1]!, "base64url").toString("utf8");
  if (!USER_ID.test(userId)) return undefined;
  const given = Buffer.from(m[2]!, "base64url");
  const expected = mac(secret, userId);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return userId;
}

export const expiryUnsubscribeUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl.replace(/\/+$/, "")}/unsubscribe/expiry/${token}`;

export interface ExpiryMailInput {
  to: string;
  workspaceName: string;
  /** The recipient's role in the workspace: why they got it. */
  role: "owner" | "admin";
  projectName: string;
  appName: string;
  version: string | null;
  build: string | null;
  platform: string | null;
  kind: ExpiryKind;
  /** `ad-hoc`, `development`, `enterprise` (profile warnings). */
  profileKind: string | null;
  expiresAt: string;
  daysLeft: number;
  /** The build's dashboard page; null when the stage has no public URL (the mail names the page instead). */
  buildUrl: string | null;
  /** The one-click unsubscribe address; null without a public URL (the headers are left out then). */
  unsubscribeUrl: string | null;
}

// One line, bounded: names come from packages and people (an Info.plist's display name).
const oneLine = (s: string, max = 120) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim().slice(0, max);

function versionText(version: string | null, build: string | null): string {
  if (version && build && build !== version) return `${version} (${build})`;
  return version ?? (build ? `(${build})` : "");
}

const PLATFORM_WORDS: Record<string, string> = { ios: "iOS", android: "Android" };
const PROFILE_WORDS: Record<string, string> = { "ad-hoc": "ad-hoc", development: "development", enterprise: "enterprise" };

/** "in 7 days", "tomorrow" (1), "today" (0). */
export function inDays(daysLeft: number): string {
  if (daysLeft <= 0) return "today";
  if (daysLeft === 1) return "within a day";
  return `in ${daysLeft} days`;
}

/** "Tue, 3 Mar 2026, 12:00 UTC": one unambiguous form for every reader's time zone. */
export function utcText(iso: string): string {
  const d = new Date(iso);
  const day = d.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${day}, ${time} UTC`;
}

export function expiryMail(input: ExpiryMailInput): MailMessage {
  const app = oneLine(input.appName || "A build", 80);
  const version = oneLine(versionText(input.version, input.build), 60);
  const platform = input.platform ? (PLATFORM_WORDS[input.platform] ?? input.platform) : null;
  const project = oneLine(input.projectName, 80);
  const workspace = oneLine(input.workspaceName, 80);
  const title = `${app}${version ? ` ${version}` : ""}`;
  const when = inDays(input.daysLeft);
  const at = utcText(input.expiresAt);
  const profileWord = input.profileKind ? `${PROFILE_WORDS[input.profileKind] ?? input.profileKind} ` : "";

  const what =
    input.kind === "profile"
      ? `The ${profileWord}provisioning profile of ${title}${platform ? ` for ${platform}` : ""} (project ${project}) expires ${when}: ${at}.`
      : `The share link of ${title}${platform ? ` for ${platform}` : ""} (project ${project}) expires ${when}: ${at}.`;
  const effect =
    input.kind === "profile"
      ? "From then on, devices that installed this build can no longer open it, and nobody can install it."
      : "From then on, the link answers that it has expired: nobody can open or install the build through it.";
  const todo =
    input.kind === "profile"
      ? "To keep testers going, renew the profile in Apple's developer portal and upload a build signed with it."
      : "To keep it open, set a later expiry (or none) on the build's page.";
  const why = `You got this mail because you are ${input.role === "owner" ? "an owner" : "an admin"} of the workspace ${workspace} on Hangar, and this is the latest build of its app. Hangar warns owners and admins ${input.kind === "profile" ? "30, 7 and 1 days before an ad-hoc, development or enterprise profile expires" : "1 day before a share link expires"}, once per build.`;
  const subject = input.kind === "profile" ? `Profile expires ${when}: ${title}${platform ? ` for ${platform}` : ""}` : `Share link expires ${when}: ${title}`;
  const pageLine = input.buildUrl ? `The build's page: ${input.buildUrl}` : `The build's page: the dashboard → ${project} → ${title}.`;

  const text = [
    what,
    effect,
    todo,
    pageLine,
    why,
    ...(input.unsubscribeUrl ? [`Stop expiry warnings for ${input.to}: ${input.unsubscribeUrl}`] : []),
    "— Hangar",
  ].join("\n\n");

  const small = "margin:0 0 8px;font-size:13px;color:#57606a";
  const body = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1b1f24;max-width:560px;margin:0 auto;padding:24px"><p style="margin:0 0 8px;font-size:13px;font-weight:600;color:#9a6700;text-transform:uppercase;letter-spacing:.04em">${input.kind === "profile" ? "Profile" : "Share link"} expires ${when}</p><h1 style="font-size:22px;margin:0 0 4px">${app}</h1><p style="margin:0 0 16px;color:#57606a">${version ? html`Version ${version}` : null}${version && platform ? " · " : null}${platform}${version || platform ? " · " : null}${project}</p><p style="margin:0 0 16px;padding:12px;border-left:4px solid #d4a72c;background:#fff8c5;border-radius:4px">${what}</p><p style="margin:0 0 16px">${effect}</p><p style="margin:0 0 16px">${todo}</p>${
    input.buildUrl
      ? html`<p style="margin:20px 0 16px"><a href="${input.buildUrl}" style="display:inline-block;padding:12px 22px;background:#0969da;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">Open the build</a></p>`
      : html`<p style="margin:0 0 16px">${pageLine}</p>`
  }<hr style="border:0;border-top:1px solid #d0d7de;margin:24px 0 16px"><p style="${small}">${why}</p>${
    input.unsubscribeUrl ? html`<p style="${small}"><a href="${input.unsubscribeUrl}" style="color:#57606a">Stop expiry warnings for ${input.to}</a></p>` : null
  }<p style="margin:0;font-size:13px;color:#57606a">— Hangar</p></body></html>`;

  return {
    to: input.to,
    subject: oneLine(subject, 200),
    text,
    html: body.toString(),
    ...(input.unsubscribeUrl
      ? { headers: { "List-Unsubscribe": `<${input.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } }
      : {}),
  };
}
