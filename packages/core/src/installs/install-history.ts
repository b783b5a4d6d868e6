import * as z from "zod/mini";
import { Email } from "../accounts/account.schema";
import { NotFoundError } from "../errors/domain-errors";
import type { FileCatalog, ProjectCatalog, WorkspaceCatalog } from "../ports";
import { ownFile } from "../dashboard/files";
import type { FileRef } from "../dashboard/dashboard.schema";
import type { Actor } from "../workspaces/actor";
import { workspaceAccess } from "../workspaces/access";
import { WORKSPACE_ID } from "../workspaces/workspace-ids";
import type { InstallRecord, InstallRecords } from "./install-records.port";
import type { FileInstalls, TesterInstalls } from "./installs.schema";

/**
 * Who installed what, for the team (docs/testers.md): a build's testers on its file page, and a
 * tester's builds in a workspace on their page. Readable by every member (`workspace.read`); a
 * non-member gets the resource's 404 as for an id that does not exist.
 */

/** A tester's history lists at most this many builds, the latest used first (a year of daily builds). */
export const MAX_TESTER_HISTORY = 500;

export const testerNotFound = () => new NotFoundError("tester_not_found", "No tester with this address in the workspace");

/** `/api/workspaces/{workspaceId}/testers/{email}/installs`: the address as the path gives it (percent-decoded), normalized. */
export const TesterRef = z.object({
  workspaceId: z.string().check(z.regex(WORKSPACE_ID, "is not a workspace id")),
  email: Email,
});
export type TesterRef = z.infer<typeof TesterRef>;

export interface InstallHistoryDeps {
  installs: Pick<InstallRecords, "listByFile" | "listByTester">;
  files: Pick<FileCatalog, "get">;
  projects: Pick<ProjectCatalog, "workspaceOf" | "get" | "list">;
  workspaces: Pick<WorkspaceCatalog, "membership"> & Partial<Pick<WorkspaceCatalog, "touch">>;
}

/** Every tester's record of a build, the latest used first. */
export async function listFileInstalls(deps: InstallHistoryDeps, actor: Actor, { fileId }: FileRef): Promise<FileInstalls> {
  await ownFile(deps, actor, { fileId }, "workspace.read");
  const records = await deps.installs.listByFile(fileId);
  return {
    items: records.map((r) => ({
      email: r.email,
      firstAt: r.firstAt,
      lastAt: r.lastAt,
      downloads: r.downloads,
      installStarts: r.installStarts,
      deviceFamily: r.deviceFamily,
      via: r.via,
    })),
  };
}

/** The builds a tester used in a workspace, the latest used first, with their projects' names. */
export async function listTesterInstalls(deps: InstallHistoryDeps, actor: Actor, { workspaceId, email }: TesterRef): Promise<TesterInstalls> {
  await workspaceAccess(deps, actor.userId, workspaceId, "workspace.read");
  const [records, projects] = await Promise.all([deps.installs.listByTester(workspaceId, email, MAX_TESTER_HISTORY), deps.projects.list(workspaceId)]);
  const names = new Map(projects.filter((p) => p.status === "active").map((p) => [p.projectId, p.name]));
  // A build of a project being deleted is on its way out with it.
  const shown = records.filter((r: InstallRecord) => names.has(r.projectId));
  return {
    items: shown.map((r) => ({
      fileId: r.fileId,
      projectId: r.projectId,
      projectName: names.get(r.projectId) ?? null,
      platform: r.platform,
      version: r.version,
      build: r.build,
      firstAt: r.firstAt,
      lastAt: r.lastAt,
      downloads: r.downloads,
      installStarts: r.installStarts,
      deviceFamily: r.deviceFamily,
      via: r.via,
    })),
  };
}
