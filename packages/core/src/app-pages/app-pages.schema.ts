import * as z from "zod/mini";
import { KeyName, PROJECT_ID } from "../dashboard/dashboard.schema";
import { LinkPassword } from "../links/link.schema";

/**
 * Issue 20 (docs/testers.md, "The app page and the update check"): the request schemas and answer
 * types of the public app page and the update tokens. Browser-safe (zod/mini and types only): the
 * web app imports them through `@hangar/core/app-pages-schema`.
 */

/** PUT /api/projects/{projectId}/app-page. The password is a share link's (link.schema.ts). */
export const AppPageSettings = z.strictObject({
  enabled: z.boolean({ error: "must be true or false" }),
  /** Omitted keeps the current one; null removes it. */
  password: z.optional(z.nullable(LinkPassword)),
  /** A new address: the old one answers 404 from the next request on. */
  regenerate: z.optional(z.boolean({ error: "must be true or false" })),
});
export type AppPageSettings = z.infer<typeof AppPageSettings>;

/** The answer of GET and PUT /api/projects/{projectId}/app-page. */
export interface AppPageView {
  enabled: boolean;
  /** `{share}/apps/<slug>` while enabled; null when the page is off (its address is not handed out then). */
  url: string | null;
  passwordProtected: boolean;
}

/**
 * `/apps/{slug}`: bounded only. The exact shape of a slug is the visit's to check, after the
 * per-client limit counted the request (as share keys are).
 */
export const AppSlugRef = z.object({ slug: z.string().check(z.minLength(1, "is required"), z.maxLength(96, "is not an app page")) });
export type AppSlugRef = z.infer<typeof AppSlugRef>;
export const AppFileRef = z.object({
  slug: z.string().check(z.minLength(1, "is required"), z.maxLength(96, "is not an app page")),
  fileId: z.string().check(z.maxLength(64, "is not a file id")),
});
export type AppFileRef = z.infer<typeof AppFileRef>;

/** POST /api/projects/{projectId}/update-tokens: a name saying where the token ships ("iOS beta"). */
export const CreateUpdateToken = z.strictObject({ name: KeyName });
export type CreateUpdateToken = z.infer<typeof CreateUpdateToken>;

export const UPDATE_TOKEN_ID = /^utk_[A-Za-z0-9]{16}$/;
export const UpdateTokenRef = z.object({
  projectId: z.string().check(z.regex(PROJECT_ID, "is not a project id")),
  tokenId: z.string().check(z.regex(UPDATE_TOKEN_ID, "is not an update token id")),
});
export type UpdateTokenRef = z.infer<typeof UpdateTokenRef>;

/** One update token as the list shows it (never the token). */
export interface UpdateTokenView {
  tokenId: string;
  name: string;
  createdAt: string;
  /** Recorded at most hourly. */
  lastUsedAt: string | null;
}

/** The create answer: the token itself, shown this once. */
export interface CreatedUpdateToken {
  tokenId: string;
  name: string;
  createdAt: string;
  /** `hut_` + 32 random bytes, base64url. */
  token: string;
}

const bounded = (max: number, what: string) =>
  z.string().check(z.maxLength(max, `must be at most ${max} characters`), z.refine((v) => !/[\u0000-\u001f\u007f]/.test(v), `is not ${what}`));

/** GET /api/updates/latest?platform=&bundleId=&version=&build= (what the app knows about itself). */
export const LatestUpdateQuery = z.object({
  platform: z.enum(["ios", "android"], { error: "must be ios or android" }),
  bundleId: z.string().check(z.minLength(1, "is required"), z.maxLength(255, "must be at most 255 characters"), z.regex(/^[A-Za-z0-9._-]+$/, "is not a bundle id or package name")),
  version: z.optional(bounded(64, "a version")),
  build: z.optional(bounded(64, "a build number")),
});
export type LatestUpdateQuery = z.infer<typeof LatestUpdateQuery>;

/** 200 of GET /api/updates/latest: the newer build and where to install it. */
export interface LatestUpdate {
  fileId: string;
  version: string;
  build: string | null;
  releaseNotes: string | null;
  /** The build's share page (on the share host): the app opens it, the page offers Install or Download. */
  installUrl: string;
  uploadedAt: string;
}
