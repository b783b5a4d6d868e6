import { BuildNotCompletedError, ValidationError } from "../errors/domain-errors";
import type { FileCatalog, FilePage, FileRecord } from "../ports";
import type { DashboardDeps } from "../dashboard/dashboard-deps";
import type { FileRef } from "../dashboard/dashboard.schema";
import { ownFile } from "../dashboard/files";
import type { Actor } from "../workspaces/actor";
import { diffBuilds, type BuildDiff, type BuildFacts } from "./build-diff";

/**
 * How far back the previous build is looked for: the project's `files` newest files. A small first
 * page (the build being completed, and usually the previous build, are among the newest few; a
 * page's cost grows with its items, and complete waits for it), then pages of `pageSize`.
 */
export const PREVIOUS_BUILD_SCAN = { first: 4, pageSize: 25, files: 100 } as const;

type Completed = FileRecord & { status: "completed"; completedAt: string; metadata: NonNullable<FileRecord["metadata"]> };

const isCompleted = (file: FileRecord): file is Completed => file.status === "completed" && !!file.metadata && !!file.completedAt;
const factsOf = (file: Completed): BuildFacts => ({ fileId: file.fileId, fileSize: file.fileSize, metadata: file.metadata });

/**
 * The build `file` follows: the newest completed build of the same app (platform and bundle id) in
 * the project that completed before it. Among the project's 100 newest files (a CI that uploads
 * other apps in between still finds it); none → undefined, a first build.
 */
export async function previousBuildOf(
  files: Pick<FileCatalog, "page">,
  file: Completed,
  /**
   * The project's first page (PREVIOUS_BUILD_SCAN.first newest files) when the caller already
   * asked for it: complete reads it beside the package, before it knows the app's bundle id.
   */
  firstPage: Promise<FilePage> = files.page(file.projectId, PREVIOUS_BUILD_SCAN.first),
): Promise<Completed | undefined> {
  let after: string | undefined;
  for (let seen = 0; seen < PREVIOUS_BUILD_SCAN.files; ) {
    const { items, after: next } = seen === 0 ? await firstPage : await files.page(file.projectId, PREVIOUS_BUILD_SCAN.pageSize, after);
    seen += Math.max(items.length, 1);
    const found = items.find(
      (f): f is Completed =>
        f.fileId !== file.fileId &&
        isCompleted(f) &&
        f.metadata.platform === file.metadata.platform &&
        f.metadata.bundleId === file.metadata.bundleId &&
        f.completedAt < file.completedAt,
    );
    if (found) return found;
    if (!next) return undefined;
    after = next;
  }
  return undefined;
}

/** A later build's stored diff, compared again once the build it named is gone. */
export interface RebasedDiff {
  fileId: string;
  /** The stored diff (which names the removed build), for a conditional write. */
  was: BuildDiff;
  /** Against the build before the removed one; null when none is left. */
  diff: BuildDiff | null;
}

/**
 * The builds whose stored diff names `removed` as their previous build, each compared again with
 * the build that now comes before it (or none). A delete leaves nothing that names the deleted
 * build, and the list's danger marker stays true of the builds that remain. `removed` is left
 * out of every page, should an index still show it. Among the project's 100 newest files, as
 * previousBuildOf looks.
 */
export async function rebasedDiffs(files: Pick<FileCatalog, "page">, removed: Pick<FileRecord, "fileId" | "projectId">): Promise<RebasedDiff[]> {
  const remaining: Pick<FileCatalog, "page"> = {
    page: async (projectId, limit, after) => {
      const page = await files.page(projectId, limit, after);
      return { ...page, items: page.items.filter((f) => f.fileId !== removed.fileId) };
    },
  };
  const rebased: RebasedDiff[] = [];
  let after: string | undefined;
  for (let page = 0; page < PREVIOUS_BUILD_SCAN.files / PREVIOUS_BUILD_SCAN.pageSize; page++) {
    const { items, after: next } = await remaining.page(removed.projectId, PREVIOUS_BUILD_SCAN.pageSize, after);
    for (const file of items) {
      if (!isCompleted(file) || file.diff?.previous.fileId !== removed.fileId) continue;
      const previous = await previousBuildOf(remaining, file);
      rebased.push({ fileId: file.fileId, was: file.diff, diff: previous ? diffBuilds(factsOf(previous), factsOf(file)) : null });
    }
    if (!next) break;
    after = next;
  }
  return rebased;
}

export interface CompareBuildsInput extends FileRef {
  /** Another build of the same project; default: the previous build of the same app. */
  against?: string | undefined;
}

/** `GET /api/files/{fileId}/diff?against=`: what changed from `against` (or the previous build) to this one. */
export interface BuildDiffAnswer {
  fileId: string;
  /** null: no build to compare with (a first build). */
  diff: BuildDiff | null;
}

/**
 * What changed between a build and the one before it (or any other build of the project): the
 * dashboard's "Changes since …" and its comparison of two builds. Both builds must be completed;
 * another project's build is a 404 like an unknown one.
 */
export async function compareBuilds(
  deps: Pick<DashboardDeps, "files" | "projects" | "workspaces">,
  actor: Actor,
  input: CompareBuildsInput,
): Promise<BuildDiffAnswer> {
  const { file } = await ownFile(deps, actor, { fileId: input.fileId }, "workspace.read");
  if (!isCompleted(file)) throw new BuildNotCompletedError("This build has not completed: there is nothing to compare yet");
  let previous: Completed | undefined;
  if (input.against !== undefined) {
    const other = (await ownFile(deps, actor, { fileId: input.against }, "workspace.read")).file;
    if (other.projectId !== file.projectId) throw new ValidationError([{ field: "against", message: "must be a build of the same project" }]);
    if (!isCompleted(other)) throw new ValidationError([{ field: "against", message: "has not completed: there is nothing to compare" }]);
    previous = other;
  } else {
    previous = await previousBuildOf(deps.files, file);
  }
  return { fileId: file.fileId, diff: previous ? diffBuilds(factsOf(previous), factsOf(file)) : null };
}
