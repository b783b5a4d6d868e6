/**
 * What each route of routes.ts answers, beside what it takes in (route-input/): its success
 * statuses with their bodies (the zod schemas of openapi/answers.schema.ts, or a media type for
 * pages, manifests, images and tarballs), the headers it sets, the errors of its own (codes by
 * status) and one example request and answer. openapi/openapi-document.ts builds the OpenAPI 3.1
 * document from routes.ts, route-input/ and this table; the errors every route of a kind
 * answers (auth, body, path ids, 5xx) are derived there from routes.ts and route-input/, so a
 * row names only what its use case adds.
 *
 * A table of its own, like route-input/ and for the same reason: the stack, the local server
 * and the fallback read routes.ts without loading zod. Type-checked to name every route exactly
 * once; only the openapi function and the tests import it.
 */
import * as A from "./openapi/answers.schema";
import type { RouteKey } from "./routes";
import type * as z from "zod/mini";

/** Response headers a row may name; openapi-document.ts describes each once. */
export type HeaderName =
  | "Location"
  | "Set-Cookie"
  | "Cache-Control"
  | "ETag"
  | "Content-Disposition"
  | "X-Hangar-Cli-Version"
  | "Retry-After";

export interface Answer {
  status: number;
  description: string;
  /** A JSON body. */
  json?: z.ZodMiniType;
  /** Any other body: its media type, and whether it is bytes (a package, an image, a tarball). */
  media?: { type: string; binary?: boolean };
  headers?: readonly HeaderName[];
  /** An example of the JSON body; validated against the schema by the tests and the OpenAPI validator. */
  example?: unknown;
}

export interface RouteOutput {
  summary: string;
  description?: string;
  answers: readonly Answer[];
  /** Errors of the route's own use case, by status (the derived ones are openapi-document.ts's). */
  errors?: Readonly<Partial<Record<number, readonly string[]>>>;
  /** An example request body (routes with a JSON body); it must parse with the route-input/ schema. */
  request?: unknown;
}

/** A HEAD route answers exactly as its GET, without the body (the envelope drops it). */
export const SAME_AS_GET = { sameAsGet: true } as const;
export type OutputRow = RouteOutput | typeof SAME_AS_GET;

// ---- examples ------------------------------------------------------------------------------

const AT = "2026-11-20T09:30:00.000Z";
const LATER = "2026-11-21T09:30:00.000Z";
const WS = "ws_4f7Kq9ZbT2mXc8Lp";
const PROJECT = "p4f7Kq9ZbT2mX";
const FILE = "f9Hc2LmQ8xRt";
const USER = "usr_8Jd3kLq0Zx";
const KEY = "k_3Jd8s0LqWm";
const USER_KEY = "aB3dE5gH7jK9";
const PUBLIC = "https://hangar.example.com";
const SHARE = "https://get.example.com";
const GROUP = "grp_7Yh3Lk2Qm9Rt4Zx1";
const WEBHOOK = "whk_2Nc8Vb5Xz1Qw7Er3";
const DELIVERY = "msg_4Rt6Yu8Io0Pa2Sd4Fg6Hj8Kl";
const TESTER = "tester@example.com";

const ex = {
  presign: { fileId: FILE, key: `uploads/${PROJECT}/${FILE}/app.apk`, uploadUrl: "https://bucket.s3.amazonaws.com/uploads/p4f7/app.apk?X-Amz-Signature=3b1f", expireAt: AT },
  partUrls: { parts: [{ partNumber: 1, uploadUrl: "https://bucket.s3.amazonaws.com/uploads/p4f7/app.ipa?partNumber=1&uploadId=2~x" }], expireAt: AT },
  metadata: { appName: "Demo", bundleId: "com.example.demo", version: "1.4.0", buildNumber: "42", platform: "android", minOs: "24" },
  diff: {
    previous: { fileId: "f1Ab2Cd3Ef4G", version: "1.3.0", buildNumber: "41" },
    changes: [{ kind: "permission-added", severity: "warning", message: "New permission android.permission.CAMERA", to: "android.permission.CAMERA" }],
  },
  project: {
    projectId: PROJECT, workspaceId: WS, name: "Demo app", description: "", color: "blue", colorHex: "#2563eb",
    status: "active", fileCount: 3, lastUploadAt: AT, createdAt: AT, retention: { keepLatest: 10, maxAgeDays: null }, storageBytes: 15728640,
  },
  key: {
    clientId: KEY, name: "CI", projectId: PROJECT, projectName: "Demo app", workspaceId: WS,
    createdBy: { userId: USER, email: "dev@example.com" }, status: "active", createdAt: AT, lastUsedAt: null,
  },
  linkSummary: { state: "open", hasPassword: false, downloads: 4, installs: 1 },
  file: {
    fileId: FILE, projectId: PROJECT, fileName: "app.apk", fileSize: 5242880, status: "completed", rejection: null,
    createdAt: AT, completedAt: AT, appName: "Demo", version: "1.4.0", buildNumber: "42", platform: "android",
    bundleId: "com.example.demo", installBlocker: null, iconUrl: null, uploadedBy: { clientId: KEY, name: "CI" },
    shareUrl: `${SHARE}/share/${USER_KEY}`, downloadUrl: `${PUBLIC}/download/${USER_KEY}`, pinned: false, diffSeverity: "warning",
  },
  link: {
    state: "open", hasPassword: false, downloads: 4, installs: 1, userKey: USER_KEY, shareUrl: `${SHARE}/share/${USER_KEY}`,
    enabled: true, expiresAt: null, maxDownloads: null, daily: [{ day: "2026-11-20", downloads: 4, installs: 1 }],
  },
  workspace: {
    workspaceId: WS, name: "Mobile team", personal: false, role: "owner",
    permissions: ["workspace.read", "projects.manage"], memberCount: 3, createdAt: AT,
  },
  member: { userId: USER, email: "dev@example.com", displayName: "Dana", role: "developer", joinedAt: AT, lastActiveAt: AT, you: false },
  invitation: {
    invitationId: "inv_7Yh3Lk2Qm9Rt4Zx1", email: "new@example.com", role: "developer", expiresAt: LATER, createdAt: AT,
    invitedBy: { userId: USER, email: "owner@example.com" },
  },
  inviteLink: { url: `${PUBLIC}/join/Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb`, createdAt: AT, expiresAt: null, maxMembers: 50, joinedCount: 2 },
  lastInstall: { fileId: FILE, projectId: PROJECT, platform: "ios", version: "1.4.0", build: "42", at: AT },
  testerBuild: {
    fileId: FILE, platform: "ios", appName: "Demo", bundleId: "com.example.demo", version: "1.4.0", build: "42",
    uploadedAt: AT, size: 5242880, releaseNotes: "Fixes the login crash", message: null,
    installUrl: `${SHARE}/install/it_Z1x2C3v4B5n6M7`, iconUrl: null, installable: true,
    device: {
      verdict: "in-profile",
      device: { name: "Anna's iPhone", model: "iPhone 14 Pro", product: "iPhone15,2", osVersion: "22B83", udid: "00008120-001A2B3C4D5E6F70" },
      told: false,
    },
  },
  webhook: {
    webhookId: WEBHOOK, workspaceId: WS, type: "webhook", url: "https://ci.example.com/hangar", description: "CI bot",
    events: ["build.completed"], projectIds: [], branchFilter: null, enabled: true, disabledReason: null,
    failureStreak: 0, previousSecretExpiresAt: null, createdAt: AT, updatedAt: AT,
  },
  delivery: {
    deliveryId: DELIVERY, webhookId: WEBHOOK, event: "build.completed", test: true, state: "succeeded", createdAt: AT,
    nextAttemptAt: null, attempts: [{ attempt: 1, at: AT, status: 200, latencyMs: 84, responseBody: "thanks", error: null }],
  },
};
const group = { groupId: GROUP, workspaceId: WS, name: "QA", testerCount: 2, createdAt: AT, inviteLink: ex.inviteLink };
const complete = {
  message: "File uploaded successfully", fileId: FILE, userKey: USER_KEY, downloadUrl: `${PUBLIC}/download/${USER_KEY}`,
  shareUrl: `${SHARE}/share/${USER_KEY}`, metadata: ex.metadata,
};

