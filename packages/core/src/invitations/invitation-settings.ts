import { randomBytes, randomInt } from "node:crypto";
import { MAX_PENDING_INVITATIONS } from "../workspaces/limits";
import type { InvitationIds, InvitationSettings } from "./invitation-deps";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (length: number) => Array.from({ length }, () => BASE62[randomInt(62)]).join("");

export const randomInvitationIds: InvitationIds = {
  invitationId: () => `inv_${base62(16)}`,
  secret: () => randomBytes(32).toString("base64url"),
};

/** A mailed invitation link works for 7 days (issue 19). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

/** Members per workspace and workspaces per account are the workspace catalog's (its member add holds them). */
export const defaultInvitationSettings: InvitationSettings = {
  ttlSeconds: INVITATION_TTL_SECONDS,
  maxPending: MAX_PENDING_INVITATIONS,
};
