/**
 * What each route of routes.ts takes in, and how it faces its clients: its body, query and
 * path-parameter schemas (the very zod schemas core exports) and its kind. The middleware
 * (middleware/http-function.ts) parses every request with them before the handler runs, so a
 * handler receives typed input and a core use case a typed object: input is validated once, here.
 *
 * A table of its own, keyed by route key and type-checked to name every route exactly once
 * (`satisfies Record<RouteKey, RouteInput>`), rather than columns of routes.ts: routes.ts is read
 * by the stack at synth, by the local server and by the fallback function, none of which parses
 * a body; importing the schemas there would put zod and every use case's rules into the fallback's
 * cold start and the synth. Routes are still declared in routes.ts only; this table cannot add one.
 *
 * Kinds:
 * - `api`: called by programs (CI, the CLI) with JSON in and out;
 * - `dashboard`: called by the dashboard's pages with the session cookie: the same-origin guard
 *   (CSRF), the account API's security headers and the clearing of a refused session cookie;
 * - `page`: opened by people's browsers (share, download): the function may render its errors
 *   as pages (httpFunction's `errorPage`).
 *
 * A route with `{param}` segments names a params schema with exactly those keys (checked by
 * packages/functions/test/route-input.test.ts) and the error a malformed one answers: an id of a
 * shape this service never issues names nothing, so it is that resource's 404, never a 400.
 */
import {
  AbortMultipart,
  CreateKey,
  CreateProject,
  DeleteAccount,
  DeleteProject,
  DiffQuery,
  FileRef,
  KeyRef,
  PageQuery,
  PartUrls,
  Presign,
  ProjectRef,
  RetentionPreviewQuery,
  StartMultipart,
  UpdateFile,
  UpdateProject,
  WorkspacePageQuery,
  WorkspaceQuery,
  fileNotFound,
  keyNotFound,
  parseCompleteBody,
  projectNotFound,
  ChangeRole,
  CreateWorkspace,
  DeleteWorkspace,
  MemberRef,
  RenameWorkspace,
  TransferOwnership,
  WorkspaceRef,
  workspaceNotFound,
} from "@hangar/core";
import { AuditQuery, AuditWorkspaceRef } from "@hangar/core";
import { ChangePassword, EmailOnly, ProfileInput, ResetConfirm, SessionRef, SignIn, SignUp, TokenOnly } from "@hangar/core/accounts";
import { SessionNotFoundError } from "@hangar/core/account-errors";
import { CreateInvitation, InvitationRef, InvitationTokenInput, invitationNotFound } from "@hangar/core/invitations";
import { linkNotFound, ShareKeyRef, ShareSettings } from "@hangar/core/links";
import { AddTesters, CreateGroup, CreateInviteLink, GroupRef, GroupTesterRef, RenameGroup } from "@hangar/core/tester-groups-schema";
import { GroupNotFoundError } from "@hangar/core/tester-group-errors";
import { appNotFound, JoinLinkInput, JoinRequest, TesterSignIn, TesterTokenInput } from "@hangar/core/tester-access";
import { UnknownLinkError } from "@hangar/core/link-errors";
import { InstallTokenRef, TesterRef, testerNotFound } from "@hangar/core/installs";
import { AppFileRef, AppPageSettings, AppSlugRef, CreateUpdateToken, LatestUpdateQuery, UpdateTokenRef } from "@hangar/core/app-pages-schema";
import { AppPageNotFoundError, UpdateTokenNotFoundError } from "@hangar/core/app-page-errors";
import { DefaultGroupsInput, DistributeInput, UnsubscribeRef } from "@hangar/core/distribution-schema";
import { CreateWebhook, DeliveriesQuery, DeliveryRef, TestWebhook, UpdateWebhook, WebhookRef } from "@hangar/core/webhooks-schema";
import { deliveryNotFound, webhookNotFound } from "@hangar/core/webhook-errors";
import { DeviceHandoffInput, DeviceRef, DevicesExportQuery, EnrolledRef, EnrollQuery, RenameDevice } from "@hangar/core/devices-schema";
import { deviceNotFound, enrollmentNotFound } from "@hangar/core/devices";
import { RegisterWithApple } from "@hangar/core/devices-apple-schema";
import * as z from "zod/mini";
import { RouteNotFoundError } from "./middleware/http-errors";
import type { RouteKey } from "./routes";