// ---- rows ----------------------------------------------------------------------------------

const ok = (json: z.ZodMiniType, example: unknown, description = "OK", status = 200): Answer => ({ status, description, json, example });
const noContent = (description = "Done"): Answer => ({ status: 204, description });
const html = (description: string, status = 200, headers?: readonly HeaderName[]): Answer => ({ status, description, media: { type: "text/html" }, ...(headers ? { headers } : {}) });
const redirect = (description: string, status = 302): Answer => ({ status, description, headers: ["Location", "Cache-Control"] });

const presignRow = (who: string): RouteOutput => ({
  summary: `Presign a single-PUT upload (${who})`,
  request: { fileName: "app.apk", fileSize: 5242880, fileType: "application/vnd.android.package-archive" },
  answers: [ok(A.PresignAnswer, ex.presign)],
  errors: { 413: ["file_too_large"], 415: ["unsupported_file_type"] },
});
const startMultipartRow = (who: string): RouteOutput => ({
  summary: `Start a multipart upload (${who})`,
  request: { fileName: "app.ipa", fileSize: 209715200, fileType: "application/octet-stream", partChecksums: [{ partNumber: 1, checksumCRC32C: "yZRlqg==" }] },
  answers: [ok(A.StartMultipartAnswer, { fileId: FILE, key: `uploads/${PROJECT}/${FILE}/app.ipa`, uploadId: "2~x", partSize: 67108864, partCount: 4, ...ex.partUrls })],
  errors: { 413: ["file_too_large"], 415: ["unsupported_file_type"] },
});
const partsRow = (who: string): RouteOutput => ({
  summary: `Sign URLs for more parts (${who})`,
  request: { key: `uploads/${PROJECT}/${FILE}/app.ipa`, uploadId: "2~x", partChecksums: [{ partNumber: 2, checksumCRC32C: "yZRlqg==" }] },
  answers: [ok(A.PartUrlsAnswer, ex.partUrls)],
  errors: { 404: ["upload_not_found"] },
});
const abortRow = (who: string): RouteOutput => ({
  summary: `Abort a multipart upload (${who})`,
  request: { key: `uploads/${PROJECT}/${FILE}/app.ipa`, uploadId: "2~x" },
  answers: [noContent("The parts and the pending record are gone")],
  errors: { 404: ["upload_not_found"] },
});
const completeRow = (who: string): RouteOutput => ({
  summary: `Complete an upload: inspect the package, answer its links (${who})`,
  description: "A single upload's body is `{key, fileName, fileType, fileSize}`; a multipart upload's `{key, uploadId, parts}`. Idempotent: completing again answers the same.",
  request: { key: `uploads/${PROJECT}/${FILE}/app.apk`, fileName: "app.apk", fileType: "application/vnd.android.package-archive", fileSize: 5242880, releaseNotes: "Fixes the login crash", branch: "main" },
  answers: [ok(A.CompleteAnswer, complete)],
  errors: {
    400: ["part_missing", "part_mismatch"],
    404: ["upload_not_found", "group_not_found"],
    409: ["upload_mismatch", "object_missing", "object_changed", "size_mismatch"],
    422: ["invalid_package"],
  },
});

const linkErrors = { 401: ["password_required"], 410: ["link_disabled", "link_expired", "link_limit_reached", "file_removed", "link_replaced"] } as const;
const installErrors = { 410: ["file_removed"] } as const;

