import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Project } from "../api/dashboard.api";
import { projectsQuery } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link, useNavigate } from "../app/router";
import { Notice } from "../components/alerts";
import { ItemList, ProjectBadge, ResourceList } from "../components/data";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { ProjectForm } from "../components/project-form";

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
            <span>{p.lastUploadAt ? <>Last upload <time dateTime={p.lastUploadAt}>{formatDateTime(p.lastUploadAt)}</time></> : "No uploads yet"}</span>
            {p.status === "deleting" && <span className="badge badge-danger">Deleting…</span>}
          </p>
        </>
      )}
    </ItemList>
  );
}

export function ProjectsPage() {
  const projects = useQuery(projectsQuery());
  return (
    <AppShell
      title="Projects"
      description="Each project holds one app's builds and its API keys."
      actions={
        <Link to="/projects/new" className="button button-primary">
          New project
        </Link>
      }
    >
      <ResourceList
        query={projects}
        label="your projects"
        items={(page) => page.items}
        empty={
          <EmptyState title="Create your first project" icon={folderIcon} action={<Link to="/projects/new" className="button button-primary">Create a project</Link>}>
            <p>You have no projects yet. A project needs a name, a short description and a color, and comes before any API key.</p>
          </EmptyState>
        }
      >
        {(items) => <ProjectList projects={items} />}
      </ResourceList>
    </AppShell>
  );
}

export function NewProjectPage() {
  const navigate = useNavigate();
  const [created, setCreated] = useState<Project>();
  return (
    <AppShell title="New project" description="A project holds one app's builds and the API keys your CI uploads them with.">
      {created ? (
        <Notice title={`Project “${created.name}” created.`}>
          <p>
            <Link to={paths.project(created.projectId)}>Open the project</Link> or <Link to="/security/developer-settings">create an API key</Link> for it.
          </p>
        </Notice>
      ) : (
        <Card title="Project details" id="project-details">
          <ProjectForm onSaved={setCreated} onCancel={() => navigate("/projects")} />
        </Card>
      )}
    </AppShell>
  );
}