export type RouteKind = "api" | "dashboard" | "page";

/** A zod schema, or a function that parses with the right one of several (complete's two bodies). */
type BodyParser = z.ZodMiniType | ((raw: unknown) => unknown);

export interface RouteInput {
  kind: RouteKind;
  /** The JSON body's schema; a route without one reads no body (or reads its own, as the share form). */
  body?: BodyParser;
  /** The body's bound in bytes when not the default 64 KiB (middleware/json-body.ts). */
  maxBodyBytes?: number;
  query?: z.ZodMiniType;
  params?: z.ZodMiniObject;
  /** What a params value that fails its schema answers: the resource's own 404. */
  notFound?: () => Error;
}

const api = <const I extends Omit<RouteInput, "kind">>(input: I) => ({ kind: "api" as const, ...input });
const dashboard = <const I extends Omit<RouteInput, "kind">>(input: I) => ({ kind: "dashboard" as const, ...input });
const page = <const I extends Omit<RouteInput, "kind">>(input: I) => ({ kind: "page" as const, ...input });

/** Share and download keys: JSON clients read this 404; browsers get the function's page for it. */
const shareKey = { params: ShareKeyRef, notFound: () => new UnknownLinkError() } as const;

/** `/cli/{fileName}`: any file name (the handler serves exactly two); bounded like one. */
const CliFileRef = z.object({ fileName: z.string().check(z.maxLength(255, "is not a file name")) });
const cliFile = {
  params: CliFileRef,
  notFound: () => new RouteNotFoundError("cli_not_found", "This service serves hangar-cli.tgz and hangar-cli-<version>.tgz only"),
} as const;

const project = { params: ProjectRef, notFound: projectNotFound } as const;
/** An app page's address and its files: a malformed one is the page's 404 (browsers get its page). */
const appPage = { params: AppSlugRef, notFound: () => new AppPageNotFoundError() } as const;
const appFile = { params: AppFileRef, notFound: () => new AppPageNotFoundError() } as const;
const updateToken = { params: UpdateTokenRef, notFound: () => new UpdateTokenNotFoundError() } as const;
const key = { params: KeyRef, notFound: keyNotFound } as const;
const file = { params: FileRef, notFound: fileNotFound } as const;
const sharedFile = { params: FileRef, notFound: linkNotFound } as const;
const workspace = { params: WorkspaceRef, notFound: workspaceNotFound } as const;
// A malformed member id names no member; a malformed workspace id, no workspace: both are 404s.
const member = { params: MemberRef, notFound: workspaceNotFound } as const;
const invitation = { params: InvitationRef, notFound: invitationNotFound } as const;
// A malformed group id names no group; the tester's address is any bounded text (the use case normalizes it).
const group = { params: GroupRef, notFound: () => new GroupNotFoundError() } as const;
const groupTester = { params: GroupTesterRef, notFound: () => new GroupNotFoundError() } as const;
// Personal install links: a malformed token names nothing (the share pages' 404, as a page for browsers).
const installToken = { params: InstallTokenRef, notFound: () => new UnknownLinkError() } as const;
const tester = { params: TesterRef, notFound: testerNotFound } as const;
const webhook = { params: WebhookRef, notFound: webhookNotFound } as const;
const delivery = { params: DeliveryRef, notFound: deliveryNotFound } as const;
const device = { params: DeviceRef, notFound: deviceNotFound } as const;

