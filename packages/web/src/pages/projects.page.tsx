import { formatBytes } from "@hangar/core/format-bytes";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Project } from "../api/dashboard.api";
import { projectsQuery } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link, useNavigate } from "../app/router";
import { roleLabel, useWorkspace } from "../app/workspace";
import { Notice } from "../components/alerts";
import { InWorkspace, ItemList, ProjectBadge, ResourceList } from "../components/data";
import { ExpiryBanner } from "../components/expiry-banner";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { ProjectForm } from "../components/project-form";
import "../styles/projects.css";

export const folderIcon = (
  <svg viewBox="0 0 24 24" focusable="false">
    <path d="M3 7a2 2 0 0 1 2-2h4.2a2 2 0 0 1 1.4.6L12 7h7a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7Z" />
    <path d="M12 11v5M9.5 13.5h5" />
  </svg>
);

/** The account's projects, with their color, description, file count and last upload. */
export function ProjectList({ projects, headingLevel = 2 }: { projects: readonly Project[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ItemList items={projects} itemKey={(p) => p.projectId} className="project-grid" itemClassName="project-card">
      {(p) => (
        <>
          <Heading className="project-card-title">
            <Link to={paths.project(p.projectId)}>
              <ProjectBadge name={p.name} color={p.color} />
            </Link>
          </Heading>
          {p.description && <p className="project-card-description">{p.description}</p>}
          <p className="project-card-meta">
            <span>
              {p.fileCount} {p.fileCount === 1 ? "build" : "builds"}
            </span>
            {p.storageBytes !== null && <span data-testid="project-card-storage">{formatBytes(p.storageBytes)} stored</span>}
            <span>{p.lastUploadAt ? <>Last upload <time dateTime={p.lastUploadAt}>{formatDateTime(p.lastUploadAt)}</time></> : "No uploads yet"}</span>
            {p.status === "deleting" && <span className="badge badge-danger">Deleting…</span>}
          </p>
        </>
      )}
    </ItemList>
  );
}

export function ProjectsPage() {
  const current = useWorkspace();
  const canCreate = current.can("projects.manage");
  const workspaceId = current.workspace?.workspaceId;
  return (
    <AppShell
      title="Projects"
      description="Each project holds one app's builds and its API keys."
      actions={
        workspaceId &&
        canCreate && (
          <Link to={paths.inWorkspace("/projects/new", workspaceId)} className="button button-primary">
            New project
          </Link>
        )
      }
    >
      <InWorkspace current={current}>{(workspace) => <Projects workspaceId={workspace.workspaceId} canCreate={canCreate} />}</InWorkspace>
    </AppShell>
  );
}

function Projects({ workspaceId, canCreate }: { workspaceId: string; canCreate: boolean }) {
  const projects = useQuery(projectsQuery(workspaceId));
  return (
    <div className="stack">
      <ExpiryBanner workspaceId={workspaceId} />
      <ResourceList
        query={projects}
        label="your projects"
        items={(page) => page.items}
        empty={
          canCreate ? (
            <EmptyState title="Create your first project" icon={folderIcon} action={<Link to={paths.inWorkspace("/projects/new", workspaceId)} className="button button-primary">Create a project</Link>}>
              <p>You have no projects yet. A project needs a name, a short description and a color, and comes before any API key.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No projects yet" icon={folderIcon}>
              <p>This workspace has no projects yet. Its owners and admins create them; they will be listed here.</p>
            </EmptyState>
          )
        }
      >
        {(items) => <ProjectList projects={items} />}
      </ResourceList>
    </div>
  );
}

export function NewProjectPage() {
  const navigate = useNavigate();
  const current = useWorkspace();
  const [created, setCreated] = useState<Project>();
  return (
    <AppShell title="New project" description="A project holds one app's builds and the API keys your CI uploads them with.">
      <InWorkspace current={current}>
        {(workspace) =>
          created ? (
            <Notice title={`Project “${created.name}” created.`}>
              <p>
                <Link to={paths.project(created.projectId)}>Open the project</Link> or{" "}
                <Link to={paths.inWorkspace("/security/developer-settings", workspace.workspaceId)}>create an API key</Link> for it.
              </p>
            </Notice>
          ) : current.can("projects.manage") ? (
            <Card title="Project details" id="project-details" description={workspace.personal ? undefined : `The project belongs to the workspace “${workspace.name}”.`}>
              <ProjectForm workspaceId={workspace.workspaceId} onSaved={setCreated} onCancel={() => navigate(paths.inWorkspace("/projects", workspace.workspaceId))} />
            </Card>
          ) : (
            <Notice kind="info" title="Your role cannot create projects here.">
              In “{workspace.name}” you are a {roleLabel(workspace.role).toLowerCase()}: owners and admins create projects.
            </Notice>
          )
        }
      </InWorkspace>
    </AppShell>
  );
}