const sharePage: RouteOutput = {
  summary: "The share page of a build (HTML for testers)",
  answers: [html("The page: icon, name, version, Install or Download, QR code"), html("The password form of a protected link", 401)],
  errors: { 410: linkErrors[410] },
};
const download: RouteOutput = {
  summary: "Download the package (counted)",
  description: "GET redirects to a 5-minute signed URL and counts one download; HEAD describes the package.",
  answers: [
    redirect("To a signed GET of the package"),
    { status: 200, description: "HEAD: the package's type, length and name", headers: ["Content-Disposition"] },
    html("A link-preview bot's GET: a page pointing to the share page (nothing is counted)", 403),
  ],
  errors: linkErrors,
};
const manifest = (what: string): RouteOutput => ({
  summary: `The iOS over-the-air install manifest (${what})`,
  answers: [{ status: 200, description: "The manifest (itms-services)", media: { type: "text/xml" }, headers: ["Cache-Control"] }],
});
const icon = (what: string): RouteOutput => ({ summary: `The app's icon (${what})`, answers: [redirect("To a signed GET of the icon")] });
const appPageErrors = { 404: ["app_page_not_found", "file_not_found"] } as const;

/** A registered device as the device routes answer it (examples). */
const device = {
  deviceId: "dev_7Yh3Lk2Qm9Rt4Zx1", udid: "00008120-001A2B3C4D5E6F70", name: "QA iPhone", product: "iPhone15,2", model: "iPhone 14 Pro",
  osVersion: "17.1.2", serial: "F2LXK0ABCDEF", email: TESTER, registeredAt: AT, appleRegistration: null,
};

