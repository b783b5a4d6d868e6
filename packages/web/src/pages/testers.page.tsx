import { CreateGroup, MAX_GROUP_NAME } from "@hangar/core/tester-groups-schema";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Group, WorkspaceTester } from "../api/testers.api";
import { groupsQuery, useCreateGroup, workspaceTestersQuery } from "../api/testers.queries";
import type { Workspace } from "../api/workspaces.api";
import { formatRelative } from "../app/format";
import { paths } from "../app/paths";
import { Link, useNavigate } from "../app/router";
import { INVITE_STATE_LABEL, inTesterWords, inviteLinkState, inviteLinkSummary, lastInstallLabel } from "../app/testers";
import { useWorkspace, type CurrentWorkspace } from "../app/workspace";
import { InWorkspace, ItemList, ResourceList } from "../components/data";
import { TextField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { schemaErrors, useForm, whenEmpty } from "../components/use-form";
import "../styles/testers.css";

/**
 * Testers: the workspace's tester groups (name, how many testers, the invite link's state) and,
 * for owners and admins (`testers.manage`), a new group; below, every tester of the workspace
 * with their groups and the last build they installed. A tester is an e-mail address, not an
 * account: they never sign in to the dashboard.
 */
export function TestersPage() {
  const current = useWorkspace();
  return (
    <AppShell
      title="Testers"
      description="Groups of people who get your builds by mail, and what each of them installed."
      actions={
        current.workspace ? (
          <Link to={paths.inWorkspace("/testers/devices", current.workspace.workspaceId)} className="button button-secondary">
            Devices
          </Link>
        ) : undefined
      }
    >
      <InWorkspace current={current}>{(workspace) => <Testers key={workspace.workspaceId} workspace={workspace} can={current.can} />}</InWorkspace>
    </AppShell>
  );
}

function Testers({ workspace, can }: { workspace: Workspace; can: CurrentWorkspace["can"] }) {
  const groups = useQuery(groupsQuery(workspace.workspaceId));
  const testers = useQuery(workspaceTestersQuery(workspace.workspaceId));
  const manage = can("testers.manage");
  return (
    <div className="stack">
      {manage && (
        <Card title="New group" id="new-group" description="A group is a list of addresses you send builds to: “QA”, “Beta”, “Client”. A tester can be in several.">
          <NewGroupForm workspaceId={workspace.workspaceId} />
        </Card>
      )}
      <section aria-labelledby="groups-heading" className="section">
        <div className="section-header">
          <h2 id="groups-heading" className="section-title">
            Groups
          </h2>
          {groups.data && <span className="section-count">{groups.data.length}</span>}
        </div>
        <ResourceList
          query={groups}
          label="the tester groups"
          items={(items) => items}
          empty={
            <EmptyState title="No tester groups yet" headingLevel={3}>
              {manage ? (
                <p>Create one above, then add testers by address or share its invite link. Builds you send to the group reach everyone in it by mail.</p>
              ) : (
                <p>Owners and admins of this workspace create groups here; you can then send builds to them from a build’s page.</p>
              )}
            </EmptyState>
          }
        >
          {(items) => (
            <ItemList items={items} itemKey={(g) => g.groupId} className="key-list" itemClassName="key-row" testId="groups">
              {(group) => <GroupRow group={group} />}
            </ItemList>
          )}
        </ResourceList>
      </section>
      <section aria-labelledby="people-heading" className="section">
        <div className="section-header">
          <h2 id="people-heading" className="section-title">
            All testers
          </h2>
          {testers.data && <span className="section-count">{testers.data.length}</span>}
        </div>
        <ResourceList
          query={testers}
          label="the testers"
          items={(items) => items}
          empty={
            <EmptyState title="No testers yet" headingLevel={3}>
              <p>Everyone in one of the groups above is listed here, with the last build they installed.</p>
            </EmptyState>
          }
        >
          {(items) => (
            <div className="panel table-panel">
              <TesterTable testers={items} workspaceId={workspace.workspaceId} />
            </div>
          )}
        </ResourceList>
      </section>
    </div>
  );
}

function GroupRow({ group }: { group: Group }) {
  const state = inviteLinkState(group.inviteLink);
  return (
    <>
      <div className="key-head">
        <h3 className="key-name">
          <Link to={paths.testerGroup(group.groupId)}>{group.name}</Link>
        </h3>
        <span className={`badge ${state === "open" ? "badge-success" : "badge-muted"}`}>{INVITE_STATE_LABEL[state]}</span>
      </div>
      <dl className="key-facts">
        <div>
          <dt>Testers</dt>
          <dd data-testid="group-tester-count">{group.testerCount}</dd>
        </div>
        <div>
          <dt>Invite link</dt>
          <dd>{group.inviteLink ? inviteLinkSummary(group.inviteLink) : "None: testers are added by address"}</dd>
        </div>
      </dl>
    </>
  );
}

/** Every tester of the workspace: their groups and the last build they installed. */
function TesterTable({ testers, workspaceId }: { testers: readonly WorkspaceTester[]; workspaceId: string }) {
  return (
    <table className="table" data-testid="workspace-testers">
      <caption className="visually-hidden">Testers of this workspace</caption>
      <thead>
        <tr>
          <th scope="col">Tester</th>
          <th scope="col">Groups</th>
          <th scope="col">Last installed</th>
        </tr>
      </thead>
      <tbody>
        {testers.map((t) => (
          <tr key={t.email}>
            <th scope="row" className="break-anywhere">
              <Link to={paths.tester(t.email, workspaceId)}>{t.email}</Link>
            </th>
            <td data-label="Groups">{t.groups.length ? t.groups.map((g) => g.name).join(", ") : <span className="muted">None</span>}</td>
            <td data-label="Last installed">
              {t.lastInstall ? (
                <>
                  <Link to={paths.file(t.lastInstall.fileId)}>{lastInstallLabel(t.lastInstall)}</Link>{" "}
                  <span className="muted">{formatRelative(t.lastInstall.at)}</span>
                </>
              ) : (
                <span className="muted">Nothing yet</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const GROUP_FIELDS = ["name"] as const;
const GROUP_LABELS = { name: "Group name" };

/** A group name as the API checks it (core's `GroupName`: 1–60 characters, no comma), in the form's words. */
export const groupNameError = (name: string) => schemaErrors(CreateGroup, { name }, GROUP_LABELS, { name: whenEmpty("Enter a name for the group.") }).name;
export const GROUP_NAME_HINT = `Up to ${MAX_GROUP_NAME} characters, no commas: CI names groups with --groups qa,beta.`;

function NewGroupForm({ workspaceId }: { workspaceId: string }) {
  const form = useForm(GROUP_FIELDS, GROUP_LABELS);
  const create = useCreateGroup(workspaceId);
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit({ name: groupNameError(name) }, async () => {
      const group = await inTesterWords(create.mutateAsync(name.trim()));
      // Next comes adding its testers, which its page does.
      navigate(paths.testerGroup(group.groupId));
    });
  };
  return (
    <FormScaffold form={form} labels={GROUP_LABELS} onSubmit={onSubmit} submit={{ label: "Create group", busyLabel: "Creating…" }}>
      <TextField name="name" label={GROUP_LABELS.name} autoComplete="off" hint={GROUP_NAME_HINT} {...form.bind("name", name, setName)} />
    </FormScaffold>
  );
}
