/**
 * The client routes' paths, typed. `ROUTE_PATTERNS` is the one list (app.tsx gives each pattern its
 * page and who may see it, and must cover them all); `AppPath` is every path they match, so a
 * `<Link to>` or `navigate()` with a typo (`/project/…`, `/security/keys`) fails to compile; and
 * the `paths` builders encode the parameters. The present history-API router stays: TanStack
 * Router would type the same table but bring its own loaders, search-param state and ~40 kB, for
 * fifteen flat routes that need none of it.
 */
export const ROUTE_PATTERNS = [
  "/sign-up",
  "/login",
  "/forgot-password",
  "/check-email",
  "/verify-email",
  "/reset-password",
  "/profile",
  "/dashboard",
  "/projects",
  "/projects/new",
  "/projects/:projectId",
  "/files/:fileId",
  // Testers (issue 20): the workspace's groups, one group, one tester (`?email=`).
  "/testers",
  "/testers/groups/:groupId",
  "/testers/people",
  // iOS devices (issue 22): the workspace's registered iPhones and iPads.
  "/testers/devices",
  "/security/developer-settings",
  "/security/developer-settings/keys/:clientId",
  "/account",
  "/workspaces/new",
  "/settings/workspace",
  "/settings/members",
  "/settings/audit",
  // Issue 21: the workspace's webhooks (the "turned off" mail links here).
  "/settings/webhooks",
  "/invitations/accept",
  // The tester side (issue 20): testers are addresses with their own session, not accounts.
  "/tester/sign-in",
  "/apps",
  "/tester/apps/:projectId",
  "/join/:token",
] as const;

export type RoutePattern = (typeof ROUTE_PATTERNS)[number];

/** `/projects/:projectId` → `/projects/${string}`. */
type PathOf<P extends string> = P extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${PathOf<Tail>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P;

/** `/projects/:projectId` → `{ projectId: string }`. */
export type ParamsOf<P extends string> = P extends `${string}:${infer Param}/${infer Tail}`
  ? { [K in Param]: string } & ParamsOf<Tail>
  : P extends `${string}:${infer Param}`
    ? { [K in Param]: string }
    : Record<never, string>;

/** A route's path without a query. */
export type RoutePath = PathOf<RoutePattern>;

/** A path in this app: a route (with a query or not), or the root that redirects. */
export type AppPath = "/" | RoutePath | `${RoutePath}?${string}`;

const id = (value: string) => encodeURIComponent(value);

/** The pages that show the current workspace's data, which `?workspace=` chooses (app/workspace.ts). */
export type WorkspacePath = "/dashboard" | "/projects" | "/projects/new" | "/security/developer-settings" | "/settings/workspace" | "/settings/members" | "/settings/audit" | "/testers" | "/settings/webhooks" | "/testers/devices";
export const WORKSPACE_PATHS: readonly WorkspacePath[] = ["/dashboard", "/projects", "/projects/new", "/security/developer-settings", "/settings/workspace", "/settings/members", "/settings/audit", "/testers", "/settings/webhooks", "/testers/devices"];

/** Builders for the routes with parameters (and the query some pages read). */
export const paths = {
  project: (projectId: string) => `/projects/${id(projectId)}` as const,
  file: (fileId: string) => `/files/${id(fileId)}` as const,
  testerGroup: (groupId: string) => `/testers/groups/${id(groupId)}` as const,
  /**
   * A tester's page. The address is in the query, not the path: a path whose last segment has a
   * dot (`…@example.com`) is a file to the local server and CloudFront (stacks/web-stack.ts), never
   * a client route. A tester is an address, not a record of one workspace: the page names its workspace.
   */
  tester: (email: string, workspaceId: string) => `/testers/people?email=${id(email)}&workspace=${id(workspaceId)}` as const,
  keyUsage: (clientId: string) => `/security/developer-settings/keys/${id(clientId)}` as const,
  /** A guarded page's address to come back to after signing in (or signing up, or filling in the profile). */
  withNext: (path: "/login" | "/profile" | "/sign-up", next: string) => `${path}?next=${id(next)}` as const,
  /** A page of one workspace (a link that can be shared, a reload that keeps it). */
  inWorkspace: (path: WorkspacePath, workspaceId: string) => `${path}?workspace=${id(workspaceId)}` as const,
  invitation: (token: string) => `/invitations/accept?token=${id(token)}` as const,
  /** One app's builds sent to the signed-in tester. */
  testerApp: (projectId: string) => `/tester/apps/${id(projectId)}` as const,
} satisfies Record<string, (...args: never[]) => AppPath>;
