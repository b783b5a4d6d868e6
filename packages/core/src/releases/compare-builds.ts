import { BuildNotCompletedError, ValidationError } from "../errors/domain-errors";
import type { FileCatalog, FileRecord } from "../ports";
import type { DashboardDeps } from "../dashboard/dashboard-deps";
import type { FileRef } from "../dashboard/dashboard.schema";
import { ownFile } from "../dashboard/files";
import type { Actor } from "../workspaces/actor";
import { diffBuilds, type BuildDiff, type BuildFacts } from "./build-diff";
import { isCompleted, newestWindow, previousBuildOf, previousIn, type Completed } from "./latest-builds";

// The previous build is one of the latest-build questions: latest-builds.ts answers them all.
export { PREVIOUS_BUILD_SCAN, previousBuildOf } from "./latest-builds";

const factsOf = (file: Completed): BuildFacts => ({ fileId: file.fileId, fileSize: file.fileSize, metadata: file.metadata });

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
 * out of the window, should an index still show it. One read of the latest-build window
 * (latest-builds.ts), whatever the number of builds to compare again.
 */
export async function rebasedDiffs(files: Pick<FileCatalog, "page">, removed: Pick<FileRecord, "fileId" | "projectId">): Promise<RebasedDiff[]> {
  const recent = (await newestWindow(files, removed.projectId)).filter((f) => f.fileId !== removed.fileId);
  return recent.flatMap((file): RebasedDiff[] => {
    if (!isCompleted(file) || file.diff?.previous.fileId !== removed.fileId) return [];
    const previous = previousIn(recent, file);
    return [{ fileId: file.fileId, was: file.diff, diff: previous ? diffBuilds(factsOf(previous), factsOf(file)) : null }];
  });
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
