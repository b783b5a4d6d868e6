import { HangarError, RateLimitedError, type RateLimitState } from "../errors/domain-errors";

/**
 * Errors of the accounts API. The HTTP layer maps each class to a status
 * (packages/functions/src/middleware/http-errors.ts); `code` is what programs branch on.
 */

/** 401: no session cookie, or one that is unknown, tampered with or expired. */
export class NotSignedInError extends HangarError {
  readonly code = "not_signed_in";
  constructor(message = "Sign in to continue") {
    super(message);
  }
}

/**
 * 401: the one answer for an unknown address, a wrong password and an account without a
 * password, so sign-in cannot tell which addresses have accounts.
 */
export class LoginFailedError extends HangarError {
  readonly code = "invalid_credentials";
  constructor() {
    super("The e-mail address or password is incorrect");
  }
}

/** 403: the password was right, but the address was never confirmed. Only said after a correct password. */
export class EmailNotVerifiedError extends HangarError {
  readonly code = "email_not_verified";
  constructor() {
    super("Confirm your e-mail address first: open the link we sent you, or ask for a new one");
  }
}

/** 400: a verification or reset token that is unknown, used, expired or tampered with (one answer for all). */
export class InvalidTokenError extends HangarError {
  readonly code = "invalid_token";
  constructor() {
    super("This link is invalid or has expired. Ask for a new one");
  }
}

/** 404: the session is not one of the caller's (or does not exist). */
export class SessionNotFoundError extends HangarError {
  readonly code = "session_not_found";
  constructor() {
    super("No such session");
  }
}

/** 429 with Retry-After, worded for people signing in rather than for CI clients. */
export class TooManyAttemptsError extends RateLimitedError {
  constructor(rateLimit: RateLimitState, retryAfterSeconds: number) {
    super(rateLimit, retryAfterSeconds);
    this.message = "Too many attempts. Wait a while before trying again";
  }
}
