import { useQuery } from "@tanstack/react-query";
import { testerInstallsQuery, workspaceTestersQuery } from "../api/testers.queries";
import type { Workspace } from "../api/workspaces.api";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link, useSearchParam } from "../app/router";
import { buildLabel } from "../app/testers";
import { useWorkspace } from "../app/workspace";
import { InWorkspace, Loaded } from "../components/data";
import { InstallTable } from "../components/install-table";
import { platformLabel } from "../components/file-list";
import { AppShell, Card, EmptyState } from "../components/layouts";
import "../styles/testers.css";

/**
 * One tester of the workspace (`?email=`; `?workspace=` says which workspace's view): the
 * groups they are in and every build they installed through their personal link or the portal,
 * newest first. Read-only for every role: groups are changed on the group's page.
 */
export function TesterPage() {
  const current = useWorkspace();
  const email = useSearchParam("email")?.trim() ?? "";
  return (
    <AppShell
      title={email || "Tester"}
      description="A tester of this workspace: their groups and what they installed."
      actions={
        <Link to={current.workspace ? paths.inWorkspace("/testers", current.workspace.workspaceId) : "/testers"} className="button button-secondary">
          All testers
        </Link>
      }
    >
      {email ? (
        <InWorkspace current={current}>{(workspace) => <Tester key={workspace.workspaceId} workspace={workspace} email={email} />}</InWorkspace>
      ) : (
        <EmptyState title="No tester chosen">
          <p>Open a tester from a group or from the list on the Testers page.</p>
        </EmptyState>
      )}
    </AppShell>
  );
}

function Tester({ workspace, email }: { workspace: Workspace; email: string }) {
  const testers = useQuery(workspaceTestersQuery(workspace.workspaceId));
  const installs = useQuery(testerInstallsQuery(workspace.workspaceId, email));
  const key = email.toLowerCase();
  return (
    <div className="stack">
      <Card title="Groups" id="tester-groups">
        <Loaded query={testers} label="the tester's groups">
          {(items) => {
            const groups = items.find((t) => t.email.toLowerCase() === key)?.groups ?? [];
            return groups.length ? (
              <ul className="chip-list" data-testid="tester-groups">
                {groups.map((g) => (
                  <li key={g.groupId}>
                    <Link to={paths.testerGroup(g.groupId)} className="chip">
                      {g.name}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">Not in any group of this workspace. Builds sent to them by address still reach them.</p>
            )
          }}
        </Loaded>
      </Card>
      <section aria-labelledby="installs-heading" className="section">
        <div className="section-header">
          <h2 id="installs-heading" className="section-title">
            Install history
          </h2>
          {installs.data && <span className="section-count">{installs.data.length}</span>}
        </div>
        <Loaded query={installs} label="the install history">
          {(items) =>
            items.length === 0 ? (
              <div className="panel">
                <EmptyState title="Nothing installed yet" headingLevel={3}>
                  <p>Downloads and installs through their personal link or the tester portal appear here. Send them a build from its page.</p>
                </EmptyState>
              </div>
            ) : (
              <InstallTable
                panel
                items={items}
                itemKey={(i) => i.fileId}
                rowHeader={{
                  label: "Build",
                  cell: (i) => (
                    <>
                      <Link to={paths.file(i.fileId)}>{buildLabel(i)}</Link> <span className="muted">{platformLabel(i.platform)}</span>
                    </>
                  ),
                }}
                columns={[
                  { label: "Project", cell: (i) => (i.projectName ? <Link to={paths.project(i.projectId)}>{i.projectName}</Link> : <span className="muted">A deleted project</span>) },
                  { label: "First", cell: (i) => formatDateTime(i.firstAt) },
                  { label: "Last", cell: (i) => formatDateTime(i.lastAt) },
                ]}
                caption={`Builds ${email} installed, newest first`}
                testId="tester-installs"
              />
            )
          }
        </Loaded>
      </section>
    </div>
  );
}
