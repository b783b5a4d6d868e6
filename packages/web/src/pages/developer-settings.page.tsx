import { Link } from "../app/router";
import { AppShell, EmptyState } from "../components/layouts";

/** Security → Developer Settings: where API keys for CI will be created, listed and revoked. */
export function DeveloperSettingsPage() {
  return (
    <AppShell title="Developer Settings" description="API keys let your CI upload builds to a project.">
      <div className="panel">
        <EmptyState
          title="No API keys yet"
          icon={
            <svg viewBox="0 0 24 24" focusable="false">
              <circle cx="8" cy="14" r="4" />
              <path d="m11 11 9-9M17 5l2 2M15 7l2 2" />
            </svg>
          }
        >
          <p>
            Every key belongs to a project, so <Link to="/projects">create a project</Link> first. The key's secret is shown once, when it is created.
          </p>
        </EmptyState>
      </div>
    </AppShell>
  );
}
