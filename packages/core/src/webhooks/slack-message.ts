import { appTitle, buildOf, detailLines, excerpt, headline, NOTES_EXCERPT_CHARS, PLATFORM_NAMES, versionText } from "./event-summary";
import type { WebhookEvent } from "./webhook-events";

/**
 * An event as a Slack message (Block Kit) for an incoming-webhook URL: the app's icon, name,
 * version (build), platform, an excerpt of the release notes, branch and commit, an Install
 * button to the share page and a link to its QR code.
 *
 * Everything a person typed (app names come from the package, notes and branch from CI) is
 * escaped for mrkdwn (`&`, `<`, `>`, which is all Slack asks: without `<` nobody can write a
 * link or an `<!channel>` mention) and cut to Slack's documented limits, which
 * packages/core/test/webhooks/chat-messages.test.ts checks: at most 50 blocks, section text
 * 3000 characters, button text 75, URLs 3000, the fallback `text` 40,000.
 */

export const SLACK_LIMITS = { blocks: 50, sectionText: 3000, buttonText: 75, url: 3000, text: 40_000, contextText: 3000, altText: 2000 } as const;

/** Slack's mrkdwn escaping: exactly these three characters. */
export const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Cut first (counting characters), then escape: an entity is never cut in half. Escaping can grow text, so the cut leaves room. */
const mrkdwn = (text: string, max: number) => {
  let cut = excerpt(text, max);
  while (slackEscape(cut).length > max) cut = excerpt(cut, [...cut].length - 20);
  return slackEscape(cut);
};

const code = (text: string) => `\`${slackEscape(text.replace(/`/g, "ˋ"))}\``;

export type SlackBlock = Record<string, unknown> & { type: string };
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

export function slackMessage(event: WebhookEvent, workspaceName?: string): SlackMessage {
  const build = buildOf(event);
  const blocks: SlackBlock[] = [];
  const title = headline(event);
  if (build) {
    const name = appTitle(build);
    const facts = [versionText(build), build.platform ? PLATFORM_NAMES[build.platform] : ""].filter(Boolean).join(" · ");
    const nameText = build.links && event.type !== "build.deleted" ? `*<${build.links.share}|${mrkdwn(name, 200)}>*` : `*${mrkdwn(name, 200)}*`;
    const section: SlackBlock = {
      type: "section",
      text: { type: "mrkdwn", text: excerpt(`${slackEscape(title)}\n${nameText}${facts ? `  ${slackEscape(facts)}` : ""}`, SLACK_LIMITS.sectionText) },
    };
    if (build.links?.icon) section.accessory = { type: "image", image_url: build.links.icon, alt_text: excerpt(`${name} icon`, SLACK_LIMITS.altText) };
    blocks.push(section);
    const details = detailLines(event);
    if (details.length) blocks.push({ type: "section", text: { type: "mrkdwn", text: mrkdwn(details.join("\n"), SLACK_LIMITS.sectionText) } });
    if (build.releaseNotes && event.type !== "build.deleted") {
      blocks.push({ type: "section", text: { type: "mrkdwn", text: mrkdwn(excerpt(build.releaseNotes, NOTES_EXCERPT_CHARS), SLACK_LIMITS.sectionText) } });
    }
    const context = [
      build.branch ? `Branch ${code(excerpt(build.branch, 200))}` : "",
      build.commit ? `Commit ${code(build.commit.slice(0, 12))}` : "",
      build.ciUrl ? `<${slackEscape(build.ciUrl)}|CI run>` : "",
      workspaceName ? slackEscape(excerpt(workspaceName, 200)) : "",
    ].filter(Boolean);
    if (context.length) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: context.join("  ·  ") }] });
    if (build.links && (event.type === "build.completed" || event.type === "build.distributed" || event.type === "link.settings_changed")) {
      blocks.push({
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "Install", emoji: false }, url: build.links.share, style: "primary", action_id: "install" },
          { type: "button", text: { type: "plain_text", text: "QR code", emoji: false }, url: build.links.qr, action_id: "qr" },
        ],
      });
    }
  } else {
    blocks.push({ type: "section", text: { type: "mrkdwn", text: mrkdwn([title, ...detailLines(event)].join("\n"), SLACK_LIMITS.sectionText) } });
  }
  const text = excerpt([title, build ? `${appTitle(build)} ${versionText(build)}`.trim() : "", ...detailLines(event)].filter(Boolean).join(": "), 500);
  return { text: slackEscape(text), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}
