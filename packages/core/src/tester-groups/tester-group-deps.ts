import { createHmac, randomInt } from "node:crypto";
import type { AuditLog, Clock, StageSecret, WorkspaceCatalog } from "../ports";
import type { EventPublisher } from "../ports/events.port";
import type { TesterGroupStore } from "./tester-group-store";
import { hashSecret } from "../ids/random-ids";

/** The random ids of the tester groups, injectable so tests can pin them. */
export interface TesterGroupIds {
  /** `grp_` + 16 base62. */
  groupId(): string;
  /** `lnk_` + 16 base62: one invite link of a group (a new one replaces it). */
  linkId(): string;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (length: number) => Array.from({ length }, () => BASE62[randomInt(62)]).join("");

export const randomTesterGroupIds: TesterGroupIds = {
  groupId: () => `grp_${base62(16)}`,
  linkId: () => `lnk_${base62(16)}`,
};

export interface TesterGroupDeps {
  groups: TesterGroupStore;
  workspaces: Pick<WorkspaceCatalog, "membership" | "get"> & Partial<Pick<WorkspaceCatalog, "touch">>;
  /** Every change is recorded after it succeeded. */
  audit: Pick<AuditLog, "record">;
  /** Where `tester.joined` goes for addresses a member adds (docs/webhooks.md); absent: no event. */
  events?: EventPublisher | undefined;
  clock: Clock;
  ids: TesterGroupIds;
  /** The stage secret named `join-link` (JOIN_LINK_SECRET): invite link tokens are MACs under it. */
  joinLinkSecret: StageSecret;
}

/** What joining through a link needs (the access work's join flow calls it without a member). */
export type JoinLinkDeps = Pick<TesterGroupDeps, "groups" | "workspaces" | "clock" | "joinLinkSecret">;

/** Where invite links point: the dashboard's public origin (`{public}/join/<token>`). */
export interface GroupLinks {
  publicBaseUrl: string;
}

/**
 * Invite link tokens (docs/testers.md "Invite links"): an HMAC of `<groupId>\n<linkId>` under the
 * stage secret named `join-link`, base64url (43 characters), as the personal install links are
 * (testers/install-link.ts). Not a stored random value, so the dashboard can show a live link's URL
 * again at any time without keeping the token; only its SHA-256 is stored (the `groupInviteLink`
 * item's key), and a new link id makes a new token, so a replaced or revoked link is dead.
 */
export const JOIN_LINK_SECRET = "join-link";
export const JOIN_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function joinLinkToken(secret: Uint8Array, groupId: string, linkId: string): string {
  return createHmac("sha256", secret).update(`${groupId}\n${linkId}`, "utf8").digest("base64url");
}

export const joinLinkHash: (token: string) => string = hashSecret;

export const joinLinkUrl = (publicBaseUrl: string, token: string): string => `${publicBaseUrl.replace(/\/+$/, "")}/join/${token}`;
