import type { IdSource } from "../ids/random-ids";
import type { EventPublisher } from "../ports/events.port";
import type {
  ApiKeyRepository,
  AuditLog,
  BackgroundTasks,
  Clock,
  FileCatalog,
  KeyCatalog,
  ObjectPurger,
  PendingDeletes,
  ProjectCatalog,
  StageSecret,
  UrlSigner,
  UsageReader,
  UserRepository,
  WorkspaceCatalog,
} from "../ports";

/** Everything the dashboard's use cases touch; each use case takes the part it needs. */
export interface DashboardDeps {
  projects: ProjectCatalog;
  keys: KeyCatalog & Pick<ApiKeyRepository, "create">;
  files: FileCatalog;
  usage: UsageReader;
  objects: ObjectPurger;
  signer: UrlSigner;
  background: BackgroundTasks;
  /** Markers of unfinished deletes, so a delete whose background run was lost is resumed. */
  pendingDeletes: PendingDeletes;
  clock: Clock;
  ids: IdSource;
  /** Keys the MAC of page cursors (dashboard/cursor.ts). */
  cursorSecret: StageSecret;
  /** Memberships, read by every access check (workspaces/access.ts) before anything else. */
  workspaces: Pick<WorkspaceCatalog, "membership">;
  /** Who created a key (its answer's `createdBy.email`). */
  users: Pick<UserRepository, "get">;
  /** Every change is recorded after it succeeded (docs/teams.md lists the actions). */
  audit: Pick<AuditLog, "record">;
  /** A project's app page and update tokens (issue 20, app-pages/), removed by its purge. */
  appPages?: { forgetProject(workspaceId: string, projectId: string): Promise<void> };
  /** Webhooks (docs/webhooks.md): told after a change succeeded; absent where nothing listens. */
  events?: EventPublisher;
}

/** When a long-running step should hand the rest to the background (checked between pages). */
export interface Budget {
  shouldStop(): boolean;
}

export const budgetOf = (clock: Clock, milliseconds: number): Budget => {
  const until = clock.now().getTime() + milliseconds;
  return { shouldStop: () => clock.now().getTime() >= until };
};
