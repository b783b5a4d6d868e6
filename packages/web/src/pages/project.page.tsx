import { formatBytes } from "@hangar/core/format-bytes";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { describeError } from "../api/api-client";
import type { Project } from "../api/dashboard.api";
import { projectFilesQuery, projectQuery, useDeleteProject } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link, useNavigate } from "../app/router";
import { useWorkspace } from "../app/workspace";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { Loaded, ProjectBadge } from "../components/data";
import { TextField } from "../components/field";
import { FileList, groupFiles } from "../components/file-list";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { ProjectForm } from "../components/project-form";
import { ProjectRetentionSettings } from "../components/project-retention-settings";
import { ProjectTestersSettings } from "../components/project-testers-settings";
import { UploadPanel } from "../components/upload-panel";
import { useForm } from "../components/use-form";

/**
 * One project: its builds (newest first, "Load more"), its details, and delete. The project
 * answer names its workspace, which the frame shows and whose permissions choose the controls.
 */
export function ProjectPage({ projectId }: { projectId: string }) {
  const query = useQuery(projectQuery(projectId));
  const workspaceId = query.data?.workspaceId;
  const { can } = useWorkspace(workspaceId);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <AppShell
      title={query.data?.name ?? "Project"}
      description={query.data?.description || undefined}
      workspaceId={workspaceId}
      actions={<Link to={workspaceId ? paths.inWorkspace("/projects", workspaceId) : "/projects"} className="button button-secondary">All projects</Link>}
    >
      <Loaded query={query} label="the project">
        {(project) => (
          <div className="stack">
            {project.status === "deleting" && <Notice kind="info" title="This project is being deleted.">Its builds and keys are being removed in the background.</Notice>}
            <Card title="Details" id="details">
              {saved && !editing && <Notice>Project saved.</Notice>}
              {editing ? (
                <ProjectForm
                  project={project}
                  workspaceId={project.workspaceId}
                  onSaved={() => {
                    setEditing(false);
                    setSaved(true);
                  }}
                  onCancel={() => setEditing(false)}
                />
              ) : (
                <>
                  <dl className="facts">
                    <div>
                      <dt>Color</dt>
                      <dd>
                        <ProjectBadge name={project.color} color={project.color} />
                      </dd>
                    </div>
                    <div>
                      <dt>Builds</dt>
                      <dd data-testid="project-build-count">{project.fileCount}</dd>
                    </div>
                    <div>
                      <dt>Storage</dt>
                      <dd data-testid="project-storage">{project.storageBytes === null ? "Not counted yet" : formatBytes(project.storageBytes)}</dd>
                    </div>
                    <div>
                      <dt>Last upload</dt>
                      <dd>{project.lastUploadAt ? formatDateTime(project.lastUploadAt) : "None yet"}</dd>
                    </div>
                    <div>
                      <dt>Created</dt>
                      <dd>{formatDateTime(project.createdAt, { dateOnly: true })}</dd>
                    </div>
                  </dl>
                  {project.status === "active" && can("projects.manage") && (
                    <div className="form-actions">
                      <Button variant="secondary" onClick={() => { setSaved(false); setEditing(true); }}>
                        Edit project
                      </Button>
                    </div>
                  )}
                </>
              )}
            </Card>
            {/* Controls a role cannot use are not offered (the API refuses them with 403 all the same). */}
            {project.status === "active" && can("builds.manage") && <UploadPanel projectId={project.projectId} />}
            <ProjectFiles project={project} canUpload={can("builds.manage")} canKeys={can("keys.manage")} />
            {project.status === "active" && <ProjectTestersSettings project={project} canManage={can("projects.manage")} />}
            {project.status === "active" && <ProjectRetentionSettings project={project} canManage={can("projects.manage")} />}
            {project.status === "active" && can("projects.manage") && <DeleteProject project={project} />}
          </div>
        )}
      </Loaded>
    </AppShell>
  );
}

