import * as z from "zod/mini";
import { RETENTION_BOUNDS } from "../releases/retention";

/** The bounds of a policy's numbers, for forms that check them before the API does. */
export { RETENTION_BOUNDS };
import { PROJECT_COLOR_NAMES } from "./palette";
import { CONTROL_OR_INVISIBLE, LONE_SURROGATE } from "../validation/unicode";

/** A person-given name: trimmed, NFC, 1 to `max` characters, printable. */
const displayName = (max: number) =>
  z.pipe(
    z.string().check(z.refine((s) => !LONE_SURROGATE.test(s), { error: "must be well-formed Unicode", abort: true })),
    z.transform((s) => s.trim().normalize("NFC")),
  ).check(
    z.minLength(1, "must not be empty"),
    z.maxLength(max, `must be at most ${max} characters`),
    z.refine((s) => !CONTROL_OR_INVISIBLE.test(s), "must not contain control, invisible or bidirectional characters"),
  );

const description = z.pipe(
  z.string().check(z.refine((s) => !LONE_SURROGATE.test(s), { error: "must be well-formed Unicode", abort: true })),
  z.transform((s) => s.trim().normalize("NFC")),
).check(
  z.maxLength(500, "must be at most 500 characters"),
  // Line breaks are fine in a description; other controls are not.
  z.refine((s) => !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(s), "must not contain control characters"),
);

const color = z.enum(PROJECT_COLOR_NAMES, { error: `must be one of ${PROJECT_COLOR_NAMES.join(", ")}` });

export const ProjectName = displayName(80);
export const KeyName = displayName(80);

export const CreateProject = z.object({
  name: ProjectName,
  description: z._default(description, ""),
  color,
  /** The workspace to create it in (default: the caller's personal workspace). */
  workspaceId: z.optional(z.string().check(z.maxLength(64, "is not a workspace id"))),
});
export type CreateProject = z.infer<typeof CreateProject>;

const bounded = (min: number, max: number) =>
  z.number("must be a whole number").check(z.int("must be a whole number"), z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`));

/**
 * A project's retention policy (docs/release-safety.md): keep the newest `keepLatest` builds per
 * platform and branch and/or none older than `maxAgeDays`; a field null or absent does not apply.
 * A policy that names neither is refused rather than stored as "off": `retention: null` turns
 * retention off, so a form that lost its numbers cannot look like a policy.
 */
export const RetentionInput = z
  .object({
    keepLatest: z.optional(z.nullable(bounded(RETENTION_BOUNDS.keepLatest.min, RETENTION_BOUNDS.keepLatest.max))),
    maxAgeDays: z.optional(z.nullable(bounded(RETENTION_BOUNDS.maxAgeDays.min, RETENTION_BOUNDS.maxAgeDays.max))),
  })
  .check(
    z.refine((p) => (p.keepLatest ?? null) !== null || (p.maxAgeDays ?? null) !== null, {
      error: "must name keepLatest or maxAgeDays (null turns retention off)",
    }),
  );
export type RetentionInput = z.infer<typeof RetentionInput>;

/** A number of a candidate policy in a query: empty means "does not apply", as an empty form field. */
const candidateNumber = (bounds: { min: number; max: number }) =>
  z.optional(
    z.union([z.literal(""), z.coerce.number().check(z.int(), z.minimum(bounds.min), z.maximum(bounds.max))], {
      error: `must be a whole number from ${bounds.min} to ${bounds.max}, or empty (does not apply)`,
    }),
  );

/**
 * `GET /api/projects/{projectId}/retention/preview?keepLatest=&maxAgeDays=`: with either
 * parameter, the preview of that policy (what the dashboard's form holds before it is saved; both
 * empty: off, nothing removed); with neither, the project's saved policy.
 */
export const RetentionPreviewQuery = z.object({
  keepLatest: candidateNumber(RETENTION_BOUNDS.keepLatest),
  maxAgeDays: candidateNumber(RETENTION_BOUNDS.maxAgeDays),
});
export type RetentionPreviewQuery = z.infer<typeof RetentionPreviewQuery>;

export const UpdateProject = z.object({
  name: z.optional(ProjectName),
  description: z.optional(description),
  color: z.optional(color),
  /** null turns retention off. */
  retention: z.optional(z.nullable(RetentionInput)),
});
export type UpdateProject = z.infer<typeof UpdateProject>;

/** Deleting a project is confirmed by typing its name, as the dashboard asks. */
export const DeleteProject = z.object({ confirmName: z.string().check(z.maxLength(200)) });
export type DeleteProject = z.infer<typeof DeleteProject>;

export const CreateKey = z.object({
  name: KeyName,
  projectId: z.string().check(z.maxLength(64, "is not a project id")),
});
export type CreateKey = z.infer<typeof CreateKey>;

/**
 * The ids in dashboard paths (`/api/projects/{projectId}`, `/api/keys/{clientId}`,
 * `/api/files/{fileId}`): the shapes this service issues, checked before any lookup. An id of
 * another shape names nothing, so the HTTP layer answers it like an unknown id (404), never 400.
 */
export const PROJECT_ID = /^[A-Za-z0-9_]{1,64}$/;
export const CLIENT_ID = /^[A-Za-z0-9_-]{4,128}$/;
export const FILE_ID = /^[A-Za-z0-9_]{1,64}$/;

export const ProjectRef = z.object({ projectId: z.string().check(z.regex(PROJECT_ID, "is not a project id")) });
export type ProjectRef = z.infer<typeof ProjectRef>;
export const KeyRef = z.object({ clientId: z.string().check(z.regex(CLIENT_ID, "is not a client id")) });
export type KeyRef = z.infer<typeof KeyRef>;
export const FileRef = z.object({ fileId: z.string().check(z.regex(FILE_ID, "is not a file id")) });
export type FileRef = z.infer<typeof FileRef>;

/** `GET /api/files/{fileId}/diff?against=<fileId>`: another build of the project (default: the previous one). */
export const DiffQuery = z.object({ against: z.optional(z.string().check(z.regex(FILE_ID, "is not a file id"))) });
export type DiffQuery = z.infer<typeof DiffQuery>;

/** `PATCH /api/files/{fileId}`: pin a build (retention keeps it) or unpin it. */
export const UpdateFile = z.object({ pinned: z.boolean("must be true or false") });
export type UpdateFile = z.infer<typeof UpdateFile>;

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** `?cursor=&limit=` of a list; the cursor is checked by dashboard/cursor.ts. */
export const PageQuery = z.object({
  limit: z._default(
    z.coerce.number().check(
      z.int("must be an integer"),
      z.minimum(1, "must be at least 1"),
      z.maximum(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`),
    ),
    DEFAULT_PAGE_SIZE,
  ),
  cursor: z.optional(z.string().check(z.maxLength(512, "is not a cursor"))),
});
export type PageQuery = z.infer<typeof PageQuery>;

/**
 * `?workspaceId=` of the lists of a workspace (projects, keys, latest files) and the optional
 * `workspaceId` of a new project; absent means the caller's personal workspace. Only bounded
 * here: an id of another shape names no workspace, which the access check answers with a 404.
 */
const WorkspaceId = z.string().check(z.maxLength(64, "is not a workspace id"));
export const WorkspaceQuery = z.object({ workspaceId: z.optional(WorkspaceId) });
export type WorkspaceQuery = z.infer<typeof WorkspaceQuery>;
/** `GET /api/files?workspaceId=&limit=`. */
export const WorkspacePageQuery = z.object({ ...PageQuery.shape, ...WorkspaceQuery.shape });
export type WorkspacePageQuery = z.infer<typeof WorkspacePageQuery>;
