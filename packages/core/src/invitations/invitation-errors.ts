import { HangarError, RateLimitedError, type RateLimitState } from "../errors/domain-errors";

/**
 * Errors of the invitations (docs/teams.md, "Invitations"). The HTTP layer maps each class to a
 * status (functions/src/middleware/http-errors.ts); `code` is what the dashboard branches on.
 */

/**
 * 410: a link that leads to no invitation any more: unknown, used, revoked, replaced by a re-send
 * or expired. One answer for all, after the same one read, so a guesser learns nothing from it.
 */
export class InvitationGoneError extends HangarError {
  readonly code = "invitation_gone";
  constructor() {
    super("This invitation link is no longer valid: it was used, revoked or replaced, or it expired. Ask the person who invited you for a new one");
  }
}

/**
 * 403: the signed-in account is not the invited one (another address, or not confirmed). Both
 * addresses are masked (`j•••@e•••.com`): enough for a person with two accounts to see which one
 * to use, not enough for a stranger holding a forwarded link to learn the invitee's address.
 */
export class WrongAccountError extends HangarError {
  readonly code = "wrong_account";
  constructor(signedInAs: string, invited: string) {
    super(
      `You are signed in as ${signedInAs}, but this invitation was sent to ${invited}. Sign out and sign in (or sign up) with the invited address, then open the link again`,
      { signedInAs, invited },
    );
  }
}

/**
 * 409 `already_invited`: the address has a pending invitation (the details name it). The other
 * conflicts (`already_member`, `limit_reached`) are core's ConflictError, as for the workspaces.
 */
export class InvitationConflictError extends HangarError {
  constructor(
    readonly code: "already_invited",
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

/** 429 with Retry-After, worded for the person inviting. */
export class TooManyInvitationsError extends RateLimitedError {
  constructor(rateLimit: RateLimitState, retryAfterSeconds: number, scope: "workspace" | "inviter") {
    super(rateLimit, retryAfterSeconds);
    this.message =
      scope === "workspace"
        ? `This workspace has sent ${rateLimit.limit} invitation mails in a short time; wait before sending more`
        : `You have sent ${rateLimit.limit} invitation mails in a short time; wait before sending more`;
  }
}

/** `jane.doe@example.com` → `j•••@e•••.com`: the first letters and the top-level domain, nothing more. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${email[0]}•••@${host[0] ?? ""}•••${tld}`;
}
