import { AppShell, EmptyState } from "../components/layouts";
import { useAccount } from "../app/session";

const folderIcon = (
  <svg viewBox="0 0 24 24" focusable="false">
    <path d="M3 7a2 2 0 0 1 2-2h4.2a2 2 0 0 1 1.4.6L12 7h7a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7Z" />
    <path d="M12 11v5M9.5 13.5h5" />
  </svg>
);

const boxIcon = (
  <svg viewBox="0 0 24 24" focusable="false">
    <path d="m12 3 8 4.5v9L12 21l-8-4.5v-9L12 3Z" />
    <path d="m4 7.5 8 4.5 8-4.5M12 12v9" />
  </svg>
);

/**
 * Home: the account's projects and its latest files. Both lists are empty until projects exist
 * (projects, keys and files come with the next dashboard issue); nothing here is made up.
 */
export function DashboardPage() {
  const account = useAccount();
  const firstName = account.displayName?.split(/\s+/)[0];
  return (
    <AppShell title="Dashboard" description={firstName ? `Welcome, ${firstName}. Here are your projects and latest builds.` : undefined}>
      <div className="stack">
        <section aria-labelledby="projects-heading" className="section">
          <div className="section-header">
            <h2 id="projects-heading" className="section-title">
              Projects
            </h2>
          </div>
          <div className="panel">
            <EmptyState title="Create your first project" icon={folderIcon} headingLevel={3}>
              <p>A project holds one app's builds and the API keys your CI uploads them with. Your projects will be listed here.</p>
            </EmptyState>
          </div>
        </section>
        <section aria-labelledby="files-heading" className="section">
          <div className="section-header">
            <h2 id="files-heading" className="section-title">
              Latest files
            </h2>
          </div>
          <div className="panel">
            <EmptyState title="No builds yet" icon={boxIcon} headingLevel={3}>
              <p>Builds uploaded to any of your projects show up here, newest first, with their share links.</p>
            </EmptyState>
          </div>
        </section>
      </div>
    </AppShell>
  );
}
