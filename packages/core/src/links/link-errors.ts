import { HangarError, NotFoundError, RateLimitedError, type RateLimitState } from "../errors/domain-errors";
import type { LinkState } from "./link-access";
import type { LinkEnd } from "./share-link.port";

/**
 * Errors of share-link visiting (visit-link.ts). The HTTP layer maps each class to a status
 * (packages/functions/src/middleware/http-errors.ts) and, for browsers, to a page
 * (packages/functions/src/share/error-page.ts); `code` is what programs branch on.
 */

/** Why a link that exists serves nothing. */
export type GoneReason = Exclude<LinkState, "open"> | LinkEnd;

const GONE = {
  disabled: { code: "link_disabled", message: "The person who shared this build has turned its link off. Ask them for a new one." },
  expired: { code: "link_expired", message: "The link to this build was set to expire and no longer works. Ask the person who shared it for a new one." },
  capped: { code: "link_limit_reached", message: "This link has been used as many times as its owner allowed. Ask the person who shared it for a new link." },
  removed: {
    code: "file_removed",
    message: "The person who shared this build has deleted it, so it can no longer be installed. Ask them for a link to a current build.",
  },
  replaced: { code: "link_replaced", message: "The person who shared this build replaced this link with a new one. Ask them for the current link." },
} as const satisfies Record<GoneReason, { code: string; message: string }>;

/** 410: the link exists (or did) but serves nothing; the message tells a tester what to ask for. */
export class LinkGoneError extends HangarError {
  readonly code: (typeof GONE)[GoneReason]["code"];
  constructor(readonly reason: GoneReason) {
    super(GONE[reason].message);
    this.code = GONE[reason].code;
  }
}

/** 404: no link was ever handed out under this key (malformed keys included, which cost no lookup). */
export class UnknownLinkError extends NotFoundError {
  constructor() {
    super("file_not_found", "No file is shared under this link");
  }
}

/** 401: the link has a password and the request carries no valid proof of it (cookie or `?t=`). */
export class LinkPasswordRequiredError extends HangarError {
  readonly code = "password_required";
  constructor() {
    super("This link is protected by a password; open it in a browser and enter it");
  }
}

/** 401: the password form was sent with a wrong (or no) password. */
export class WrongLinkPasswordError extends HangarError {
  readonly code = "wrong_password";
  constructor() {
    super("That password is not right. Check it and try again.");
  }
}

const minutes = (seconds: number) => {
  const m = Math.ceil(seconds / 60);
  return `${m} minute${m === 1 ? "" : "s"}`;
};

/** 429 with Retry-After: this client tried too many passwords (link-password.ts has the rules). */
export class LinkPasswordLimitedError extends RateLimitedError {
  constructor(rateLimit: RateLimitState, retryAfterSeconds: number) {
    super(rateLimit, retryAfterSeconds);
    this.message = `Too many attempts. Try again in ${minutes(retryAfterSeconds)}.`;
  }
}

/** Which per-client rule refused a visit, in words for the person refused. */
const VISIT_LIMIT = {
  client: "Too many requests from your network.",
  link: "This build was downloaded from your network as often as one network may today.",
} as const;

/**
 * 429 with Retry-After: this client opened pages or downloads too often (`sharePage`, `download`),
 * or downloaded this link as often as one client may (`downloadPerLink`).
 */
export class VisitLimitedError extends RateLimitedError {
  /** Why, without the wait: a page says the wait in its own words. */
  readonly reason: string;
  constructor(
    readonly rule: keyof typeof VISIT_LIMIT,
    rateLimit: RateLimitState,
    retryAfterSeconds: number,
  ) {
    super(rateLimit, retryAfterSeconds);
    this.reason = VISIT_LIMIT[rule];
    this.message = `${this.reason} Retry after ${retryAfterSeconds} s.`;
  }
}
