import { AppShell, EmptyState } from "../components/layouts";

/** The projects list; creation and the list itself arrive with the projects API. */
export function ProjectsPage() {
  return (
    <AppShell title="Projects" description="Each project holds one app's builds and its API keys.">
      <div className="panel">
        <EmptyState
          title="Create your first project"
          icon={
            <svg viewBox="0 0 24 24" focusable="false">
              <path d="M3 7a2 2 0 0 1 2-2h4.2a2 2 0 0 1 1.4.6L12 7h7a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7Z" />
              <path d="M12 11v5M9.5 13.5h5" />
            </svg>
          }
        >
          <p>You have no projects yet. A project needs a name, a short description and a color, and comes before any API key.</p>
        </EmptyState>
      </div>
    </AppShell>
  );
}
