/**
 * The one list of HTTP routes and of the Lambda functions that serve them. The SST stack builds
 * API Gateway routes, functions and their sizes from it, the local server dispatches with it,
 * and the middleware reads each route's auth kind from it, so the runtimes cannot drift apart.
 *
 * What each route takes in (its body, query and path-parameter schemas) and how it faces its
 * clients (its kind) is declared beside it, per route key, in route-input/: a table apart so
 * that this file stays free of zod and of core (see route-input/ for why), and type-checked to
 * cover every route here.
 *
 * Adding an endpoint is one row in `routes`, its row in route-input/<function>.ts, and its handler in the
 * function's handler file.
 * Adding a function (a group of related routes with its own IAM policy) is one entry in
 * `functions` plus its IAM actions in stacks/access.ts.
 */

/**
 * How a route authenticates: an API key (CI), a dashboard session cookie, a tester session cookie
 * (the tester portal, docs/testers.md), an update token (the in-app update check: one route, read
 * only), or nobody.
 */
export type RouteAuth = "apiKey" | "session" | "tester" | "updateToken" | "none";
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface FunctionDefinition {
  /** SST handler string: file path from the repo root without extension, then `.handler`. */
  handler: string;
  memoryMB: number;
  /** API Gateway gives up on an integration after 29 s; no function may take longer. */
  timeoutSeconds: number;
}

