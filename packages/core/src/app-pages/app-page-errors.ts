import { HangarError } from "../errors/domain-errors";

/**
 * Errors of the app pages and the update check. The HTTP layer maps each class to a status
 * (packages/functions/src/middleware/http-errors.ts); the apps function renders the page ones.
 * Imports nothing but the base class: every function's error mapping loads this file.
 */

/**
 * 404: no app page at this address. The same error, page and timing for a slug never issued, one
 * replaced by a regenerate, and a page its owner turned off: an address tells nothing once dead.
 */
export class AppPageNotFoundError extends HangarError {
  readonly code = "app_page_not_found";
  constructor() {
    super("No app is published at this address");
  }
}

/** 404: a build that is not one of this app page's project (or no longer completed). */
export class AppBuildNotFoundError extends HangarError {
  readonly code = "file_not_found";
  constructor(message = "No build of this app with this id") {
    super(message);
  }
}

/** 404: no update token with this id in the project (revoked already, or never made). */
export class UpdateTokenNotFoundError extends HangarError {
  readonly code = "update_token_not_found";
  constructor() {
    super("No update token with this id in this project");
  }
}

/**
 * 401: the update check's Authorization is not a live update token. One answer for a missing,
 * malformed, unknown and revoked token, after the same work (a hash and one read), so a prober
 * learns nothing from the answer or its time.
 */
export class InvalidUpdateTokenError extends HangarError {
  readonly code = "invalid_token";
  constructor() {
    super("Send Authorization: Bearer <update token> with a token of this project that is not revoked");
  }
}
