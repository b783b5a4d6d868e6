/**
 * Storage of the public app pages and the update tokens (docs/data-model.md, docs/testers.md).
 * The page's settings live on the project item (`appPage`), so the project's own reads and its
 * delete carry them; a lookup item `APPPAGE#<slug>` finds the project from the public address.
 */

/** What the project item holds of its app page. */
export interface AppPageState {
  enabled: boolean;
  /** The public, unguessable part of `/apps/<slug>`: a readable prefix and 12 base62 characters. */
  slug: string;
  /** Self-describing scrypt hash of the page's password (the share links' hasher); never leaves the server. */
  passwordHash?: string;
  /** Random key of the page's access tokens (cookie, manifest URLs); replaced with the password or the slug. */
  tokenSecret?: string;
}

/** A project as its app page needs it. */
export interface AppPageProject {
  projectId: string;
  workspaceId: string;
  name: string;
  status: "active" | "deleting";
  appPage?: AppPageState;
}

export interface AppPageStore {
  /** The project (strongly consistent), or undefined when the workspace holds no such project. */
  project(workspaceId: string, projectId: string): Promise<AppPageProject | undefined>;
  /** The project a slug names (its lookup item, then the project), whatever the page's state; undefined when none. */
  bySlug(slug: string): Promise<AppPageProject | undefined>;
  /**
   * Writes the page's settings on an active project, only while its slug is still `previous`
   * (undefined: it had no page), with the lookup item of the new slug and without the old one's,
   * in one transaction. False when the project is gone, being deleted, or changed meanwhile.
   */
  save(project: Pick<AppPageProject, "workspaceId" | "projectId">, next: AppPageState, previous: string | undefined): Promise<boolean>;
}

/** An update token as stored: by the SHA-256 of the token (the token itself is never stored). */
export interface UpdateTokenRecord {
  tokenId: string;
  tokenHash: string;
  projectId: string;
  workspaceId: string;
  name: string;
  createdAt: string;
  createdBy: string;
  lastUsedAt?: string;
}

export interface UpdateTokenStore {
  /**
   * The token and one more on its project's count, in one transaction, only while the project is
   * active and has fewer than `cap` tokens: exact under concurrent creates.
   */
  create(record: UpdateTokenRecord, cap: number): Promise<"created" | "limit_reached" | "project_gone">;
  /** A project's tokens, oldest first (gsi1 `PROJECT#<id>` / `UPDATETOKEN#<createdAt>#<tokenId>`). */
  list(projectId: string): Promise<UpdateTokenRecord[]>;
  /** Deletes the token and takes it off the project's count; false when it was gone already. */
  revoke(record: UpdateTokenRecord): Promise<boolean>;
  /** The token of this hash (strongly consistent: a revoked token is refused from the next request on). */
  byHash(tokenHash: string): Promise<UpdateTokenRecord | undefined>;
  /** Records a use at `at` unless one was recorded after `since` (at most one write an hour). */
  touch(tokenHash: string, at: string, since: string): Promise<void>;
}
