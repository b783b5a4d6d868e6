import { useEffect, useState, type FormEvent } from "react";
import { describeError } from "../api/api-client";
import { dashboardApi, type FileSummary, type Project } from "../api/dashboard.api";
import { formatDateTime } from "../app/format";
import { Link, useNavigate } from "../app/router";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { Loaded, ProjectBadge, useLoad } from "../components/data";
import { TextField } from "../components/field";
import { FileList, groupFiles } from "../components/file-list";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { ProjectForm } from "../components/project-form";
import { useForm } from "../components/use-form";

/** One project: its builds (newest first, "Load more"), its details, and delete. */
export function ProjectPage({ projectId }: { projectId: string }) {
  const [load, reload, setProject] = useLoad(() => dashboardApi.project(projectId), [projectId]);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const title = load.status === "ready" ? load.data.name : "Project";
  return (
    <AppShell
      title={title}
      description={load.status === "ready" ? load.data.description || undefined : undefined}
      actions={<Link to="/projects" className="button button-secondary">All projects</Link>}
    >
      <Loaded load={load} retry={reload} label="the project">
        {(project) => (
          <div className="stack">
            {project.status === "deleting" && <Notice kind="info" title="This project is being deleted.">Its builds and keys are being removed in the background.</Notice>}
            <Card title="Details" id="details">
              {saved && !editing && <Notice>Project saved.</Notice>}
              {editing ? (
                <ProjectForm
                  project={project}
                  onSaved={(p) => {
                    setProject(p);
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
                      <dt>Last upload</dt>
                      <dd>{project.lastUploadAt ? formatDateTime(project.lastUploadAt) : "None yet"}</dd>
                    </div>
                    <div>
                      <dt>Created</dt>
                      <dd>{formatDateTime(project.createdAt, { dateOnly: true })}</dd>
                    </div>
                  </dl>
                  {project.status === "active" && (
                    <div className="form-actions">
                      <Button variant="secondary" onClick={() => { setSaved(false); setEditing(true); }}>
                        Edit project
                      </Button>
                    </div>
                  )}
                </>
              )}
            </Card>
            <ProjectFiles project={project} />
            {project.status === "active" && <DeleteProject project={project} onDeleting={() => setProject({ ...project, status: "deleting" })} />}
          </div>
        )}
      </Loaded>
    </AppShell>
  );
}

function ProjectFiles({ project }: { project: Project }) {
  const [files, setFiles] = useState<FileSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const [error, setError] = useState("");
  const fetchPage = (after: string | null) => {
    setState("loading");
    dashboardApi.projectFiles(project.projectId, after).then(
      (page) => {
        setFiles((current) => (after ? [...current, ...page.items] : page.items));
        setCursor(page.nextCursor);
        setState("ready");
      },
      (e) => {
        setError(describeError(e));
        setState("error");
      },
    );
  };
  useEffect(() => fetchPage(null), [project.projectId]);

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
        {state === "ready" && builds.length === 0 && !cursor && (
          <div className="panel">
            <EmptyState title="No builds yet" headingLevel={3}>
              <p>
                Upload one with the CLI and <Link to="/security/developer-settings">an API key</Link> for this project: <code>npx hangar upload app.apk</code>.
              </p>
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
              <Button variant="secondary" className="button-small" onClick={() => fetchPage(files.length ? cursor : null)}>
                Try again
              </Button>
            </div>
          </ErrorSummary>
        )}
        {state === "ready" && cursor && (
          <div>
            <Button variant="secondary" onClick={() => fetchPage(cursor)}>
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

function DeleteProject({ project, onDeleting }: { project: Project; onDeleting(): void }) {
  const navigate = useNavigate();
  const form = useForm(DELETE_FIELDS, DELETE_LABELS);
  const [open, setOpen] = useState(false);
  const [confirmName, setConfirmName] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const clientErrors = { confirmName: confirmName.trim() === project.name ? undefined : `Type “${project.name}” exactly to confirm.` };
    void form.submit(clientErrors, async () => {
      const { status } = await dashboardApi.deleteProject(project.projectId, confirmName.trim());
      if (status === "deleting") onDeleting();
      else navigate("/projects", { replace: true });
    });
  };
  return (
    <Card title="Delete project" id="delete-project" description="Deletes the project, revokes its API keys and deletes every build, share link and stored file in it. This cannot be undone.">
      {open ? (
        <>
          <ErrorSummary message={form.formError} fieldErrors={form.fieldErrors} labels={DELETE_LABELS} summaryRef={form.summaryRef} />
          <form className="form" noValidate onSubmit={onSubmit}>
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
            <DangerActions label="Delete this project" busyLabel="Deleting…" busy={form.busy} onCancel={() => setOpen(false)} />
          </form>
        </>
      ) : (
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete project…
        </Button>
      )}
    </Card>
  );
}