/** Every Lambda function behind the API; the key is the function's id in the stack. */
export const functions = {
  presign: { handler: "packages/functions/src/upload/presign.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // Inspecting a package is CPU- and network-bound: Lambda's CPU share grows with memory.
  complete: { handler: "packages/functions/src/upload/complete.handler.handler", memoryMB: 1024, timeoutSeconds: 29 },
  // Starts and aborts multipart uploads and signs their part URLs (README "Multipart uploads").
  multipart: { handler: "packages/functions/src/upload/multipart.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  download: { handler: "packages/functions/src/share/download.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // 512 MB: a link password is checked with the accounts' scrypt parameters (128 MiB per hash).
  share: { handler: "packages/functions/src/share/share.handler.handler", memoryMB: 512, timeoutSeconds: 10 },
  /**
   * Sign-up, sign-in, sessions, profile and passwords. One scrypt hash (N=2^17, r=8) needs
   * 128 MiB and about a second of one CPU (docs/accounts.md): 1769 MB is where Lambda gives a
   * function one full vCPU, so a sign-in waits for the hash and nothing else.
   */
  accounts: { handler: "packages/functions/src/accounts/accounts.handler.handler", memoryMB: 1769, timeoutSeconds: 15 },
  // The dashboard API (README "Dashboard API"): projects (and the account delete, a purge of
  // every project), API keys, files. Deletes page through storage and hand the rest to an async
  // invocation of the same function (composition/background.ts).
  projects: { handler: "packages/functions/src/projects/projects.handler.handler", memoryMB: 512, timeoutSeconds: 29 },
  keys: { handler: "packages/functions/src/keys/keys.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  files: { handler: "packages/functions/src/files/files.handler.handler", memoryMB: 256, timeoutSeconds: 29 },
  // Share link controls (enable, expiry, password, cap, regenerate); a new password is hashed with scrypt.
  links: { handler: "packages/functions/src/links/links.handler.handler", memoryMB: 512, timeoutSeconds: 10 },
  // A workspace's audit log (docs/audit-log.md): one paged, filtered Query; owners and admins only.
  audit: { handler: "packages/functions/src/audit/audit.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // Workspaces and their members (docs/teams.md): list, create, rename, delete, roles, removal,
  // ownership transfer. Table only; a workspace's delete needs its projects gone first.
  workspaces: { handler: "packages/functions/src/workspaces/workspaces.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // Invitations to workspaces (docs/teams.md, "Invitations"): create, list, revoke and re-send them
  // (each sends a mail from the request), the accept page's preview, and the accept.
  invitations: { handler: "packages/functions/src/invitations/invitations.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // Tester groups (docs/testers.md "Groups"): create, rename, delete, add and remove testers, invite
  // links (the URL shown again from the stage secret), and the workspace's testers. Table only.
  testers: { handler: "packages/functions/src/testers/testers.handler.handler", memoryMB: 256, timeoutSeconds: 29 },
  // Tester access (docs/testers.md, "Tester sign-in and the portal API"): magic-link sign-in and the
  // tester session, the join flow of invite links, the tester portal's reads. Table and mail only;
  // the mails go out after the answer (an asynchronous invocation of itself), so no answer or
  // timing says whether an address is a tester.
  tester: { handler: "packages/functions/src/tester/tester.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // Personal install links and who installed what (docs/testers.md): a tester's page of a build on
  // the share host, its counted download and manifest, and the dashboard's lists of the records.
  // Table reads and writes, and signed GETs of packages and icons; no mail, no object writes.
  installs: { handler: "packages/functions/src/installs/installs.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // Issue 20 (docs/testers.md, "The app page and the update check"): a project's public app page, its
  // settings and update tokens, and the in-app update check. The check alone takes an update token.
  // 512 MB: a page password is checked with the accounts' scrypt parameters (128 MiB per hash).
  apps: { handler: "packages/functions/src/apps/apps.handler.handler", memoryMB: 512, timeoutSeconds: 10 },
  // Sending builds to testers (docs/testers.md "Distribution and build mail"): distribute, the
  // distributions of a build, a project's default groups, and the build mail's unsubscribe page.
  // Queues the mails (SQS); the distribution-mail function (stacks) sends them at SES's rate.
  distribution: { handler: "packages/functions/src/distribution/distribution.handler.handler", memoryMB: 512, timeoutSeconds: 29 },
  // Webhooks, Slack and Teams notifications of a workspace (docs/webhooks.md): endpoints, secrets,
  // test events and delivery logs. Table only; the deliveries themselves are the delivery worker's
  // (webhooks/deliver.handler.ts, triggered by the stack's queue, not by a route).
  webhooks: { handler: "packages/functions/src/webhooks/webhooks.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // iOS devices (docs/devices.md): Apple's profile service on the share host (the enroll profile, the
  // device's signed answer, the result page and its device cookie), and the dashboard's devices.
  // Table only, plus the profile's signing identity when the stage configures one.
  devices: { handler: "packages/functions/src/devices/devices.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // Register with Apple (issue 22, docs/devices.md): adds devices to the team's Apple account through
  // the App Store Connect API. Its own function because only this function may read the App Store
  // Connect key secret (stacks/access.ts); table reads and one update per device.
  apple: { handler: "packages/functions/src/devices/apple.handler.handler", memoryMB: 256, timeoutSeconds: 29 },
  // The CLI as an npm tarball (`npx --yes "$HANGAR_URL/cli/hangar-cli.tgz"`), packed in memory at cold start.
  cli: { handler: "packages/functions/src/cli/cli.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  // The API's OpenAPI 3.1 document (issue 21), built from the route tables once per cold start. No resource.
  openapi: { handler: "packages/functions/src/openapi/openapi.handler.handler", memoryMB: 256, timeoutSeconds: 10 },
  /**
   * Answers every request no route matches (API Gateway's `$default` route), so that unknown
   * paths get our JSON 404 and known paths with the wrong method a 405. It touches no resource.
   */
  fallback: { handler: "packages/functions/src/fallback/fallback.handler.handler", memoryMB: 128, timeoutSeconds: 5 },
} as const satisfies Record<string, FunctionDefinition>;

export type FunctionName = keyof typeof functions;
/** Functions that serve routes of the table (the fallback serves `$default`). */
export type RouteFunctionName = Exclude<FunctionName, "fallback">;

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway route path; `{param}` segments become pathParameters. */
  path: string;
  auth: RouteAuth;
  /** The function that serves it. */
  fn: RouteFunctionName;
}

export const routes = [
  { method: "POST", path: "/api/upload/api-key/presign", auth: "apiKey", fn: "presign" },
  { method: "POST", path: "/api/upload/api-key/complete", auth: "apiKey", fn: "complete" },
  // Multipart uploads beside the spec's flow; complete above also completes them.
  { method: "POST", path: "/api/upload/api-key/multipart", auth: "apiKey", fn: "multipart" },
  { method: "POST", path: "/api/upload/api-key/multipart/parts", auth: "apiKey", fn: "multipart" },
  { method: "DELETE", path: "/api/upload/api-key/multipart", auth: "apiKey", fn: "multipart" },
  // The same flow from the dashboard (browser uploads), for the signed-in owner of the project. Served
  // by the same functions: they already carry the use cases and their clients, and add only the session check.
  { method: "POST", path: "/api/projects/{projectId}/uploads", auth: "session", fn: "presign" },
  { method: "POST", path: "/api/projects/{projectId}/uploads/multipart", auth: "session", fn: "multipart" },
  { method: "POST", path: "/api/projects/{projectId}/uploads/multipart/parts", auth: "session", fn: "multipart" },
  { method: "DELETE", path: "/api/projects/{projectId}/uploads/multipart", auth: "session", fn: "multipart" },
  { method: "POST", path: "/api/projects/{projectId}/uploads/complete", auth: "session", fn: "complete" },
  // The stable links handed out at complete. HEAD is routed explicitly (API Gateway HTTP APIs do
  // not map HEAD to GET); the envelope drops the body, so HEAD answers exactly like GET without one.
  { method: "GET", path: "/download/{userKey}", auth: "none", fn: "download" },
  { method: "HEAD", path: "/download/{userKey}", auth: "none", fn: "download" },
  { method: "GET", path: "/share/{userKey}", auth: "none", fn: "share" },
  { method: "HEAD", path: "/share/{userKey}", auth: "none", fn: "share" },
  // The share page's password form, the iOS install manifest, the QR code, and a stable icon address.
  { method: "POST", path: "/share/{userKey}", auth: "none", fn: "share" },
  { method: "GET", path: "/share/{userKey}/manifest.plist", auth: "none", fn: "share" },
  { method: "HEAD", path: "/share/{userKey}/manifest.plist", auth: "none", fn: "share" },
  { method: "GET", path: "/share/{userKey}/qr.svg", auth: "none", fn: "share" },
  { method: "HEAD", path: "/share/{userKey}/qr.svg", auth: "none", fn: "share" },
  { method: "GET", path: "/share/{userKey}/icon.png", auth: "none", fn: "share" },
  { method: "HEAD", path: "/share/{userKey}/icon.png", auth: "none", fn: "share" },
  // Accounts and dashboard sessions (docs/accounts.md). Session routes read the cookie only.
  { method: "POST", path: "/api/account/sign-up", auth: "none", fn: "accounts" },
  { method: "POST", path: "/api/account/verify-email", auth: "none", fn: "accounts" },
  { method: "POST", path: "/api/account/resend-verification", auth: "none", fn: "accounts" },
  { method: "POST", path: "/api/session", auth: "none", fn: "accounts" },
  // Sign-out works with or without a valid session (it clears the cookie either way).
  { method: "DELETE", path: "/api/session", auth: "none", fn: "accounts" },
  { method: "GET", path: "/api/account", auth: "session", fn: "accounts" },
  { method: "PUT", path: "/api/account/profile", auth: "session", fn: "accounts" },
  { method: "POST", path: "/api/account/password", auth: "session", fn: "accounts" },
  { method: "POST", path: "/api/account/password-reset", auth: "none", fn: "accounts" },
  { method: "POST", path: "/api/account/password-reset/confirm", auth: "none", fn: "accounts" },
  { method: "GET", path: "/api/account/sessions", auth: "session", fn: "accounts" },
  { method: "DELETE", path: "/api/account/sessions", auth: "session", fn: "accounts" },
  { method: "DELETE", path: "/api/account/sessions/{sessionId}", auth: "session", fn: "accounts" },
  // Dashboard: projects, keys and files of the signed-in account (another account's ids are 404).
  { method: "POST", path: "/api/projects", auth: "session", fn: "projects" },
  { method: "GET", path: "/api/projects", auth: "session", fn: "projects" },
  { method: "GET", path: "/api/projects/{projectId}", auth: "session", fn: "projects" },
  { method: "PATCH", path: "/api/projects/{projectId}", auth: "session", fn: "projects" },
  { method: "DELETE", path: "/api/projects/{projectId}", auth: "session", fn: "projects" },
  { method: "GET", path: "/api/projects/{projectId}/files", auth: "session", fn: "projects" },
  { method: "DELETE", path: "/api/account", auth: "session", fn: "projects" },
  { method: "POST", path: "/api/keys", auth: "session", fn: "keys" },
  { method: "GET", path: "/api/keys", auth: "session", fn: "keys" },
  { method: "DELETE", path: "/api/keys/{clientId}", auth: "session", fn: "keys" },
  { method: "POST", path: "/api/keys/{clientId}/regenerate", auth: "session", fn: "keys" },
  { method: "GET", path: "/api/keys/{clientId}/usage", auth: "session", fn: "keys" },
  { method: "GET", path: "/api/files", auth: "session", fn: "files" },
  { method: "GET", path: "/api/files/{fileId}", auth: "session", fn: "files" },
  { method: "DELETE", path: "/api/files/{fileId}", auth: "session", fn: "files" },
  // What changed since the previous build of the same app, or since `?against=` (docs/release-safety.md).
  { method: "GET", path: "/api/files/{fileId}/diff", auth: "session", fn: "files" },
  // Retention (issue 24, docs/release-safety.md): what a project's policy would remove now (the
  // policy itself rides on the project's PATCH), and pinning a build so no policy removes it.
  { method: "GET", path: "/api/projects/{projectId}/retention/preview", auth: "session", fn: "projects" },
  { method: "PATCH", path: "/api/files/{fileId}", auth: "session", fn: "files" },
  { method: "PATCH", path: "/api/files/{fileId}/share", auth: "session", fn: "links" },
  { method: "POST", path: "/api/files/{fileId}/share/regenerate", auth: "session", fn: "links" },
  // The audit log of a workspace (docs/audit-log.md), newest first: ?cursor=&actor=&action=.
  { method: "GET", path: "/api/workspaces/{workspaceId}/audit", auth: "session", fn: "audit" },
  // Invitations (docs/teams.md): managed by members with members.manage; the preview needs no session
  // (the accept page shows it before sign-in), the accept needs the invited address's session.
  { method: "POST", path: "/api/workspaces/{workspaceId}/invitations", auth: "session", fn: "invitations" },
  { method: "GET", path: "/api/workspaces/{workspaceId}/invitations", auth: "session", fn: "invitations" },
  { method: "DELETE", path: "/api/workspaces/{workspaceId}/invitations/{invitationId}", auth: "session", fn: "invitations" },
  { method: "POST", path: "/api/workspaces/{workspaceId}/invitations/{invitationId}/resend", auth: "session", fn: "invitations" },
  { method: "POST", path: "/api/invitations/preview", auth: "none", fn: "invitations" },
  { method: "POST", path: "/api/invitations/accept", auth: "session", fn: "invitations" },
  { method: "GET", path: "/api/workspaces", auth: "session", fn: "workspaces" },
  { method: "POST", path: "/api/workspaces", auth: "session", fn: "workspaces" },
  { method: "GET", path: "/api/workspaces/{workspaceId}", auth: "session", fn: "workspaces" },
  { method: "PATCH", path: "/api/workspaces/{workspaceId}", auth: "session", fn: "workspaces" },
  // Purges the workspace's projects like a project delete: the projects function's S3 and self-invoke rights.
  { method: "DELETE", path: "/api/workspaces/{workspaceId}", auth: "session", fn: "projects" },
  { method: "GET", path: "/api/workspaces/{workspaceId}/members", auth: "session", fn: "workspaces" },
  { method: "PATCH", path: "/api/workspaces/{workspaceId}/members/{userId}", auth: "session", fn: "workspaces" },
  { method: "DELETE", path: "/api/workspaces/{workspaceId}/members/{userId}", auth: "session", fn: "workspaces" },
  { method: "POST", path: "/api/workspaces/{workspaceId}/transfer", auth: "session", fn: "workspaces" },
  // Tester groups and their invite links (issue 20, docs/testers.md "Groups"); admins manage, members see.
  { method: "GET", path: "/api/workspaces/{workspaceId}/groups", auth: "session", fn: "testers" },
  { method: "POST", path: "/api/workspaces/{workspaceId}/groups", auth: "session", fn: "testers" },
  { method: "GET", path: "/api/groups/{groupId}", auth: "session", fn: "testers" },
  { method: "PATCH", path: "/api/groups/{groupId}", auth: "session", fn: "testers" },
  { method: "DELETE", path: "/api/groups/{groupId}", auth: "session", fn: "testers" },
  { method: "POST", path: "/api/groups/{groupId}/testers", auth: "session", fn: "testers" },
  { method: "DELETE", path: "/api/groups/{groupId}/testers/{email}", auth: "session", fn: "testers" },
  { method: "POST", path: "/api/groups/{groupId}/invite-link", auth: "session", fn: "testers" },
  { method: "DELETE", path: "/api/groups/{groupId}/invite-link", auth: "session", fn: "testers" },
  { method: "GET", path: "/api/workspaces/{workspaceId}/testers", auth: "session", fn: "testers" },
  // Tester access (docs/testers.md): the tester portal's own cookie (`hangar_tester`), never a dashboard
  // session; sign-in, join and sign-out need none. Mails are sent whatever the address, answers equal.
  { method: "POST", path: "/api/tester/sign-in", auth: "none", fn: "tester" },
  { method: "POST", path: "/api/tester/session", auth: "none", fn: "tester" },
  { method: "GET", path: "/api/tester/session", auth: "tester", fn: "tester" },
  { method: "DELETE", path: "/api/tester/session", auth: "none", fn: "tester" },
  { method: "GET", path: "/api/tester/apps", auth: "tester", fn: "tester" },
  { method: "GET", path: "/api/tester/apps/{projectId}", auth: "tester", fn: "tester" },
  // The device cookie handed from the share host's enroll result page to the portal (docs/devices.md).
  { method: "POST", path: "/api/tester/device", auth: "tester", fn: "tester" },
  { method: "POST", path: "/api/join/preview", auth: "none", fn: "tester" },
  { method: "POST", path: "/api/join", auth: "none", fn: "tester" },
  // Personal install links (docs/testers.md, "Personal install links and who installed what"): the
  // share page of one build for the tester it was sent to; its download and manifest count for them.
  // The share link's password, expiry and cap do not apply (the distribution is the grant).
  { method: "GET", path: "/install/{token}", auth: "none", fn: "installs" },
  { method: "HEAD", path: "/install/{token}", auth: "none", fn: "installs" },
  { method: "GET", path: "/install/{token}/download", auth: "none", fn: "installs" },
  { method: "HEAD", path: "/install/{token}/download", auth: "none", fn: "installs" },
  { method: "GET", path: "/install/{token}/manifest.plist", auth: "none", fn: "installs" },
  { method: "HEAD", path: "/install/{token}/manifest.plist", auth: "none", fn: "installs" },
  { method: "GET", path: "/install/{token}/icon.png", auth: "none", fn: "installs" },
  { method: "HEAD", path: "/install/{token}/icon.png", auth: "none", fn: "installs" },
  // Who installed what: a build's testers, and a tester's builds in a workspace.
  { method: "GET", path: "/api/files/{fileId}/installs", auth: "session", fn: "installs" },
  { method: "GET", path: "/api/workspaces/{workspaceId}/testers/{email}/installs", auth: "session", fn: "installs" },
  // Issue 20, the apps function (docs/testers.md, "The app page and the update check"): the public page of a
  // project's latest builds, its password form and files (on the share host too), its settings, the
  // update tokens, and the in-app update check (the one route an update token opens).
  { method: "GET", path: "/apps/{slug}", auth: "none", fn: "apps" },
  { method: "HEAD", path: "/apps/{slug}", auth: "none", fn: "apps" },
  { method: "POST", path: "/apps/{slug}", auth: "none", fn: "apps" },
  { method: "GET", path: "/apps/{slug}/files/{fileId}/download", auth: "none", fn: "apps" },
  { method: "HEAD", path: "/apps/{slug}/files/{fileId}/download", auth: "none", fn: "apps" },
  { method: "GET", path: "/apps/{slug}/files/{fileId}/manifest.plist", auth: "none", fn: "apps" },
  { method: "HEAD", path: "/apps/{slug}/files/{fileId}/manifest.plist", auth: "none", fn: "apps" },
  { method: "GET", path: "/apps/{slug}/files/{fileId}/icon.png", auth: "none", fn: "apps" },
  { method: "HEAD", path: "/apps/{slug}/files/{fileId}/icon.png", auth: "none", fn: "apps" },
  { method: "GET", path: "/api/projects/{projectId}/app-page", auth: "session", fn: "apps" },
  { method: "PUT", path: "/api/projects/{projectId}/app-page", auth: "session", fn: "apps" },
  { method: "GET", path: "/api/projects/{projectId}/update-tokens", auth: "session", fn: "apps" },
  { method: "POST", path: "/api/projects/{projectId}/update-tokens", auth: "session", fn: "apps" },
  { method: "DELETE", path: "/api/projects/{projectId}/update-tokens/{tokenId}", auth: "session", fn: "apps" },
  { method: "GET", path: "/api/updates/latest", auth: "updateToken", fn: "apps" },
  // Issue 20, distribute: sending a build to testers, and the build mail's one-click unsubscribe
  // (RFC 8058: mail clients POST `List-Unsubscribe=One-Click`; the page's button posts the same).
  { method: "POST", path: "/api/files/{fileId}/distribute", auth: "session", fn: "distribution" },
  { method: "GET", path: "/api/files/{fileId}/distributions", auth: "session", fn: "distribution" },
  { method: "GET", path: "/api/projects/{projectId}/default-groups", auth: "session", fn: "distribution" },
  { method: "PUT", path: "/api/projects/{projectId}/default-groups", auth: "session", fn: "distribution" },
  { method: "GET", path: "/unsubscribe/{token}", auth: "none", fn: "distribution" },
  { method: "POST", path: "/unsubscribe/{token}", auth: "none", fn: "distribution" },
  // Issue 24 item 4, expiry warnings (docs/release-safety.md): the latest builds whose profile or share
  // link expires soon (the dashboard's banner), and the one-click opt-out of the warning mails, served
  // beside the build mail's unsubscribe (same pages, same stage secret, another domain prefix).
  { method: "GET", path: "/api/workspaces/{workspaceId}/expiring", auth: "session", fn: "files" },
  { method: "GET", path: "/unsubscribe/expiry/{token}", auth: "none", fn: "distribution" },
  { method: "POST", path: "/unsubscribe/expiry/{token}", auth: "none", fn: "distribution" },
  // Webhooks (issue 21, docs/webhooks.md): members read them and their delivery logs; owners and
  // admins manage them (webhooks.manage). Another workspace's webhook id is a 404.
  { method: "GET", path: "/api/workspaces/{workspaceId}/webhooks", auth: "session", fn: "webhooks" },
  { method: "POST", path: "/api/workspaces/{workspaceId}/webhooks", auth: "session", fn: "webhooks" },
  { method: "GET", path: "/api/webhooks/{webhookId}", auth: "session", fn: "webhooks" },
  { method: "PATCH", path: "/api/webhooks/{webhookId}", auth: "session", fn: "webhooks" },
  { method: "DELETE", path: "/api/webhooks/{webhookId}", auth: "session", fn: "webhooks" },
  { method: "POST", path: "/api/webhooks/{webhookId}/rotate-secret", auth: "session", fn: "webhooks" },
  { method: "POST", path: "/api/webhooks/{webhookId}/test", auth: "session", fn: "webhooks" },
  { method: "GET", path: "/api/webhooks/{webhookId}/deliveries", auth: "session", fn: "webhooks" },
  { method: "POST", path: "/api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", auth: "session", fn: "webhooks" },
  // iOS devices (issue 22, docs/devices.md). The enroll flow needs no session: the page the tester
  // came from (`?return=`) names the workspaces, the device's signed answer proves the rest. Members
  // see a workspace's devices; developers and up rename and remove them (devices.manage).
  { method: "GET", path: "/devices/enroll", auth: "none", fn: "devices" },
  { method: "POST", path: "/devices/enroll/callback", auth: "none", fn: "devices" },
  { method: "GET", path: "/devices/enrolled/{token}", auth: "none", fn: "devices" },
  { method: "GET", path: "/api/workspaces/{workspaceId}/devices", auth: "session", fn: "devices" },
  { method: "GET", path: "/api/workspaces/{workspaceId}/devices/export", auth: "session", fn: "devices" },
  { method: "PATCH", path: "/api/devices/{deviceId}", auth: "session", fn: "devices" },
  { method: "DELETE", path: "/api/devices/{deviceId}", auth: "session", fn: "devices" },
  { method: "GET", path: "/api/files/{fileId}/devices", auth: "session", fn: "devices" },
  // Register with Apple (issue 22, docs/devices.md): developers and up; 409 apple_not_configured when off.
  { method: "POST", path: "/api/workspaces/{workspaceId}/devices/apple", auth: "session", fn: "apple" },
  // The CLI of this deployment, for CI without a registry: hangar-cli.tgz or hangar-cli-<version>.tgz.
  { method: "GET", path: "/cli/{fileName}", auth: "none", fn: "cli" },
  { method: "HEAD", path: "/cli/{fileName}", auth: "none", fn: "cli" },
  // The OpenAPI 3.1 document of every route here (issue 21, docs/openapi.json is the same document).
  { method: "GET", path: "/api/openapi.json", auth: "none", fn: "openapi" },
] as const satisfies readonly RouteDefinition[];

export type Route = (typeof routes)[number];
type KeyOf<R> = R extends Route ? `${R["method"]} ${R["path"]}` : never;
/** `"POST /api/upload/api-key/presign"`: API Gateway's route key, and our handlers' key. */
export type RouteKey = KeyOf<Route>;
export type RouteKeyOf<F extends RouteFunctionName> = KeyOf<Extract<Route, { fn: F }>>;
type RouteFor<K extends RouteKey> = Route extends infer R ? (R extends Route ? (KeyOf<R> extends K ? R : never) : never) : never;
/** The auth kind of a route, known at compile time so handlers get a context typed for it. */
export type AuthOf<K extends RouteKey> = RouteFor<K>["auth"];

export const routeKey = (route: Pick<RouteDefinition, "method" | "path">): string => `${route.method} ${route.path}`;

const byKey = new Map<string, RouteDefinition>(routes.map((r) => [routeKey(r), r]));

/** The route API Gateway (or the local server) matched, by its route key; undefined for `$default`. */
export function routeByKey(key: string | undefined): RouteDefinition | undefined {
  return key === undefined ? undefined : byKey.get(key);
}

export const routesOf = (fn: RouteFunctionName): RouteDefinition[] => routes.filter((r) => r.fn === fn);

/** The fallback's SST handler string (API Gateway's `$default` route). */
export const fallbackHandler = functions.fallback.handler;

function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => (/^\{\w+\}$/.test(segment) ? `(?<${segment.slice(1, -1)}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}

const compiled = routes.map((route) => ({ route: route as RouteDefinition, pattern: pathPattern(route.path) }));

export type RouteMatch =
  | { kind: "route"; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: "method_not_allowed"; allowed: string[] }
  | { kind: "not_found" };

/** decodeURIComponent that answers undefined for malformed escapes (`%ff`) instead of throwing. */
function decodeSegment(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Matches like API Gateway: exact method and path, `{param}` = one non-empty segment. A path
 * parameter that is not valid percent-encoded UTF-8 matches nothing (404), never an error.
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  const wanted = method.toUpperCase();
  for (const { route, pattern } of compiled) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method !== wanted) {
      if (!allowed.includes(route.method)) allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(m.groups ?? {})) {
      const decoded = decodeSegment(raw);
      if (decoded === undefined) return { kind: "not_found" };
      params[name] = decoded;
    }
    return { kind: "route", route, pathParameters: params };
  }
  return allowed.length > 0 ? { kind: "method_not_allowed", allowed } : { kind: "not_found" };
}
