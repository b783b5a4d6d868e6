import { appTitle, buildOf, detailLines, excerpt, headline, NOTES_EXCERPT_CHARS, PLATFORM_NAMES, versionText } from "./event-summary";
import type { WebhookEvent } from "./webhook-events";

/**
 * An event as a Microsoft Teams message: an Adaptive Card 1.4 (the version Teams renders
 * everywhere) in the message envelope a Workflows "post to a channel when a webhook request is
 * received" URL expects. The same facts as the Slack message: icon, app name, version (build),
 * platform, notes excerpt, branch and commit, an Install button and the QR code's link.
 *
 * Text blocks render a subset of Markdown, so everything typed by people is escaped with
 * backslashes (a hostile app name cannot become a link, heading or emphasis); facts of a
 * FactSet are text as well. packages/core/test/webhooks/chat-messages.test.ts checks the
 * card's required fields and version.
 */

export const ADAPTIVE_CARD_VERSION = "1.4";

/** Markdown's specials, backslash-escaped; `<` and `>` are harmless (cards render no HTML) but escaped too. */
export const teamsEscape = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|~<>]/g, "\\$&");

export interface TeamsMessage {
  type: "message";
  attachments: { contentType: "application/vnd.microsoft.card.adaptive"; contentUrl: null; content: AdaptiveCard }[];
}

export interface AdaptiveCard {
  $schema: "http://adaptivecards.io/schemas/adaptive-card.json";
  type: "AdaptiveCard";
  version: typeof ADAPTIVE_CARD_VERSION;
  body: Record<string, unknown>[];
  actions?: { type: "Action.OpenUrl"; title: string; url: string }[];
  msteams?: { width: "Full" };
}

const text = (value: string, extra: Record<string, unknown> = {}) => ({ type: "TextBlock", text: value, wrap: true, ...extra });

export function teamsMessage(event: WebhookEvent, workspaceName?: string): TeamsMessage {
  const build = buildOf(event);
  const body: Record<string, unknown>[] = [];
  const actions: NonNullable<AdaptiveCard["actions"]> = [];
  body.push(text(teamsEscape(headline(event)), { size: "Medium", weight: "Bolder" }));
  if (build) {
    const title = [
      ...(build.links?.icon ? [{ type: "Column", width: "auto", items: [{ type: "Image", url: build.links.icon, size: "Small", altText: excerpt(`${appTitle(build)} icon`, 200) }] }] : []),
      {
        type: "Column",
        width: "stretch",
        items: [
          text(teamsEscape(excerpt(appTitle(build), 200)), { weight: "Bolder" }),
          text(teamsEscape([versionText(build), build.platform ? PLATFORM_NAMES[build.platform] : ""].filter(Boolean).join(" · ")), { isSubtle: true, spacing: "None" }),
        ],
      },
    ];
    body.push({ type: "ColumnSet", columns: title });
    const facts = [
      ...(build.branch ? [{ title: "Branch", value: teamsEscape(excerpt(build.branch, 200)) }] : []),
      ...(build.commit ? [{ title: "Commit", value: teamsEscape(build.commit.slice(0, 12)) }] : []),
      ...(workspaceName ? [{ title: "Workspace", value: teamsEscape(excerpt(workspaceName, 200)) }] : []),
    ];
    if (facts.length) body.push({ type: "FactSet", facts });
    for (const line of detailLines(event)) body.push(text(teamsEscape(line)));
    if (build.releaseNotes && event.type !== "build.deleted") body.push(text(teamsEscape(excerpt(build.releaseNotes, NOTES_EXCERPT_CHARS))));
    if (build.links && (event.type === "build.completed" || event.type === "build.distributed" || event.type === "link.settings_changed")) {
      actions.push({ type: "Action.OpenUrl", title: "Install", url: build.links.share }, { type: "Action.OpenUrl", title: "QR code", url: build.links.qr });
    }
    if (build.ciUrl) actions.push({ type: "Action.OpenUrl", title: "CI run", url: build.ciUrl });
  } else {
    for (const line of detailLines(event)) body.push(text(teamsEscape(line)));
  }
  const card: AdaptiveCard = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: ADAPTIVE_CARD_VERSION,
    body,
    ...(actions.length ? { actions } : {}),
    msteams: { width: "Full" },
  };
  return { type: "message", attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card }] };
}
