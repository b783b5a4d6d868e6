import { AppFileRef, AppPageSettings, AppSlugRef, CreateUpdateToken, LatestUpdateQuery, UpdateTokenRef } from "@hangar/core/app-pages-schema";
import { AppPageNotFoundError, UpdateTokenNotFoundError } from "@hangar/core/app-page-errors";
import type { RouteKeyOf } from "../routes";
import { api, dashboard, page, project, type RouteInput } from "./rows";

/** An app page's address and its files: a malformed one is the page's 404 (browsers get its page). */
const appPage = { params: AppSlugRef, notFound: () => new AppPageNotFoundError() } as const;
const appFile = { params: AppFileRef, notFound: () => new AppPageNotFoundError() } as const;
const updateToken = { params: UpdateTokenRef, notFound: () => new UpdateTokenNotFoundError() } as const;

/** The apps function's routes (routes.ts). */
export const input = {
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
} as const satisfies Record<RouteKeyOf<"apps">, RouteInput>;
