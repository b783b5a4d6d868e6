import { dashboardApi } from "../api/dashboard.api";
import { Link } from "../app/router";
import { useAccount } from "../app/session";
import { Loaded, useLoad } from "../components/data";
import { FileList, groupFiles } from "../components/file-list";
import { AppShell, EmptyState } from "../components/layouts";
import { folderIcon, ProjectList } from "./projects.page";

const boxIcon = (
  <svg viewBox="0 0 24 24" focusable="false">
    <path d="m12 3 8 4.5v9L12 21l-8-4.5v-9L12 3Z" />
    <path d="m4 7.5 8 4.5 8-4.5M12 12v9" />
  </svg>
);

/** Home: the account's projects and the latest builds across them. */
export function DashboardPage() {
  const account = useAccount();
  const firstName = account.displayName?.split(/\s+/)[0];
  const [projects, reloadProjects] = useLoad(() => dashboardApi.projects(), []);
  const [files, reloadFiles] = useLoad(() => dashboardApi.latestFiles(), []);
  const names = new Map(projects.status === "ready" ? projects.data.items.map((p) => [p.projectId, p.name]) : []);
  return (
    <AppShell
      title="Dashboard"
      description={firstName ? `Welcome, ${firstName}. Here are your projects and latest builds.` : undefined}
      actions={
        <Link to="/projects/new" className="button button-primary">
          New project
        </Link>
      }
    >
      <div className="stack">
        <section aria-labelledby="projects-heading" className="section">
          <div className="section-header">
            <h2 id="projects-heading" className="section-title">
              Projects
            </h2>
          </div>
          <Loaded load={projects} retry={reloadProjects} label="your projects">
            {({ items }) =>
              items.length === 0 ? (
                <div className="panel">
                  <EmptyState title="Create your first project" icon={folderIcon} headingLevel={3} action={<Link to="/projects/new" className="button button-primary">Create a project</Link>}>
                    <p>A project holds one app's builds and the API keys your CI uploads them with. Your projects will be listed here.</p>
                  </EmptyState>
                </div>
              ) : (
                <ProjectList projects={items} headingLevel={3} />
              )
            }
          </Loaded>
        </section>
        <section aria-labelledby="files-heading" className="section">
          <div className="section-header">
            <h2 id="files-heading" className="section-title">
              Latest builds
            </h2>
          </div>
          <Loaded load={files} retry={reloadFiles} label="the latest builds">
            {({ items }) => {
              // Rejected uploads apart from the builds, as on a project's page.
              const { builds, rejected } = groupFiles(items);
              return (
                <>
                  {builds.length === 0 ? (
                    <div className="panel">
                      <EmptyState title="No builds yet" icon={boxIcon} headingLevel={3}>
                        <p>Builds uploaded to any of your projects show up here, newest first, with their share links.</p>
                      </EmptyState>
                    </div>
                  ) : (
                    <div className="panel">
                      <FileList files={builds} showProject projectNames={names} />
                    </div>
                  )}
                  {rejected.length > 0 && (
                    <section aria-labelledby="rejected-heading" className="section">
                      <h3 id="rejected-heading" className="section-title">
                        Recently rejected uploads
                      </h3>
                      <div className="panel">
                        <FileList files={rejected} showProject projectNames={names} />
                      </div>
                    </section>
                  )}
                </>
              );
            }}
          </Loaded>
        </section>
      </div>
    </AppShell>
  );
}
