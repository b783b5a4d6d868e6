import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sampleEvent, WEBHOOK_EVENTS } from "../../src/webhooks";

/** docs/webhooks.md shows one example per event: exactly what "send a test event" delivers. */
const doc = readFileSync(join(import.meta.dirname, "../../../../docs/webhooks.md"), "utf8");
const links = { publicBaseUrl: "https://hangar.example.com", shareBaseUrl: "https://hangar.example.com" };

describe("docs/webhooks.md", () => {
  it.each(WEBHOOK_EVENTS)("shows the %s payload as the code builds it", (type) => {
    const block = new RegExp(`<!-- example:${type.replace(".", "\\.")} -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
    expect(block, `no example of ${type}`).not.toBeNull();
    const shown = JSON.parse(block![1]!) as { timestamp: string; data: { workspaceId: string } };
    const event = sampleEvent(type, shown.data.workspaceId, links, new Date(shown.timestamp));
    expect(shown).toEqual({ type: event.type, timestamp: event.occurredAt, data: event.data });
  });
});
