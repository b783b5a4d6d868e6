import { RenameWorkspace as RenameInput } from "@hangar/core/workspace-schema";
import { useState, type FormEvent } from "react";
import type { Workspace } from "../api/workspaces.api";
import { useDeleteWorkspace, useRenameWorkspace } from "../api/workspaces.queries";
import { formatDateTime } from "../app/format";
import { useNavigate } from "../app/router";
import { inTeamWords, roleAbilities, roleLabel, useWorkspace } from "../app/workspace";
import { Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { InWorkspace } from "../components/data";
import { TextField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card } from "../components/layouts";
import { schemaErrors, useForm, whenEmpty } from "../components/use-form";

/** Settings → Workspace: what it is and the caller's role; rename and delete for the roles that may. */
export function WorkspaceSettingsPage() {
  const current = useWorkspace();
  return (
    <AppShell title="Workspace" description="The current workspace's name, your role in it, and deleting it.">
      <InWorkspace current={current}>
        {(workspace) => (
          <div className="stack">
            <Card title="About this workspace" id="about-workspace">
              <dl className="facts">
                <div>
                  <dt>Name</dt>
                  <dd className="break-anywhere">{workspace.name}</dd>
                </div>
                <div>
                  <dt>Your role</dt>
                  <dd>
                    {roleLabel(workspace.role)} <span className="muted">— {roleAbilities(workspace.role)}</span>
                  </dd>
                </div>
                <div>
                  <dt>Members</dt>
                  <dd>{workspace.memberCount}</dd>
                </div>
                <div>
                  <dt>Created</dt>
                  <dd>{formatDateTime(workspace.createdAt, { dateOnly: true })}</dd>
                </div>
              </dl>
              {workspace.personal && <p className="muted">This is your personal workspace: it comes with your account and goes with it.</p>}
            </Card>
            {current.can("workspace.update") && <RenameWorkspace key={workspace.workspaceId} workspace={workspace} />}
            {current.can("workspace.delete") && !workspace.personal && <DeleteWorkspace key={workspace.workspaceId} workspace={workspace} />}
          </div>
        )}
      </InWorkspace>
    </AppShell>
  );
}

const RENAME_FIELDS = ["name"] as const;
const RENAME_LABELS = { name: "Workspace name" };
const RENAME_MESSAGES = { name: whenEmpty("Enter a workspace name.") };

function RenameWorkspace({ workspace }: { workspace: Workspace }) {
  const form = useForm(RENAME_FIELDS, RENAME_LABELS);
  const rename = useRenameWorkspace(workspace.workspaceId);
  const [name, setName] = useState(workspace.name);
  const [saved, setSaved] = useState(false);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const input = { name: name.trim() };
    void form.submit(schemaErrors(RenameInput, input, RENAME_LABELS, RENAME_MESSAGES), async () => {
      await inTeamWords(rename.mutateAsync(input.name));
      setSaved(true);
    });
  };
  return (
    <Card title="Rename" id="rename-workspace" description="Members see the new name in their workspace list and in mails.">
      <FormScaffold form={form} labels={RENAME_LABELS} onSubmit={onSubmit} notice={saved && <Notice>Workspace renamed.</Notice>} submit={{ label: "Save name", busyLabel: "Saving…" }}>
        <TextField name="name" label={RENAME_LABELS.name} maxLength={200} autoComplete="off" {...form.bind("name", name, setName)} />
      </FormScaffold>
    </Card>
  );
}

const DELETE_FIELDS = ["confirmName"] as const;
const DELETE_LABELS = { confirmName: "Workspace name" };

function DeleteWorkspace({ workspace }: { workspace: Workspace }) {
  const form = useForm(DELETE_FIELDS, DELETE_LABELS);
  const remove = useDeleteWorkspace(workspace.workspaceId);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [confirmName, setConfirmName] = useState("");
  const [deleting, setDeleting] = useState(false);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const clientErrors = { confirmName: confirmName.trim() === workspace.name ? undefined : `Type “${workspace.name}” exactly to confirm.` };
    void form.submit(clientErrors, async () => {
      const { status } = await inTeamWords(remove.mutateAsync(confirmName.trim()));
      if (status === "deleting") setDeleting(true);
      // Gone from the list: the dashboard falls back to the personal workspace.
      else navigate("/dashboard", { replace: true });
    });
  };
  if (deleting) {
    return (
      <Notice kind="info" title="This workspace is being deleted.">
        No one can use it or its keys any more; its projects, builds and the rest are being removed in the background.
      </Notice>
    );
  }
  return (
    <Card
      title="Delete workspace"
      id="delete-workspace"
      description="Deletes the workspace with everything in it: its projects with their builds, share links and API keys (uploads with them stop at once), its members' access, pending invitations and the audit log. This cannot be undone."
    >
      {open ? (
        <FormScaffold form={form} labels={DELETE_LABELS} onSubmit={onSubmit} actions={<DangerActions label="Delete this workspace" busyLabel="Deleting…" busy={form.busy} onCancel={() => setOpen(false)} />}>
          <TextField name="confirmName" label={`Type “${workspace.name}” to confirm`} autoComplete="off" {...form.bind("confirmName", confirmName, setConfirmName)} />
        </FormScaffold>
      ) : (
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete workspace…
        </Button>
      )}
    </Card>
  );
}
