import type { LinkEnd } from "../../links/share-link.port";
import { keys } from "./table-keys";

/**
 * How long the key of a removed or replaced link keeps answering 410 with the reason. After that
 * the item expires by TTL and the key answers 404 like one never handed out: the tombstone holds
 * nothing but the key and the reason, so it outlives no one's data.
 */
export const ENDED_LINK_SECONDS = 400 * 86_400;
export const ENDED_LINK_TYPE = "share-ended";

/** The item that takes a share item's place when its build is deleted or its link regenerated. */
export function endedLinkItem(userKey: string, ended: LinkEnd, now: Date) {
  return { ...keys.share(userKey), type: ENDED_LINK_TYPE, ended, ttl: Math.floor(now.getTime() / 1000) + ENDED_LINK_SECONDS };
}

export const endedOf = (item: Record<string, unknown>): LinkEnd | undefined =>
  item.type === ENDED_LINK_TYPE ? (item.ended === "replaced" ? "replaced" : "removed") : undefined;
