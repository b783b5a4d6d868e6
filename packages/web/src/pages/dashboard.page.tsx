import { useQuery } from "@tanstack/react-query";
import type { FileSummary } from "../api/dashboard.api";
import { latestFilesQuery, projectsQuery } from "../api/dashboard.queries";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { useAccount } from "../app/session";
import { useWorkspace } from "../app/workspace";
import type { Workspace } from "../api/workspaces.api";
import { InWorkspace, ResourceList } from "../components/data";
import { ExpiryBanner } from "../components/expiry-banner";
import { FileList, groupFiles } from "../components/file-list";
import { AppShell, EmptyState } from "../components/layouts";
import { folderIcon, ProjectList } from "./projects.page";

const boxIcon = (
  <svg viewBox="0 0 24 24" focusable="false">
    <path d="m12 3 8 4.5v9L12 21l-8-4.5v-9L12 3Z" />
    <path d="m4 7.5 8 4.5 8-4.5M12 12v9" />
  </svg>
);

/** Home: the current workspace's projects and the latest builds across them. */
export function DashboardPage() {
  const account = useAccount();
  const current = useWorkspace();
  const firstName = account.displayName?.split(/\s+/)[0];
  const workspace = current.workspace;
  return (
    <AppShell
      title="Dashboard"
      description={firstName ? `Welcome, ${firstName}. Here are the projects and latest builds of ${workspace ? `“${workspace.name}”` : "your workspace"}.` : undefined}
      actions={
        workspace &&
        current.can("projects.manage") && (
          <Link to={paths.inWorkspace("/projects/new", workspace.workspaceId)} className="button button-primary">
            New project
          </Link>
        )
      }
    >
      <InWorkspace current={current}>{(ws) => <DashboardBody workspace={ws} canCreate={current.can("projects.manage")} />}</InWorkspace>
    </AppShell>
  );
}

function DashboardBody({ workspace, canCreate }: { workspace: Workspace; canCreate: boolean }) {
  // The same cache entry as the projects page and Developer Settings: one request between them.
  const projects = useQuery(projectsQuery(workspace.workspaceId));
  const files = useQuery(latestFilesQuery(workspace.workspaceId));
  const names = new Map(projects.data?.items.map((p) => [p.projectId, p.name]));
  return (
    <div className="stack">
      <ExpiryBanner workspaceId={workspace.workspaceId} />
      <section aria-labelledby="projects-heading" className="section">
        <div className="section-header">
          <h2 id="projects-heading" className="section-title">
            Projects
          </h2>
        </div>
        <ResourceList
          query={projects}
          label="your projects"
          items={(page) => page.items}
          empty={
            canCreate ? (
              <EmptyState title="Create your first project" icon={folderIcon} headingLevel={3} action={<Link to={paths.inWorkspace("/projects/new", workspace.workspaceId)} className="button button-primary">Create a project</Link>}>
                <p>A project holds one app's builds and the API keys your CI uploads them with. Your projects will be listed here.</p>
              </EmptyState>
            ) : (
              <EmptyState title="No projects yet" icon={folderIcon} headingLevel={3}>
                <p>This workspace has no projects yet. Its owners and admins create them; they will be listed here.</p>
              </EmptyState>
            )
          }
        >
          {(items) => <ProjectList projects={items} headingLevel={3} />}
        </ResourceList>
      </section>
      <section aria-labelledby="files-heading" className="section">
        <div className="section-header">
          <h2 id="files-heading" className="section-title">
            Latest builds
          </h2>
        </div>
        {/* Rejected uploads apart from the builds, as on a project's page. */}
        <ResourceList
          query={files}
          label="the latest builds"
          items={(page) => groupFiles(page.items).builds}
          empty={
            <EmptyState title="No builds yet" icon={boxIcon} headingLevel={3}>
              <p>Builds uploaded to any of your projects show up here, newest first, with their share links.</p>
            </EmptyState>
          }
        >
          {(builds) => (
            <div className="panel">
              <FileList files={builds} showProject projectNames={names} />
            </div>
          )}
        </ResourceList>
        {files.data && !files.isError && <RejectedUploads files={groupFiles(files.data.items).rejected} names={names} />}
      </section>
    </div>
  );
}

function RejectedUploads({ files, names }: { files: readonly FileSummary[]; names: Map<string, string> }) {
  if (files.length === 0) return null;
  return (
    <section aria-labelledby="rejected-heading" className="section">
      <h3 id="rejected-heading" className="section-title">
        Recently rejected uploads
      </h3>
      <div className="panel">
        <FileList files={files} showProject projectNames={names} />
      </div>
    </section>
  );
}
