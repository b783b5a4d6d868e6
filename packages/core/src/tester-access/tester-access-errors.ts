import { HangarError } from "../errors/domain-errors";

/**
 * Errors of tester access (docs/testers.md). The HTTP layer maps each class to a status
 * (functions/src/middleware/http-errors.ts); `code` is what the tester pages branch on. A used,
 * expired or unknown magic link is accounts' InvalidTokenError (400 `invalid_token`), a missing or
 * dead tester cookie accounts' NotSignedInError (401 `not_signed_in`): the same words as the dashboard's.
 * Browser-safe like tester-groups' errors: `@hangar/core/tester-access-errors`.
 */

/** 410 `join_link_gone`: tester-groups' error for an invite link that lets nobody in (one answer for every reason). */
export { JoinLinkGoneError } from "../tester-groups/tester-group-errors";

/** 404 `app_not_found`: nothing of this project was sent to the signed-in tester (or the id names no project). */
export class AppNotFoundError extends HangarError {
  readonly code = "app_not_found";
  constructor() {
    super("No build of this app was sent to you");
  }
}

export const appNotFound = () => new AppNotFoundError();