export const routeOutput = {
  "POST /api/upload/api-key/presign": presignRow("API key"),
  "POST /api/upload/api-key/complete": completeRow("API key"),
  "POST /api/upload/api-key/multipart": startMultipartRow("API key"),
  "POST /api/upload/api-key/multipart/parts": partsRow("API key"),
  "DELETE /api/upload/api-key/multipart": abortRow("API key"),
  "POST /api/projects/{projectId}/uploads": presignRow("dashboard"),
  "POST /api/projects/{projectId}/uploads/multipart": startMultipartRow("dashboard"),
  "POST /api/projects/{projectId}/uploads/multipart/parts": partsRow("dashboard"),
  "DELETE /api/projects/{projectId}/uploads/multipart": abortRow("dashboard"),
  "POST /api/projects/{projectId}/uploads/complete": completeRow("dashboard"),
  "GET /download/{userKey}": download,
  "HEAD /download/{userKey}": SAME_AS_GET,
  "GET /share/{userKey}": sharePage,
  "HEAD /share/{userKey}": SAME_AS_GET,
  "POST /share/{userKey}": {
    summary: "The share page's password form (form-encoded `password=…`)",
    answers: [
      { status: 303, description: "Right: back to the page with the link's cookie (12 h)", headers: ["Location", "Set-Cookie"] },
      html("Wrong password: the form again", 401),
    ],
    errors: { 410: linkErrors[410] },
  },
  "GET /share/{userKey}/manifest.plist": { ...manifest("share link"), errors: linkErrors },
  "HEAD /share/{userKey}/manifest.plist": SAME_AS_GET,
  "GET /share/{userKey}/qr.svg": { summary: "The share URL as a QR code", answers: [{ status: 200, description: "SVG", media: { type: "image/svg+xml" } }], errors: { 410: linkErrors[410] } },
  "HEAD /share/{userKey}/qr.svg": SAME_AS_GET,
  "GET /share/{userKey}/icon.png": { ...icon("share link"), errors: { 410: linkErrors[410] } },
  "HEAD /share/{userKey}/icon.png": SAME_AS_GET,
  "POST /api/account/sign-up": {
    summary: "Sign up; a verification mail follows",
    request: { email: "dev@example.com", password: "correct horse battery staple" },
    answers: [ok(A.MessageAnswer, { message: "Check your mail to verify your address" }, "Accepted (the same for a taken address)", 202)],
  },
  "POST /api/account/verify-email": {
    summary: "Verify the address with the mailed token",
    request: { token: "Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb" },
    answers: [ok(A.MessageAnswer, { message: "Email verified" })],
    errors: { 400: ["invalid_token"] },
  },
  "POST /api/account/resend-verification": {
    summary: "Send the verification mail again",
    request: { email: "dev@example.com" },
    answers: [ok(A.MessageAnswer, { message: "If the address needs verifying, a mail is on its way" }, "Accepted", 202)],
  },
  "POST /api/session": {
    summary: "Sign in",
    request: { email: "dev@example.com", password: "correct horse battery staple" },
    answers: [{ ...ok(A.SignInAnswer, { account: { userId: USER, email: "dev@example.com", emailVerified: true, createdAt: AT } }), headers: ["Set-Cookie"] }],
    errors: { 401: ["invalid_credentials"], 403: ["email_not_verified"] },
  },
  "DELETE /api/session": { summary: "Sign out (clears the cookie)", answers: [{ status: 204, description: "Signed out", headers: ["Set-Cookie"] }] },
  "GET /api/account": { summary: "The signed-in account", answers: [ok(A.Account, { userId: USER, email: "dev@example.com", emailVerified: true, displayName: "Dana", createdAt: AT })] },
  "PUT /api/account/profile": {
    summary: "Change the display name and organization",
    request: { displayName: "Dana", organization: "Example Inc." },
    answers: [ok(A.Account, { userId: USER, email: "dev@example.com", emailVerified: true, displayName: "Dana", organization: "Example Inc.", createdAt: AT })],
  },
  "POST /api/account/password": {
    summary: "Change the password (other sessions end)",
    request: { currentPassword: "correct horse battery staple", newPassword: "another long passphrase here" },
    answers: [noContent()],
    errors: { 401: ["invalid_credentials"] },
  },
  "POST /api/account/password-reset": {
    summary: "Mail a password reset link",
    request: { email: "dev@example.com" },
    answers: [ok(A.MessageAnswer, { message: "If the address has an account, a mail is on its way" }, "Accepted (the same for every address)", 202)],
  },
  "POST /api/account/password-reset/confirm": {
    summary: "Set a new password with the mailed token (every session ends)",
    request: { token: "Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb", newPassword: "another long passphrase here" },
    answers: [noContent()],
    errors: { 400: ["invalid_token"] },
  },
  "GET /api/account/sessions": {
    summary: "The account's sessions",
    answers: [ok(A.Sessions, { items: [{ sessionId: "ses_3Jd8s0LqWm", current: true, createdAt: AT, lastSeenAt: AT, userAgent: "Firefox on macOS", ip: "203.0.113.7" }] })],
  },
  "DELETE /api/account/sessions": { summary: "End every other session", answers: [noContent()] },
  "DELETE /api/account/sessions/{sessionId}": { summary: "End one session", answers: [noContent()] },
  "POST /api/projects": {
    summary: "Create a project",
    request: { name: "Demo app", color: "blue", workspaceId: WS },
    answers: [ok(A.Project, ex.project, "Created", 201)],
    errors: { 409: ["already_exists", "limit_reached"] },
  },
  "GET /api/projects": { summary: "A workspace's projects", answers: [ok(A.ProjectPage, { items: [ex.project], nextCursor: null })] },
  "GET /api/projects/{projectId}": { summary: "A project", answers: [ok(A.Project, ex.project)] },
  "PATCH /api/projects/{projectId}": {
    summary: "Rename or recolor a project",
    request: { name: "Demo app", color: "green" },
    answers: [ok(A.Project, { ...ex.project, color: "green", colorHex: "#16a34a" })],
    errors: { 409: ["already_exists"] },
  },
  "DELETE /api/projects/{projectId}": {
    summary: "Delete a project with its builds, keys and links",
    request: { confirmName: "Demo app" },
    answers: [noContent("Deleted"), ok(A.Deleting, { status: "deleting" }, "The rest is purged in the background", 202)],
  },
  "GET /api/projects/{projectId}/files": { summary: "A project's builds, newest first", answers: [ok(A.FilePage, { items: [{ ...ex.file, share: ex.linkSummary }], nextCursor: null })] },
  "DELETE /api/account": {
    summary: "Delete the account",
    request: { password: "correct horse battery staple" },
    answers: [{ status: 204, description: "Deleted", headers: ["Set-Cookie"] }, { ...ok(A.Deleting, { status: "deleting" }, "Projects are purged in the background", 202), headers: ["Set-Cookie"] }],
    errors: { 401: ["invalid_credentials"] },
  },
  "POST /api/keys": {
    summary: "Create an API key (the secret is shown once)",
    request: { name: "CI", projectId: PROJECT },
    answers: [ok(A.CreatedKey, { ...ex.key, clientSecret: "hgs_Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0z" }, "Created", 201)],
    errors: { 409: ["limit_reached"] },
  },
  "GET /api/keys": { summary: "A workspace's API keys", answers: [ok(A.KeyPage, { items: [ex.key], nextCursor: null })] },
  "DELETE /api/keys/{clientId}": { summary: "Revoke an API key", answers: [noContent("Revoked")] },
  "POST /api/keys/{clientId}/regenerate": {
    summary: "Give a key a new secret",
    answers: [ok(A.RegeneratedKey, { clientId: KEY, clientSecret: "hgs_Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0z" })],
  },
  "GET /api/keys/{clientId}/usage": {
    summary: "A key's usage over 30 UTC days",
    answers: [
      ok(A.KeyUsage, {
        clientId: KEY, from: "2026-10-22", to: "2026-11-20",
        days: [{ day: "2026-11-20", accepted: 12, rateLimited: 0, uploads: 3, bytes: 15728640 }],
        totals: { accepted: 12, rateLimited: 0, uploads: 3, bytes: 15728640 }, lastUsedAt: AT,
      }),
    ],
  },
  "GET /api/files": { summary: "The newest builds across a workspace's projects", answers: [ok(A.FilePage, { items: [{ ...ex.file, share: ex.linkSummary }], nextCursor: null })] },
  "GET /api/files/{fileId}": {
    summary: "A build with its metadata and share link",
    answers: [
      ok(A.FileDetail, {
        ...ex.file, share: ex.link, fileType: "application/vnd.android.package-archive", projectName: "Demo app", metadata: ex.metadata,
        expiresAt: null, releaseNotes: "Fixes the login crash", branch: "main", commit: "9fceb02", ciUrl: null,
      }),
    ],
  },
  "DELETE /api/files/{fileId}": { summary: "Delete a build (its links answer 410 file_removed)", answers: [noContent("Deleted")] },
  "GET /api/files/{fileId}/diff": { summary: "What changed since the previous build (or `?against=`)", answers: [ok(A.DiffAnswer, { fileId: FILE, diff: ex.diff })] },
  "PATCH /api/files/{fileId}/share": {
    summary: "Change a share link's settings",
    request: { enabled: true, expiresAt: "2030-01-01T00:00:00Z", maxDownloads: 100, password: null },
    answers: [ok(A.LinkView, { ...ex.link, expiresAt: "2030-01-01T00:00:00.000Z", maxDownloads: 100 })],
  },
  "POST /api/files/{fileId}/share/regenerate": {
    summary: "Give a build a new share link (the old one answers 410 link_replaced)",
    answers: [ok(A.RegeneratedLink, { userKey: "zX9cV7bN5mL3", shareUrl: `${SHARE}/share/zX9cV7bN5mL3`, downloadUrl: `${PUBLIC}/download/zX9cV7bN5mL3` })],
  },
  "GET /api/workspaces/{workspaceId}/audit": {
    summary: "A workspace's audit log, newest first",
    answers: [
      ok(A.AuditPage, {
        items: [{
          entryId: "aud_1", at: AT, action: "key.created", actor: { userId: USER, email: "dev@example.com", ip: "203.0.113.7", userAgentFamily: "Firefox" },
          target: { type: "key", id: KEY, label: "CI" }, details: { projectId: PROJECT },
        }],
        nextCursor: null,
      }),
    ],
  },
  "POST /api/workspaces/{workspaceId}/invitations": {
    summary: "Invite someone by mail",
    request: { email: "new@example.com", role: "developer" },
    answers: [ok(A.InvitationSent, { ...ex.invitation, mail: "sent" }, "Created", 201)],
    errors: { 409: ["already_member", "already_invited", "limit_reached"] },
  },
  "GET /api/workspaces/{workspaceId}/invitations": { summary: "The pending invitations", answers: [ok(A.Invitations, { items: [ex.invitation] })] },
  "DELETE /api/workspaces/{workspaceId}/invitations/{invitationId}": { summary: "Revoke an invitation", answers: [noContent("Revoked")] },
  "POST /api/workspaces/{workspaceId}/invitations/{invitationId}/resend": {
    summary: "Send an invitation again (a new link and expiry)",
    answers: [ok(A.InvitationSent, { ...ex.invitation, mail: "sent" })],
  },
  "POST /api/invitations/preview": {
    summary: "What an invitation link offers (before sign-in)",
    request: { token: "Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb" },
    answers: [ok(A.InvitationPreview, { workspaceName: "Mobile team", invitedBy: { email: "owner@example.com", displayName: "Olu" }, email: "new@example.com", role: "developer", expiresAt: LATER })],
    errors: { 410: ["invitation_gone"] },
  },
  "POST /api/invitations/accept": {
    summary: "Accept an invitation with the invited address's session",
    request: { token: "Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb" },
    answers: [ok(A.InvitationAccepted, { workspaceId: WS, role: "developer" })],
    errors: { 403: ["wrong_account"], 409: ["already_member", "limit_reached"], 410: ["invitation_gone"] },
  },
  "GET /api/workspaces": { summary: "The caller's workspaces", answers: [ok(A.Workspaces, { items: [ex.workspace] })] },
  "POST /api/workspaces": {
    summary: "Create a workspace (you its owner)",
    request: { name: "Mobile team" },
    answers: [ok(A.Workspace, ex.workspace, "Created", 201)],
    errors: { 409: ["limit_reached"] },
  },
  "GET /api/workspaces/{workspaceId}": { summary: "A workspace", answers: [ok(A.Workspace, ex.workspace)] },
  "PATCH /api/workspaces/{workspaceId}": { summary: "Rename a workspace", request: { name: "Apps team" }, answers: [ok(A.Workspace, { ...ex.workspace, name: "Apps team" })] },
  "DELETE /api/workspaces/{workspaceId}": {
    summary: "Delete a workspace with everything in it",
    request: { confirmName: "Mobile team" },
    answers: [ok(A.WorkspaceDeleted, { status: "deleted" })],
    errors: { 409: ["personal_workspace"] },
  },
  "GET /api/workspaces/{workspaceId}/members": { summary: "A workspace's members", answers: [ok(A.Members, { items: [ex.member] })] },
  "PATCH /api/workspaces/{workspaceId}/members/{userId}": {
    summary: "Change a member's role",
    request: { role: "admin" },
    answers: [ok(A.Member, { ...ex.member, role: "admin" })],
    errors: { 409: ["last_owner"] },
  },
  "DELETE /api/workspaces/{workspaceId}/members/{userId}": { summary: "Remove a member (your own id: leave)", answers: [noContent("Removed")], errors: { 409: ["last_owner"] } },
  "POST /api/workspaces/{workspaceId}/transfer": { summary: "Make a member the owner (you become admin)", request: { userId: USER }, answers: [ok(A.Workspace, { ...ex.workspace, role: "admin" })] },
  "GET /api/workspaces/{workspaceId}/groups": { summary: "A workspace's tester groups", answers: [ok(A.Groups, { items: [group] })] },
  "POST /api/workspaces/{workspaceId}/groups": {
    summary: "Create a tester group",
    request: { name: "QA" },
    answers: [ok(A.Group, { ...group, testerCount: 0, inviteLink: null }, "Created", 201)],
    errors: { 409: ["group_name_taken", "limit_reached"] },
  },
  "GET /api/groups/{groupId}": {
    summary: "A tester group with its testers",
    answers: [ok(A.GroupDetail, { ...group, testers: [{ email: TESTER, addedAt: AT, source: "added", lastInstall: ex.lastInstall }] })],
  },
  "PATCH /api/groups/{groupId}": { summary: "Rename a tester group", request: { name: "Beta" }, answers: [ok(A.Group, { ...group, name: "Beta" })], errors: { 409: ["group_name_taken"] } },
  "DELETE /api/groups/{groupId}": { summary: "Delete a tester group", answers: [noContent("Deleted")] },
  "POST /api/groups/{groupId}/testers": {
    summary: "Add testers by address",
    request: { emails: [TESTER, "Other@Example.com", "not an address"] },
    answers: [ok(A.TestersAdded, { ...group, testerCount: 4, added: ["other@example.com"], already: [TESTER], invalid: ["not an address"] })],
    errors: { 409: ["limit_reached"] },
  },
  "DELETE /api/groups/{groupId}/testers/{email}": { summary: "Remove a tester from a group", answers: [noContent("Removed")], errors: { 404: ["tester_not_found"] } },
  "POST /api/groups/{groupId}/invite-link": {
    summary: "Create the group's invite link (replacing a live one)",
    request: { expiresAt: null, maxMembers: 50 },
    answers: [ok(A.InviteLinkAnswer, ex.inviteLink, "Created", 201)],
  },
  "DELETE /api/groups/{groupId}/invite-link": { summary: "Revoke the group's invite link", answers: [noContent("Revoked")] },
  "GET /api/workspaces/{workspaceId}/testers": {
    summary: "Everyone in a workspace's tester groups",
    answers: [ok(A.WorkspaceTesters, { items: [{ email: TESTER, groups: [{ groupId: GROUP, name: "QA" }], lastInstall: null }] })],
  },
  "POST /api/tester/sign-in": {
    summary: "Mail a tester a sign-in link",
    request: { email: TESTER },
    answers: [ok(A.SentStatus, { status: "sent" }, "Accepted (the same for every address)", 202)],
  },
  "POST /api/tester/session": {
    summary: "Start a tester session from a sign-in or join link's token",
    request: { token: "Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb" },
    answers: [{ ...ok(A.TesterSession, { email: TESTER, expiresAt: LATER, joined: null }), headers: ["Set-Cookie"] }],
    errors: { 400: ["invalid_token"], 410: ["join_link_gone"] },
  },
  "GET /api/tester/session": { summary: "The tester session", answers: [ok(A.TesterSessionView, { email: TESTER, expiresAt: LATER })] },
  "DELETE /api/tester/session": { summary: "Sign the tester out", answers: [{ status: 204, description: "Signed out", headers: ["Set-Cookie"] }] },
  "GET /api/tester/apps": {
    summary: "The apps sent to this tester",
    answers: [ok(A.TesterApps, { items: [{ projectId: PROJECT, projectName: "Demo app", workspaceName: "Mobile team", latest: { ios: ex.testerBuild, android: null } }], enrollUrl: `${PUBLIC}/devices/enroll?return=/apps` })],
  },
  "GET /api/tester/apps/{projectId}": {
    summary: "The builds of one app sent to this tester",
    answers: [ok(A.TesterAppDetail, { projectId: PROJECT, projectName: "Demo app", workspaceName: "Mobile team", builds: [ex.testerBuild], enrollUrl: `${PUBLIC}/devices/enroll?return=/tester/apps/${PROJECT}` })],
  },
  "POST /api/tester/device": {
    summary: "Set the device cookie on the portal's host from the enroll result page's hand-off",
    description:
      "With a share host apart from the dashboard, the enroll result page (on the share host) sends a tester who came from the portal back with `#device=<hand-off>`; the portal posts it here and the answer sets `hangar_ios_device` on this host. A hand-off lives 5 minutes, works once, and only for the tester whose session started the enrollment.",
    request: { handoff: "v1.eyJoIjoiLi4uIiwieCI6MH0.c2lnbmF0dXJl" },
    answers: [{ status: 204, description: "The device cookie is set", headers: ["Set-Cookie"] }],
  },
  "POST /api/join/preview": {
    summary: "What an invite link offers",
    request: { token: "Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb" },
    answers: [ok(A.JoinPreview, { groupName: "QA", workspaceName: "Mobile team", expiresAt: null, open: true })],
    errors: { 410: ["join_link_gone"] },
  },
  "POST /api/join": {
    summary: "Ask to join a group through its invite link (a confirmation mail follows)",
    request: { token: "Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0zXcVb", email: TESTER },
    answers: [ok(A.SentStatus, { status: "sent" }, "Accepted (the same for every address)", 202)],
  },
  "GET /install/{token}": { summary: "A tester's personal install page of a build", answers: [html("The share page of the build, \"Sent to <address>\"")], errors: installErrors },
  "HEAD /install/{token}": SAME_AS_GET,
  "GET /install/{token}/download": { ...download, summary: "Download the build (counted for the tester)", errors: installErrors },
  "HEAD /install/{token}/download": SAME_AS_GET,
  "GET /install/{token}/manifest.plist": { ...manifest("personal install link"), errors: installErrors },
  "HEAD /install/{token}/manifest.plist": SAME_AS_GET,
  "GET /install/{token}/icon.png": { ...icon("personal install link"), errors: installErrors },
  "HEAD /install/{token}/icon.png": SAME_AS_GET,
  "GET /api/files/{fileId}/installs": {
    summary: "Who installed a build through their personal link",
    answers: [ok(A.FileInstalls, { items: [{ email: TESTER, firstAt: AT, lastAt: AT, downloads: 1, installStarts: 1, deviceFamily: "iPhone", via: "link" }] })],
  },
  "GET /api/workspaces/{workspaceId}/testers/{email}/installs": {
    summary: "The builds a tester used in a workspace",
    answers: [
      ok(A.TesterInstalls, {
        items: [{ fileId: FILE, projectId: PROJECT, projectName: "Demo app", platform: "ios", version: "1.4.0", build: "42", firstAt: AT, lastAt: AT, downloads: 1, installStarts: 1, deviceFamily: "iPhone", via: "portal" }],
      }),
    ],
  },
  "GET /apps/{slug}": { summary: "A project's public app page", answers: [html("The latest build per platform and the ones before"), html("The password form", 401)], errors: appPageErrors },
  "HEAD /apps/{slug}": SAME_AS_GET,
  "POST /apps/{slug}": {
    summary: "The app page's password form (form-encoded `password=…`)",
    answers: [{ status: 303, description: "Right: back with the page's cookie", headers: ["Location", "Set-Cookie"] }, html("Wrong password", 401)],
    errors: appPageErrors,
  },
  "GET /apps/{slug}/files/{fileId}/download": { ...download, summary: "Download a build of the app page", errors: appPageErrors },
  "HEAD /apps/{slug}/files/{fileId}/download": SAME_AS_GET,
  "GET /apps/{slug}/files/{fileId}/manifest.plist": { ...manifest("app page"), errors: appPageErrors },
  "HEAD /apps/{slug}/files/{fileId}/manifest.plist": SAME_AS_GET,
  "GET /apps/{slug}/files/{fileId}/icon.png": { ...icon("app page"), errors: appPageErrors },
  "HEAD /apps/{slug}/files/{fileId}/icon.png": SAME_AS_GET,
  "GET /api/projects/{projectId}/app-page": { summary: "A project's app page settings", answers: [ok(A.AppPage, { enabled: true, url: `${SHARE}/apps/demo-Zx81Kq`, passwordProtected: false })] },
  "PUT /api/projects/{projectId}/app-page": {
    summary: "Turn the app page on or off, set its password, give it a new address",
    request: { enabled: true, password: null },
    answers: [ok(A.AppPage, { enabled: true, url: `${SHARE}/apps/demo-Zx81Kq`, passwordProtected: false })],
  },
  "GET /api/projects/{projectId}/update-tokens": {
    summary: "A project's update tokens",
    answers: [ok(A.UpdateTokens, { items: [{ tokenId: "utk_7Yh3Lk2Qm9Rt4Zx1", name: "iOS beta", createdAt: AT, lastUsedAt: null }] })],
  },
  "POST /api/projects/{projectId}/update-tokens": {
    summary: "Create an update token (shown once)",
    request: { name: "iOS beta" },
    answers: [ok(A.CreatedUpdateToken, { tokenId: "utk_7Yh3Lk2Qm9Rt4Zx1", name: "iOS beta", createdAt: AT, token: "hut_Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0z" }, "Created", 201)],
    errors: { 409: ["limit_reached"] },
  },
  "DELETE /api/projects/{projectId}/update-tokens/{tokenId}": { summary: "Revoke an update token", answers: [noContent("Revoked")] },
  "GET /api/updates/latest": {
    summary: "The in-app update check",
    answers: [
      ok(A.LatestUpdate, { fileId: FILE, version: "1.4.0", build: "42", releaseNotes: "Fixes the login crash", installUrl: `${SHARE}/share/${USER_KEY}`, uploadedAt: AT }, "A newer build"),
      noContent("No newer build"),
    ],
  },
  "POST /api/files/{fileId}/distribute": {
    summary: "Send a build to testers (the mails go out from a queue)",
    request: { groups: ["QA"], testers: [TESTER], notify: true, message: "Please try the new login" },
    answers: [ok(A.DistributionAnswer, { distributionId: "dst_7Yh3Lk2Qm9Rt4Zx1", recipients: 3, queued: 3, capped: 0 }, "Accepted", 202)],
    errors: { 404: ["group_not_found"], 409: ["build_not_completed"] },
  },
  "GET /api/files/{fileId}/distributions": {
    summary: "The distributions of a build and their recipients",
    answers: [
      ok(A.Distributions, {
        items: [{ distributionId: "dst_7Yh3Lk2Qm9Rt4Zx1", createdAt: AT, createdBy: { userId: USER, email: "dev@example.com" }, groups: [{ groupId: GROUP, name: "QA" }], testers: [], message: null, notify: true, recipients: 1 }],
        recipients: [{ email: TESTER, status: "sent", sentAt: AT }],
      }),
    ],
  },
  "GET /api/projects/{projectId}/default-groups": { summary: "The groups every completed upload is sent to", answers: [ok(A.DefaultGroups, { groupIds: [GROUP] })] },
  "PUT /api/projects/{projectId}/default-groups": {
    summary: "Set the groups every completed upload is sent to",
    request: { groupIds: ["QA"] },
    answers: [ok(A.DefaultGroups, { groupIds: [GROUP] })],
    errors: { 404: ["group_not_found"] },
  },
  "GET /unsubscribe/{token}": { summary: "The build mail's unsubscribe page", answers: [html("A page with the unsubscribe button")] },
  "POST /unsubscribe/{token}": { summary: "Unsubscribe from build mail (RFC 8058 one-click)", answers: [html("\"You will no longer get mail about <app>\"")] },
  "GET /unsubscribe/expiry/{token}": { summary: "The expiry-warning mail's unsubscribe page", answers: [html("A page with the unsubscribe button")] },
  "POST /unsubscribe/expiry/{token}": { summary: "Stop expiry-warning mail, in every workspace (RFC 8058 one-click)", answers: [html("\"You will no longer get expiry warnings\"")] },
  "GET /api/workspaces/{workspaceId}/webhooks": { summary: "A workspace's webhooks", answers: [ok(A.Webhooks, { items: [ex.webhook] })] },
  "POST /api/workspaces/{workspaceId}/webhooks": {
    summary: "Add a webhook, Slack or Teams endpoint (the secret is shown once)",
    request: { type: "webhook", url: "https://ci.example.com/hangar", description: "CI bot", events: ["build.completed"] },
    answers: [ok(A.WebhookWithSecret, { ...ex.webhook, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }, "Created", 201)],
    errors: { 409: ["limit_reached"] },
  },
  "GET /api/webhooks/{webhookId}": { summary: "A webhook", answers: [ok(A.Webhook, ex.webhook)] },
  "PATCH /api/webhooks/{webhookId}": { summary: "Change a webhook", request: { enabled: false }, answers: [ok(A.Webhook, { ...ex.webhook, enabled: false, disabledReason: "manual" })] },
  "DELETE /api/webhooks/{webhookId}": { summary: "Delete a webhook", answers: [noContent("Deleted")] },
  "POST /api/webhooks/{webhookId}/rotate-secret": {
    summary: "Rotate a webhook's secret (the old one signs for 24 h more)",
    answers: [ok(A.WebhookWithSecret, { ...ex.webhook, previousSecretExpiresAt: LATER, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" })],
  },
  "POST /api/webhooks/{webhookId}/test": {
    summary: "Send an example event (test: true)",
    request: { event: "build.completed" },
    answers: [ok(A.Delivery, { ...ex.delivery, state: "pending", nextAttemptAt: AT, attempts: [] }, "Accepted", 202)],
    errors: { 409: ["webhook_disabled"] },
  },
  "GET /api/webhooks/{webhookId}/deliveries": { summary: "A webhook's delivery log, newest first", answers: [ok(A.DeliveryPage, { items: [ex.delivery], nextCursor: null })] },
  "POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": {
    summary: "Deliver again now (same webhook-id and body)",
    answers: [ok(A.Delivery, { ...ex.delivery, state: "pending", nextAttemptAt: AT }, "Accepted", 202)],
  },
  "GET /cli/{fileName}": {
    summary: "The CLI of this deployment as an npm tarball",
    answers: [
      { status: 200, description: "hangar-cli.tgz or hangar-cli-<version>.tgz", media: { type: "application/gzip", binary: true }, headers: ["Cache-Control", "ETag", "Content-Disposition", "X-Hangar-Cli-Version"] },
      { status: 304, description: "Not modified (If-None-Match)", headers: ["ETag"] },
    ],
  },
  "HEAD /cli/{fileName}": SAME_AS_GET,
  "GET /api/openapi.json": {
    summary: "This document: the OpenAPI 3.1 description of every route",
    answers: [
      { status: 200, description: "The document (also committed as docs/openapi.json)", media: { type: "application/json" }, headers: ["Cache-Control", "ETag"] },
      { status: 304, description: "Not modified (If-None-Match)", headers: ["ETag"] },
    ],
  },
  // devsrv (issue 22): enrollment on the share host, the dashboard's device API.
  "GET /devices/enroll": {
    summary: "The enrollment profile that asks an iPhone for its UDID",
    description: "`?return=` is the page to come back to (`/share/{userKey}`, `/install/{token}`, `/apps/{slug}`, `/apps`, `/tester/apps/{projectId}`); it decides the workspaces the device is recorded in.",
    answers: [{ status: 200, description: "A Profile Service payload (signed when the stage has a certificate)", media: { type: "application/x-apple-aspen-config", binary: true } }],
    errors: { 400: ["invalid_request"] },
  },
  "POST /devices/enroll/callback": {
    summary: "The device's signed answer (CMS SignedData of a plist, ≤ 64 KB)",
    answers: [{ status: 301, description: "To `/devices/enrolled/<token>`", headers: ["Location"] }],
    errors: { 400: ["invalid_request"] },
  },
  "GET /devices/enrolled/{token}": {
    summary: "\"Registered: <name>, <model>, iOS <version>\" (sets the device cookie)",
    answers: [{ status: 200, description: "The page, with a button back", media: { type: "text/html" }, headers: ["Set-Cookie"] }],
  },
  "GET /api/workspaces/{workspaceId}/devices": {
    summary: "A workspace's registered devices, newest first",
    answers: [{ status: 200, description: "OK", json: A.Devices, example: { items: [device], appleRegistration: { enabled: false } } }],
  },
  "PATCH /api/devices/{deviceId}": {
    summary: "Rename a device",
    request: { name: "QA iPhone" },
    answers: [{ status: 200, description: "OK", json: A.Device, example: device }],
    errors: { 404: ["device_not_found"] },
  },
  "DELETE /api/devices/{deviceId}": { summary: "Remove a device", answers: [{ status: 204, description: "Removed" }], errors: { 404: ["device_not_found"] } },
  "GET /api/files/{fileId}/devices": {
    summary: "Which registered devices a build's profile includes",
    answers: [{ status: 200, description: "OK", json: A.FileDevices, example: { known: true, profileKind: "ad-hoc", included: [device], missing: [], unregistered: ["00008030-000A1B2C3D4E5F60"] } }],
  },
  "GET /api/workspaces/{workspaceId}/devices/export": {
    summary: "Devices in Apple's \"multiple devices\" format (`?fileId=&missing=true`: those a build's profile lacks)",
    answers: [{ status: 200, description: "`Device ID\tDevice Name\tDevice Platform` then one line per device", media: { type: "text/tab-separated-values" }, headers: ["Content-Disposition"] }],
  },
  // devdash (issue 22 item 4): App Store Connect registration.
  "POST /api/workspaces/{workspaceId}/devices/apple": {
    summary: "Register devices with App Store Connect",
    request: { deviceIds: [device.deviceId] },
    answers: [{ status: 200, description: "OK", json: A.AppleRegistration, example: { registered: [device.deviceId], already: [], failed: [] } }],
    errors: { 409: ["apple_not_configured"] },
  },
  // retention (issue 24 item 5).
  "GET /api/projects/{projectId}/retention/preview": {
    summary: "What the retention policy would remove now",
    description:
      "Without a query, the project's saved policy. With `keepLatest` and/or `maxAgeDays`, that candidate policy instead (an empty value does not apply; both empty: off, nothing removed), as the dashboard previews a policy before it is saved; `policy` is the one previewed.",
    answers: [
      {
        status: 200, description: "OK", json: A.RetentionPreview,
        example: {
          policy: { keepLatest: 10, maxAgeDays: null },
          items: [{ fileId: FILE, platform: "android", version: "1.0.0", build: "1", branch: "main", completedAt: AT, size: 5242880, reasons: ["over_keep_latest"] }],
          bytes: 5242880,
        },
      },
    ],
  },
  "PATCH /api/files/{fileId}": {
    summary: "Pin a build (retention keeps it) or unpin it",
    request: { pinned: true },
    answers: [
      {
        status: 200, description: "OK", json: A.FileDetail,
        example: {
          ...ex.file, pinned: true, share: ex.link, fileType: "application/vnd.android.package-archive", projectName: "Demo app", metadata: ex.metadata,
          expiresAt: null, releaseNotes: null, branch: null, commit: null, ciUrl: null,
        },
      },
    ],
  },
  // expiry (issue 24 item 4).
  "GET /api/workspaces/{workspaceId}/expiring": {
    summary: "Latest builds whose profile (30 days) or share link (1 day) expires soon",
    answers: [
      {
        status: 200, description: "OK", json: A.Expiring,
        example: { items: [{ fileId: FILE, projectId: PROJECT, projectName: "Demo app", platform: "ios", version: "1.4.0", build: "42", kind: "profile", expiresAt: LATER, daysLeft: 7 }] },
      },
    ],
  },
} as const satisfies Record<RouteKey, OutputRow>;

export function outputOf(key: string): OutputRow | undefined {
  return (routeOutput as Record<string, OutputRow>)[key];
}
