import { describe, expect, it } from "vitest";
import { ADAPTIVE_CARD_VERSION, SLACK_LIMITS, WEBHOOK_EVENTS, sampleEvent, slackMessage, teamsMessage, type WebhookEvent } from "../../src/webhooks";

const links = { publicBaseUrl: "https://hangar.example.com", shareBaseUrl: "https://get.example.com" };
const now = new Date("2026-11-26T03:00:00.000Z");

const HOSTILE_NAME = "<!channel> *Evil* <https://evil.example|click> & [x](https://evil.example) # Head";
const HOSTILE_NOTES = `${"<b>bold</b> & <https://evil.example|pwn> **md** [link](javascript:alert(1)) ".repeat(40)}\n${"long ".repeat(2000)}`;

function hostile(): WebhookEvent {
  const event = sampleEvent("build.completed", "ws_0123456789abcdef", links, now);
  if (event.type !== "build.completed") throw new Error("unexpected");
  event.data.build = { ...event.data.build, appName: HOSTILE_NAME, releaseNotes: HOSTILE_NOTES, branch: "feature/<x>&`y`", commit: "abc<def>" };
  event.branch = event.data.build.branch;
  return event;
}

/** Every string in a Block Kit payload, with its path. */
function strings(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}

/** Slack's documented limits (api.slack.com/reference/block-kit/blocks, /composition-objects, /block-elements). */
function checkSlackLimits(message: ReturnType<typeof slackMessage>) {
  expect(message.text.length).toBeLessThanOrEqual(SLACK_LIMITS.text);
  expect(message.blocks.length).toBeGreaterThan(0);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  for (const block of message.blocks) {
    expect(["section", "context", "actions", "header", "divider", "image"]).toContain(block.type);
    if (block.type === "section") {
      const text = (block.text as { type: string; text: string }).text;
      expect((block.text as { type: string }).type).toBe("mrkdwn");
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThanOrEqual(3000);
    }
    if (block.type === "context") expect((block.elements as unknown[]).length).toBeLessThanOrEqual(10);
    if (block.type === "actions") {
      const elements = block.elements as { type: string; text: { type: string; text: string }; url: string; action_id: string }[];
      expect(elements.length).toBeLessThanOrEqual(25);
      for (const button of elements) {
        expect(button.type).toBe("button");
        expect(button.text.type).toBe("plain_text");
        expect(button.text.text.length).toBeLessThanOrEqual(75);
        expect(button.url.length).toBeLessThanOrEqual(3000);
        expect(button.action_id.length).toBeLessThanOrEqual(255);
      }
    }
  }
}

