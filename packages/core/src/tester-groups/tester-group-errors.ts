import { HangarError } from "../errors/domain-errors";

/**
 * Errors of the tester groups (docs/testers.md, "Groups"). The HTTP layer maps each class to a
 * status (functions/src/middleware/http-errors.ts); `code` is what the dashboard branches on.
 */

/** 404: no group with this id in the caller's workspaces (another workspace's id included). */
export class GroupNotFoundError extends HangarError {
  readonly code = "group_not_found";
  constructor(message = "No tester group with this id in your workspaces", details?: Record<string, unknown>) {
    super(message, details);
  }
}

/** 404: the address is not a tester of this group. */
export class TesterNotFoundError extends HangarError {
  readonly code = "tester_not_found";
  constructor() {
    super("This address is not a tester of this group");
  }
}

/**
 * 409: `group_name_taken` (another group of the workspace has this name, whatever its case) or
 * `limit_reached` (100 groups per workspace, 1,000 testers per group; the details say which and
 * how many places are free).
 */
export class GroupConflictError extends HangarError {
  constructor(
    readonly code: "group_name_taken" | "limit_reached",
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

/**
 * 410: an invite link that takes nobody any more: unknown, revoked, replaced, expired, full (its
 * member cap or the group's), or its group deleted. One answer for all, after the same reads, so a
 * guesser learns nothing from it and a person holding an old link knows to ask for a new one.
 */
export class JoinLinkGoneError extends HangarError {
  readonly code = "join_link_gone";
  constructor() {
    super("This invite link no longer works: it was revoked or replaced, it expired, or the group is full. Ask whoever sent it for a new one");
  }
}