export const routeInput = {
  "POST /api/upload/api-key/presign": api({ body: Presign }),
  // 2 MiB: a multipart complete lists up to 10,000 parts (~100 bytes each); the spec's body is far smaller.
  "POST /api/upload/api-key/complete": api({ body: parseCompleteBody, maxBodyBytes: 2 * 1024 * 1024 }),
  "POST /api/upload/api-key/multipart": api({ body: StartMultipart }),
  "POST /api/upload/api-key/multipart/parts": api({ body: PartUrls }),
  "DELETE /api/upload/api-key/multipart": api({ body: AbortMultipart }),
  "POST /api/projects/{projectId}/uploads": dashboard({ ...project, body: Presign }),
  "POST /api/projects/{projectId}/uploads/multipart": dashboard({ ...project, body: StartMultipart }),
  "POST /api/projects/{projectId}/uploads/multipart/parts": dashboard({ ...project, body: PartUrls }),
  "DELETE /api/projects/{projectId}/uploads/multipart": dashboard({ ...project, body: AbortMultipart }),
  "POST /api/projects/{projectId}/uploads/complete": dashboard({ ...project, body: parseCompleteBody, maxBodyBytes: 2 * 1024 * 1024 }),
  "GET /download/{userKey}": page(shareKey),
  "HEAD /download/{userKey}": page(shareKey),
  "GET /share/{userKey}": page(shareKey),
  "HEAD /share/{userKey}": page(shareKey),
  // The password form is form-encoded, not JSON: the share function reads it itself.
  "POST /share/{userKey}": page(shareKey),
  "GET /share/{userKey}/manifest.plist": page(shareKey),
  "HEAD /share/{userKey}/manifest.plist": page(shareKey),
  "GET /share/{userKey}/qr.svg": page(shareKey),
  "HEAD /share/{userKey}/qr.svg": page(shareKey),
  "GET /share/{userKey}/icon.png": page(shareKey),
  "HEAD /share/{userKey}/icon.png": page(shareKey),
  "POST /api/account/sign-up": dashboard({ body: SignUp }),
  "POST /api/account/verify-email": dashboard({ body: TokenOnly }),
  "POST /api/account/resend-verification": dashboard({ body: EmailOnly }),
  "POST /api/session": dashboard({ body: SignIn }),
  "DELETE /api/session": dashboard({}),
  "GET /api/account": dashboard({}),
  "PUT /api/account/profile": dashboard({ body: ProfileInput }),
  "POST /api/account/password": dashboard({ body: ChangePassword }),
  "POST /api/account/password-reset": dashboard({ body: EmailOnly }),
  "POST /api/account/password-reset/confirm": dashboard({ body: ResetConfirm }),
  "GET /api/account/sessions": dashboard({}),
  "DELETE /api/account/sessions": dashboard({}),
  "DELETE /api/account/sessions/{sessionId}": dashboard({ params: SessionRef, notFound: () => new SessionNotFoundError() }),
  "POST /api/projects": dashboard({ body: CreateProject }),
  "GET /api/projects": dashboard({ query: WorkspaceQuery }),
  "GET /api/projects/{projectId}": dashboard(project),
  "PATCH /api/projects/{projectId}": dashboard({ ...project, body: UpdateProject }),
  "DELETE /api/projects/{projectId}": dashboard({ ...project, body: DeleteProject }),
  "GET /api/projects/{projectId}/files": dashboard({ ...project, query: PageQuery }),
  "DELETE /api/account": dashboard({ body: DeleteAccount }),
  "POST /api/keys": dashboard({ body: CreateKey }),
  "GET /api/keys": dashboard({ query: WorkspaceQuery }),
  "DELETE /api/keys/{clientId}": dashboard(key),
  "POST /api/keys/{clientId}/regenerate": dashboard(key),
  "GET /api/keys/{clientId}/usage": dashboard(key),
  "GET /api/files": dashboard({ query: WorkspacePageQuery }),
  "GET /api/files/{fileId}": dashboard(file),
  "DELETE /api/files/{fileId}": dashboard(file),
  "GET /api/files/{fileId}/diff": dashboard({ ...file, query: DiffQuery }),
  "GET /api/projects/{projectId}/retention/preview": dashboard({ ...project, query: RetentionPreviewQuery }),
  "PATCH /api/files/{fileId}": dashboard({ ...file, body: UpdateFile }),
  "PATCH /api/files/{fileId}/share": dashboard({ ...sharedFile, body: ShareSettings }),
  "POST /api/files/{fileId}/share/regenerate": dashboard(sharedFile),
  "GET /api/workspaces/{workspaceId}/audit": dashboard({ params: AuditWorkspaceRef, notFound: workspaceNotFound, query: AuditQuery }),
  "GET /api/workspaces": dashboard({}),
  "POST /api/workspaces": dashboard({ body: CreateWorkspace }),
  "GET /api/workspaces/{workspaceId}": dashboard(workspace),
  "PATCH /api/workspaces/{workspaceId}": dashboard({ ...workspace, body: RenameWorkspace }),
  "DELETE /api/workspaces/{workspaceId}": dashboard({ ...workspace, body: DeleteWorkspace }),
  "GET /api/workspaces/{workspaceId}/members": dashboard(workspace),
  "PATCH /api/workspaces/{workspaceId}/members/{userId}": dashboard({ ...member, body: ChangeRole }),
  "DELETE /api/workspaces/{workspaceId}/members/{userId}": dashboard(member),
  "POST /api/workspaces/{workspaceId}/transfer": dashboard({ ...workspace, body: TransferOwnership }),
  "POST /api/workspaces/{workspaceId}/invitations": dashboard({ ...workspace, body: CreateInvitation }),
  "GET /api/workspaces/{workspaceId}/invitations": dashboard(workspace),
  "DELETE /api/workspaces/{workspaceId}/invitations/{invitationId}": dashboard(invitation),
  "POST /api/workspaces/{workspaceId}/invitations/{invitationId}/resend": dashboard(invitation),
  "POST /api/invitations/preview": dashboard({ body: InvitationTokenInput }),
  "POST /api/invitations/accept": dashboard({ body: InvitationTokenInput }),
  "GET /api/workspaces/{workspaceId}/groups": dashboard(workspace),
  "POST /api/workspaces/{workspaceId}/groups": dashboard({ ...workspace, body: CreateGroup }),
  "GET /api/groups/{groupId}": dashboard(group),
  "PATCH /api/groups/{groupId}": dashboard({ ...group, body: RenameGroup }),
  "DELETE /api/groups/{groupId}": dashboard(group),
  // 1,000 addresses of up to 254 characters, as JSON: up to ~260 KB, over the default 64 KiB.
  "POST /api/groups/{groupId}/testers": dashboard({ ...group, body: AddTesters, maxBodyBytes: 512 * 1024 }),
  "DELETE /api/groups/{groupId}/testers/{email}": dashboard(groupTester),
  "POST /api/groups/{groupId}/invite-link": dashboard({ ...group, body: CreateInviteLink }),
  "DELETE /api/groups/{groupId}/invite-link": dashboard(group),
  "GET /api/workspaces/{workspaceId}/testers": dashboard(workspace),
  // Tester access: called by the tester pages of the web app, so of the dashboard kind (same-origin guard, headers).
  "POST /api/tester/sign-in": dashboard({ body: TesterSignIn }),
  "POST /api/tester/session": dashboard({ body: TesterTokenInput }),
  "GET /api/tester/session": dashboard({}),
  "DELETE /api/tester/session": dashboard({}),
  "GET /api/tester/apps": dashboard({}),
  "GET /api/tester/apps/{projectId}": dashboard({ params: ProjectRef, notFound: appNotFound }),
  "POST /api/tester/device": dashboard({ body: DeviceHandoffInput }),
  "POST /api/join/preview": dashboard({ body: JoinLinkInput }),
  "POST /api/join": dashboard({ body: JoinRequest }),
  "GET /install/{token}": page(installToken),
  "HEAD /install/{token}": page(installToken),
  "GET /install/{token}/download": page(installToken),
  "HEAD /install/{token}/download": page(installToken),
  "GET /install/{token}/manifest.plist": page(installToken),
  "HEAD /install/{token}/manifest.plist": page(installToken),
  "GET /install/{token}/icon.png": page(installToken),
  "HEAD /install/{token}/icon.png": page(installToken),
  "GET /api/files/{fileId}/installs": dashboard(file),
  "GET /api/workspaces/{workspaceId}/testers/{email}/installs": dashboard(tester),
  // Issue 20, apps (docs/testers.md): the page's password form is form-encoded, read by the function itself.
  "GET /apps/{slug}": page(appPage),
  "HEAD /apps/{slug}": page(appPage),
  "POST /apps/{slug}": page(appPage),
  "GET /apps/{slug}/files/{fileId}/download": page(appFile),
  "HEAD /apps/{slug}/files/{fileId}/download": page(appFile),
  "GET /apps/{slug}/files/{fileId}/manifest.plist": page(appFile),
  "HEAD /apps/{slug}/files/{fileId}/manifest.plist": page(appFile),
  "GET /apps/{slug}/files/{fileId}/icon.png": page(appFile),
  "HEAD /apps/{slug}/files/{fileId}/icon.png": page(appFile),
  "GET /api/projects/{projectId}/app-page": dashboard(project),
  "PUT /api/projects/{projectId}/app-page": dashboard({ ...project, body: AppPageSettings }),
  "GET /api/projects/{projectId}/update-tokens": dashboard(project),
  "POST /api/projects/{projectId}/update-tokens": dashboard({ ...project, body: CreateUpdateToken }),
  // A malformed project id in a token's path names no token of it: the token's 404.
  "DELETE /api/projects/{projectId}/update-tokens/{tokenId}": dashboard(updateToken),
  "GET /api/updates/latest": api({ query: LatestUpdateQuery }),
  // Issue 20, distribute (docs/testers.md). The unsubscribe token is checked by its MAC in the use case.
  "POST /api/files/{fileId}/distribute": dashboard({ ...file, body: DistributeInput }),
  "GET /api/files/{fileId}/distributions": dashboard(file),
  "GET /api/projects/{projectId}/default-groups": dashboard(project),
  "PUT /api/projects/{projectId}/default-groups": dashboard({ ...project, body: DefaultGroupsInput }),
  "GET /unsubscribe/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
  "POST /unsubscribe/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
  // Issue 24 item 4, expiry warnings (docs/release-safety.md). The opt-out token is checked by its MAC in the use case.
  "GET /api/workspaces/{workspaceId}/expiring": dashboard(workspace),
  "GET /unsubscribe/expiry/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
  "POST /unsubscribe/expiry/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
  "GET /api/workspaces/{workspaceId}/webhooks": dashboard(workspace),
  "POST /api/workspaces/{workspaceId}/webhooks": dashboard({ ...workspace, body: CreateWebhook }),
  "GET /api/webhooks/{webhookId}": dashboard(webhook),
  "PATCH /api/webhooks/{webhookId}": dashboard({ ...webhook, body: UpdateWebhook }),
  "DELETE /api/webhooks/{webhookId}": dashboard(webhook),
  "POST /api/webhooks/{webhookId}/rotate-secret": dashboard(webhook),
  // `{}` sends a build.completed example; `{"event": …}` names another.
  "POST /api/webhooks/{webhookId}/test": dashboard({ ...webhook, body: TestWebhook }),
  "GET /api/webhooks/{webhookId}/deliveries": dashboard({ ...webhook, query: DeliveriesQuery }),
  "POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": dashboard(delivery),
  // iOS devices (docs/devices.md). The callback's body is CMS, not JSON: the handler reads it (≤ 64 KB, checked in core).
  "GET /devices/enroll": page({ query: EnrollQuery }),
  "POST /devices/enroll/callback": api({}),
  "GET /devices/enrolled/{token}": page({ params: EnrolledRef, notFound: enrollmentNotFound }),
  "GET /api/workspaces/{workspaceId}/devices": dashboard(workspace),
  "GET /api/workspaces/{workspaceId}/devices/export": dashboard({ ...workspace, query: DevicesExportQuery }),
  "PATCH /api/devices/{deviceId}": dashboard({ ...device, body: RenameDevice }),
  "DELETE /api/devices/{deviceId}": dashboard(device),
  "GET /api/files/{fileId}/devices": dashboard(file),
  // Register with Apple (devdash, docs/devices.md).
  "POST /api/workspaces/{workspaceId}/devices/apple": dashboard({ ...workspace, body: RegisterWithApple }),
  "GET /cli/{fileName}": api(cliFile),
  "HEAD /cli/{fileName}": api(cliFile),
  "GET /api/openapi.json": api({}),
} as const satisfies Record<RouteKey, RouteInput>;

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : S extends (raw: unknown) => infer T ? T : never;
type Row<K extends RouteKey> = (typeof routeInput)[K];

/** The parsed body, query and path parameters of route K (undefined where it declares none). */
export type BodyOf<K extends RouteKey> = Row<K> extends { body: infer S } ? Parsed<S> : undefined;
export type QueryOf<K extends RouteKey> = Row<K> extends { query: infer S } ? Parsed<S> : undefined;
export type ParamsOf<K extends RouteKey> = Row<K> extends { params: infer S } ? Parsed<S> : undefined;

export function inputOf(key: string): RouteInput | undefined {
  return (routeInput as Record<string, RouteInput>)[key];
}