/** What a Workflows webhook takes: a message with one Adaptive Card 1.4 attachment (adaptivecards.io schema's required fields). */
function checkTeamsCard(message: ReturnType<typeof teamsMessage>) {
  expect(message.type).toBe("message");
  expect(message.attachments).toHaveLength(1);
  const [attachment] = message.attachments;
  expect(attachment!.contentType).toBe("application/vnd.microsoft.card.adaptive");
  const card = attachment!.content;
  expect(card.type).toBe("AdaptiveCard");
  expect(card.version).toBe(ADAPTIVE_CARD_VERSION);
  expect(card.version).toBe("1.4");
  expect(card.$schema).toBe("http://adaptivecards.io/schemas/adaptive-card.json");
  const known = new Set(["TextBlock", "ColumnSet", "Column", "Image", "FactSet"]);
  const walk = (element: Record<string, unknown>) => {
    expect(known.has(element.type as string)).toBe(true);
    if (element.type === "TextBlock") expect(typeof element.text).toBe("string");
    if (element.type === "Image") expect(element.url).toMatch(/^https:\/\//);
    if (element.type === "FactSet") for (const fact of element.facts as { title: string; value: string }[]) expect([typeof fact.title, typeof fact.value]).toEqual(["string", "string"]);
    for (const child of [...((element.columns as Record<string, unknown>[]) ?? []), ...((element.items as Record<string, unknown>[]) ?? [])]) {
      if (element.type === "ColumnSet") {
        expect(child.type).toBe("Column");
        for (const item of child.items as Record<string, unknown>[]) walk(item);
      } else walk(child);
    }
  };
  for (const element of card.body) walk(element);
  for (const action of card.actions ?? []) {
    expect(action.type).toBe("Action.OpenUrl");
    expect(action.title.length).toBeGreaterThan(0);
    expect(action.url).toMatch(/^https:\/\//);
  }
}

describe("Slack messages", () => {
  it("show icon, app, version (build), platform, notes, branch and commit, an Install button and the QR link", () => {
    const message = slackMessage(sampleEvent("build.completed", "ws_0123456789abcdef", links, now), "Mobile team");
    checkSlackLimits(message);
    const all = JSON.stringify(message);
    expect(all).toContain("Example");
    expect(all).toContain("1.4.0 (212)");
    expect(all).toContain("iOS");
    expect(all).toContain("New onboarding");
    expect(all).toContain("Branch `main`");
    expect(all).toContain("Commit `3f9c2d41b7e0`");
    expect(message.blocks[0]!.accessory).toEqual({ type: "image", image_url: "https://get.example.com/share/TestEvent000/icon.png", alt_text: "Example icon" });
    const actions = message.blocks.find((b) => b.type === "actions")!.elements as { text: { text: string }; url: string }[];
    expect(actions.map((a) => [a.text.text, a.url])).toEqual([
      ["Install", "https://get.example.com/share/TestEvent000"],
      ["QR code", "https://get.example.com/share/TestEvent000/qr.svg"],
    ]);
  });

  it("escape a hostile app name and notes (no link, mention or entity of theirs survives) and stay within the limits", () => {
    const message = slackMessage(hostile());
    checkSlackLimits(message);
    for (const [path, text] of strings(message)) {
      // URLs are ours; alt text and plain_text are shown as typed (Slack parses no markup there).
      if (path.endsWith(".url") || path.endsWith("image_url") || path.endsWith("alt_text") || path.endsWith(".type")) continue;
      // Our own links are `<https://get.example.com…|…>`; nothing typed by others may open one.
      const opened = text.replace(/<https:\/\/(get|ci)\.example\.com[^|>]*\|/g, "");
      expect(opened, path).not.toMatch(/<[^&]/);
      expect(text, path).not.toContain("<!channel>");
      expect(text, path).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
    expect(JSON.stringify(message)).toContain("&lt;!channel&gt; *Evil* &lt;https://evil.example|click&gt; &amp;");
  });

  it("render every event within the limits", () => {
    for (const type of WEBHOOK_EVENTS) checkSlackLimits(slackMessage(sampleEvent(type, "ws_0123456789abcdef", links, now), "W"));
  });
});

describe("Teams cards", () => {
  it("show the same facts in an Adaptive Card 1.4 with Install and QR actions", () => {
    const message = teamsMessage(sampleEvent("build.completed", "ws_0123456789abcdef", links, now), "Mobile team");
    checkTeamsCard(message);
    const card = message.attachments[0]!.content;
    const all = JSON.stringify(card);
    for (const fact of ["Example", "1\\\\.4\\\\.0 (212)".replace(/\(|\)/g, (c) => `\\\\${c}`), "iOS", "main", "3f9c2d41b7e0"]) expect(all).toContain(fact);
    expect(card.actions!.map((a) => [a.title, a.url])).toEqual([
      ["Install", "https://get.example.com/share/TestEvent000"],
      ["QR code", "https://get.example.com/share/TestEvent000/qr.svg"],
      ["CI run", "https://ci.example.com/runs/1234"],
    ]);
  });

  it("escape Markdown in a hostile app name and notes", () => {
    const message = teamsMessage(hostile());
    checkTeamsCard(message);
    for (const [path, text] of strings(message.attachments[0]!.content.body)) {
      // altText is read out by screen readers as typed: not Markdown.
      if (path.endsWith(".url") || path.endsWith(".altText") || path.endsWith(".type") || path.endsWith(".size") || path.endsWith(".weight") || path.endsWith(".width") || path.endsWith(".spacing")) continue;
      // Every Markdown special is preceded by a backslash: no link, emphasis or heading of theirs.
      expect(text, path).not.toMatch(/(^|[^\\])[[\]()*_#`<>]/);
    }
  });

  it("render every event", () => {
    for (const type of WEBHOOK_EVENTS) checkTeamsCard(teamsMessage(sampleEvent(type, "ws_0123456789abcdef", links, now), "W"));
  });
});