function ProjectFiles({ project, canUpload, canKeys }: { project: Project; canUpload: boolean; canKeys: boolean }) {
  const query = useInfiniteQuery(projectFilesQuery(project.projectId));
  const files = query.data?.pages.flatMap((page) => page.items) ?? [];
  const hasMore = query.hasNextPage;
  // A refresh behind the list (after a change elsewhere) keeps it on screen: only a first page, a
  // next page or a retry shows as loading.
  const state = query.isPending || query.isFetchingNextPage || (query.isError && query.isFetching) ? "loading" : query.isError ? "error" : "ready";
  const error = query.isError ? describeError(query.error) : "";
  // A failed "Load more" tries that page again; a failed first page, the first page.
  const retry = () => void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch());

  // Builds and rejected uploads are listed apart: a rejected package is not a build anyone can
  // install, and the project's count (completed uploads) must match the rows under "Builds".
  const { builds, rejected, pending } = groupFiles(files);
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    <>
      <section aria-labelledby="files-heading" className="section">
        <div className="section-header">
          <h2 id="files-heading" className="section-title">
            Builds
          </h2>
          {state !== "loading" || files.length > 0 ? (
            <span className="section-count" data-testid="builds-count">
              {builds.length < project.fileCount ? `${builds.length} of ${plural(project.fileCount, "build", "builds")} shown` : plural(builds.length, "build", "builds")}
            </span>
          ) : null}
        </div>
        {builds.length > 0 && (
          <div className="panel" data-testid="builds-list">
            <FileList files={builds} />
          </div>
        )}
        {state === "ready" && builds.length === 0 && !hasMore && (
          <div className="panel">
            <EmptyState title="No builds yet" headingLevel={3}>
              {canUpload || canKeys ? (
                <p>
                  {canUpload ? "Upload one above, or from CI" : "Upload from CI"} with the CLI and{" "}
                  <Link to={paths.inWorkspace("/security/developer-settings", project.workspaceId)}>an API key</Link> for this project:{" "}
                  {/* The CLI this service serves (README "CLI"): a bare `npx hangar` would fetch whatever the public registry calls hangar. */}
                  <code className="break-anywhere">npx --yes {window.location.origin}/cli/hangar-cli.tgz upload app.apk</code>.
                </p>
              ) : (
                <p>Builds the team uploads to this project appear here, newest first.</p>
              )}
            </EmptyState>
          </div>
        )}
        {state === "loading" && (
          <p className="loading-line" role="status">
            <span className="spinner spinner-dark" aria-hidden="true" /> Loading files…
          </p>
        )}
        {state === "error" && (
          <ErrorSummary message={`Could not load the files. ${error}`}>
            <div className="alert-actions">
              <Button variant="secondary" className="button-small" onClick={retry}>
                Try again
              </Button>
            </div>
          </ErrorSummary>
        )}
        {state === "ready" && hasMore && (
          <div>
            <Button variant="secondary" onClick={() => void query.fetchNextPage()}>
              Load more
            </Button>
          </div>
        )}
      </section>
      {pending.length > 0 && (
        <section aria-labelledby="pending-heading" className="section">
          <div className="section-header">
            <h2 id="pending-heading" className="section-title">
              Unfinished uploads
            </h2>
            <span className="section-count">{plural(pending.length, "upload", "uploads")}</span>
          </div>
          <p className="muted section-note">Presigned but never completed; they expire on their own.</p>
          <div className="panel">
            <FileList files={pending} />
          </div>
        </section>
      )}
      {rejected.length > 0 && (
        <section aria-labelledby="rejected-heading" className="section">
          <div className="section-header">
            <h2 id="rejected-heading" className="section-title">
              Rejected uploads
            </h2>
            <span className="section-count" data-testid="rejected-count">
              {plural(rejected.length, "upload", "uploads")}
            </span>
          </div>
          <p className="muted section-note">Files the service could not read as an APK or IPA. They are not builds: nothing links to them.</p>
          <div className="panel" data-testid="rejected-list">
            <FileList files={rejected} />
          </div>
        </section>
      )}
    </>
  );
}

const DELETE_FIELDS = ["confirmName"] as const;
const DELETE_LABELS = { confirmName: "Project name" };

function DeleteProject({ project }: { project: Project }) {
  const navigate = useNavigate();
  const form = useForm(DELETE_FIELDS, DELETE_LABELS);
  const remove = useDeleteProject();
  const [open, setOpen] = useState(false);
  const [confirmName, setConfirmName] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const clientErrors = { confirmName: confirmName.trim() === project.name ? undefined : `Type “${project.name}” exactly to confirm.` };
    void form.submit(clientErrors, async () => {
      // Still deleting: the cache marks the project so and this page says it; done: back to the list.
      const { status } = await remove.mutateAsync({ project, confirmName: confirmName.trim() });
      if (status === "deleted") navigate(paths.inWorkspace("/projects", project.workspaceId), { replace: true });
    });
  };
  return (
    <Card title="Delete project" id="delete-project" description="Deletes the project, revokes its API keys and deletes every build, share link and stored file in it. This cannot be undone.">
      {open ? (
        <FormScaffold
          form={form}
          labels={DELETE_LABELS}
          onSubmit={onSubmit}
          actions={<DangerActions label="Delete this project" busyLabel="Deleting…" busy={form.busy} onCancel={() => setOpen(false)} />}
        >
          <TextField
            name="confirmName"
            label={`Type “${project.name}” to confirm`}
            value={confirmName}
            autoComplete="off"
            onValueChange={(v) => {
              setConfirmName(v);
              form.clearFieldError("confirmName");
            }}
            error={form.fieldErrors.confirmName}
          />
        </FormScaffold>
      ) : (
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete project…
        </Button>
      )}
    </Card>
  );
}
