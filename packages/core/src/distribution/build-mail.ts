import { html } from "../html/html";
import type { MailMessage } from "../ports";

export interface BuildMailInput {
  to: string;
  appName: string;
  version: string | null;
  build: string | null;
  platform: string | null;
  releaseNotes: string | null;
  /** The uploader's message of the distribution. */
  message: string | null;
  /** The share page's stable icon address, when the build has an icon. */
  iconUrl: string | null;
  /** The tester's personal install link (`{share}/install/<token>`). */
  installUrl: string;
  /** The tester portal (`{public}/apps`). */
  portalUrl: string;
  unsubscribeUrl: string;
  workspaceName: string;
  /** The groups that brought the tester in; empty when the build was sent to the address itself. */
  viaGroups: string[];
}

// One line, bounded: what other people typed (an app's name from its Info.plist) goes in a header.
const oneLine = (s: string, max = 120) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim().slice(0, max);

/** "1.4.2 (317)", "1.4.2", "(317)" or "". */
function versionText(version: string | null, build: string | null): string {
  if (version && build && build !== version) return `${version} (${build})`;
  return version ?? (build ? `(${build})` : "");
}

const PLATFORM_WORDS: Record<string, string> = { ios: "iOS", android: "Android" };

/** Why the tester got this mail, in their words (RFC 8058's visible counterpart of the header). */
function whyText(input: Pick<BuildMailInput, "to" | "workspaceName" | "viaGroups">): string {
  const where = input.workspaceName ? ` of ${input.workspaceName}` : "";
  if (input.viaGroups.length === 0) return `You got this mail because a member of ${input.workspaceName || "a Hangar workspace"} sent this build to ${input.to}.`;
  const groups = input.viaGroups.map((g) => `“${g}”`).join(", ");
  return `You got this mail because ${input.to} is in the tester group${input.viaGroups.length > 1 ? "s" : ""} ${groups}${where} on Hangar.`;
}

/**
 * The build-ready mail (issue 20 item 4): icon, app name, version (build), release notes, the
 * uploader's message, an Install button (the tester's personal link), the portal, why they got
 * it, and how to stop it: a visible link and the `List-Unsubscribe` / `List-Unsubscribe-Post`
 * headers (RFC 8058 one-click; mail clients show their own button for them).
 *
 * Everything but the fixed wording is other people's typing (the app's name comes from the
 * package, the notes and message from CI): escaped in the HTML by core's `html` template, one
 * line and bounded in the subject. Inline styles and a table-free layout: mail clients strip
 * `<style>` and scripts, and the mail must read the same as plain text.
 */
export function buildMail(input: BuildMailInput): MailMessage {
  const app = oneLine(input.appName || "A new build", 80);
  const version = oneLine(versionText(input.version, input.build), 60);
  const platform = input.platform ? (PLATFORM_WORDS[input.platform] ?? input.platform) : null;
  const title = `${app}${version ? ` ${version}` : ""}`;
  const why = whyText(input);
  const subject = `New build: ${title}${platform ? ` for ${platform}` : ""}`;

  const text = [
    `A new build of ${title}${platform ? ` for ${platform}` : ""} is ready for you.`,
    ...(input.message ? [`Message from the team:\n${input.message}`] : []),
    ...(input.releaseNotes ? [`Release notes:\n${input.releaseNotes}`] : []),
    `Install it (this link is yours; open it on your device):\n${input.installUrl}`,
    `Every build sent to you: ${input.portalUrl}`,
    why,
    `Stop mails about ${app}: ${input.unsubscribeUrl}`,
    "— Hangar",
  ].join("\n\n");

  const para = (s: string) => html`<p style="margin:0 0 16px">${s}</p>`;
  // Line breaks of notes and messages kept without markup: white-space on a div, text escaped.
  const block = (label: string, body: string) =>
    html`<h2 style="font-size:15px;margin:20px 0 6px">${label}</h2><div style="margin:0 0 16px;white-space:pre-wrap;background:#f6f8fa;border-radius:6px;padding:12px">${body}</div>`;
  const icon = input.iconUrl
    ? html`<img src="${input.iconUrl}" width="64" height="64" alt="" style="display:block;width:64px;height:64px;border-radius:14px;margin:0 0 12px">`
    : null;
  const body = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1b1f24;max-width:560px;margin:0 auto;padding:24px">${icon}<h1 style="font-size:22px;margin:0 0 4px">${app}</h1><p style="margin:0 0 16px;color:#57606a">${version ? html`Version ${version}` : null}${version && platform ? " · " : null}${platform}</p>${para("A new build is ready for you.")}${input.message ? block("Message from the team", input.message) : null}${input.releaseNotes ? block("Release notes", input.releaseNotes) : null}<p style="margin:20px 0 8px"><a href="${input.installUrl}" style="display:inline-block;padding:12px 22px;background:#0969da;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">Install ${app}</a></p><p style="margin:0 0 16px;font-size:13px;color:#57606a">Open it on the device you test on. This link is yours: it is how the team sees that you installed the build.</p><p style="margin:0 0 16px"><a href="${input.portalUrl}" style="color:#0969da">See every build sent to you</a></p><hr style="border:0;border-top:1px solid #d0d7de;margin:24px 0 16px"><p style="margin:0 0 8px;font-size:13px;color:#57606a">${why}</p><p style="margin:0 0 8px;font-size:13px;color:#57606a"><a href="${input.unsubscribeUrl}" style="color:#57606a">Unsubscribe from mails about ${app}</a></p><p style="margin:0;font-size:13px;color:#57606a">— Hangar</p></body></html>`;

  return {
    to: input.to,
    subject,
    text,
    html: body.toString(),
    headers: {
      "List-Unsubscribe": `<${input.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
