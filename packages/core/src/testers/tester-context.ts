/**
 * Who is calling a tester route or the update check, as the middlewares of those auth kinds
 * (routes.ts `auth: "tester"` / `"updateToken"`) put it on the context. Testers are not accounts:
 * a tester is a normalized e-mail address (accounts' `normalizeEmail`), known to the workspaces
 * whose groups or distributions name it (docs/testers.md).
 */

/** A signed-in tester (the portal's cookie, separate from dashboard sessions). */
export interface TesterSession {
  /** SHA-256 of the cookie's token (hex): the session item's id, never the token itself. */
  sessionId: string;
  /** The tester's normalized address. */
  email: string;
  /** ISO time the session ends (30 days after sign-in). */
  expiresAt: string;
}

/**
 * What an update token may do: read the latest build of one project, nothing else. Not an API
 * key: it is made to be shipped inside test builds, so anyone holding a build holds it.
 */
export interface UpdateGrant {
  tokenId: string;
  projectId: string;
  workspaceId: string;
}
