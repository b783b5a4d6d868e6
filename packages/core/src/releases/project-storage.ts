import type { FileCatalog, ProjectCatalog, ProjectView } from "../ports";

/** Files read per Query while counting (a page of gsi1). */
const PAGE = 100;

/** Bytes of a project's completed builds, by paging its files (gsi1, newest first). */
export async function sumStorage(files: Pick<FileCatalog, "page">, projectId: string): Promise<number> {
  let bytes = 0;
  let after: string | undefined;
  do {
    const page = await files.page(projectId, PAGE, after);
    for (const file of page.items) if (file.status === "completed") bytes += file.fileSize;
    after = page.after;
  } while (after);
  return bytes;
}

/**
 * A project with its `storageBytes` (docs/release-safety.md "Storage"). Projects created since
 * the counter exists start at 0, and complete and every removal ADD to it; a project stored
 * before is counted once, by the deploy's migration (migrations/storage.migration.ts) or, if that
 * could not, by the first list or page that shows it (the catalog's countStorage keeps that count
 * exact under concurrent uploads). Rejected alternative: summing on every read,
 * which makes a project list read every file of every project.
 */
export async function withStorage(
  deps: { projects: Pick<ProjectCatalog, "countStorage">; files?: Pick<FileCatalog, "page"> },
  project: ProjectView,
): Promise<ProjectView> {
  if (project.storageBytes !== undefined || !deps.files || project.status !== "active") return project;
  const files = deps.files;
  const bytes = await deps.projects.countStorage(project.workspaceId, project.projectId, () => sumStorage(files, project.projectId));
  return bytes === undefined ? project : { ...project, storageBytes: bytes };
}
