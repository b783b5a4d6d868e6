import { CreateKey } from "@hangar/core/dashboard-schema";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { describeError } from "../api/api-client";
import type { ApiKey, CreatedKey, Project } from "../api/dashboard.api";
import { keysQuery, projectsQuery, useCreateKey, useRegenerateKey, useRevokeKey } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { roleLabel, useWorkspace } from "../app/workspace";
import type { Workspace } from "../api/workspaces.api";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { CopyButton, CopyField, InWorkspace, ItemList, Loaded, ResourceList } from "../components/data";
import { fieldId, TextField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { schemaErrors, useForm, whenEmpty } from "../components/use-form";
import "../styles/keys.css";

/**
 * Security → Developer Settings: the current workspace's API keys for CI, with who created each
 * (a key belongs to the workspace, not to the person); create, regenerate and revoke for the
 * roles the policy allows (`keys.manage`), the list for everyone else.
 */
export function DeveloperSettingsPage() {
  const current = useWorkspace();
  return (
    <AppShell title="Developer Settings" description="API keys let your CI upload builds to a project with the Hangar CLI.">
      <InWorkspace current={current}>{(workspace) => <Keys workspace={workspace} canManage={current.can("keys.manage")} canCreateProjects={current.can("projects.manage")} />}</InWorkspace>
    </AppShell>
  );
}

function Keys({ workspace, canManage, canCreateProjects }: { workspace: Workspace; canManage: boolean; canCreateProjects: boolean }) {
  const projects = useQuery(projectsQuery(workspace.workspaceId));
  const keys = useQuery(keysQuery(workspace.workspaceId));
  const [revealed, setRevealed] = useState<{ clientId: string; clientSecret: string; title: string }>();
  return (
    <div className="stack">
      {revealed && <SecretOnce {...revealed} onDone={() => setRevealed(undefined)} />}
      {canManage ? (
        <Card title="Create New Key" id="create-key" description="A key belongs to one project of the workspace; the CLI uploads to that project with it.">
          <Loaded query={projects} label="your projects">
            {({ items }) => {
              const active = items.filter((p) => p.status === "active");
              return active.length === 0 ? (
                <Notice kind="info" title="A key needs a project.">
                  {canCreateProjects ? (
                    <>
                      You have no project yet. <Link to={paths.inWorkspace("/projects/new", workspace.workspaceId)}>Create a project</Link> first, then come back to create its key.
                    </>
                  ) : (
                    "This workspace has no project yet. Ask an owner or admin to create one, then come back to create its key."
                  )}
                </Notice>
              ) : (
                <CreateKeyForm
                  projects={active}
                  onCreated={(key) => setRevealed({ clientId: key.clientId, clientSecret: key.clientSecret, title: `Key “${key.name}” created` })}
                />
              );
            }}
          </Loaded>
        </Card>
      ) : (
        <Notice kind="info" title="You can see this workspace's keys.">
          As a {roleLabel(workspace.role).toLowerCase()} in “{workspace.name}” you cannot create, regenerate or revoke them; developers, admins and owners can.
        </Notice>
      )}
      <section aria-labelledby="keys-heading" className="section">
        <div className="section-header">
          <h2 id="keys-heading" className="section-title">
            API keys
          </h2>
        </div>
        <ResourceList
          query={keys}
          label="your API keys"
          items={(page) => page.items}
          empty={
            <EmptyState title="No API keys yet" headingLevel={3}>
              <p>Keys you create appear here with their project, when they were last used and their status.</p>
            </EmptyState>
          }
        >
          {(items) => (
            <ItemList items={items} itemKey={(key) => key.clientId} className="key-list" itemClassName="key-row">
              {(key) => <KeyRow apiKey={key} canManage={canManage} onRegenerated={(secret) => setRevealed({ clientId: key.clientId, clientSecret: secret, title: `New secret for “${key.name}”` })} />}
            </ItemList>
          )}
        </ResourceList>
      </section>
    </div>
  );
}

/** The only place a secret is ever shown; it lives in this component's state and nowhere else. */
function SecretOnce({ clientId, clientSecret, title, onDone }: { clientId: string; clientSecret: string; title: string; onDone(): void }) {
  return (
    <section className="card secret-card" aria-labelledby="secret-title">
      <div className="card-header">
        <h2 className="card-title" id="secret-title" tabIndex={-1} ref={(el) => el?.focus()}>
          {title}
        </h2>
      </div>
      <div className="card-body">
        <div className="alert alert-warning" role="note">
          <p className="alert-title">Copy the client secret now. It will not be shown again.</p>
          <p>Hangar stores only a hash of it. If you lose it, regenerate the key and update your CI.</p>
        </div>
        <CopyField id="new-client-id" label="Client ID" value={clientId} />
        <CopyField id="new-client-secret" label="Client secret" value={clientSecret} secret />
        <CiSnippet origin={window.location.origin} clientId={clientId} clientSecret={clientSecret} />
        <div className="form-actions">
          <Button variant="secondary" onClick={onDone}>
            I have copied the secret
          </Button>
        </div>
      </div>
    </section>
  );
}

/** A word for a POSIX shell: as is when it is plainly safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The whole command a CI job (or a terminal) runs, with this instance's address: nothing to look
 * up. `secretWord` is the secret as a shell word, or the mask shown in its place.
 */
function ciCommand(origin: string, clientId: string, secretWord: string): string {
  return `HANGAR_URL=${shellWord(origin)} HANGAR_CLIENT_ID=${shellWord(clientId)} HANGAR_CLIENT_SECRET=${secretWord} npx --yes ${shellWord(`${origin}/cli/hangar-cli.tgz`)} upload app.apk`;
}

/**
 * The CLI command with this key, complete: the service serves the CLI itself, so the line works
 * on any machine with Node.js 18+ and no registry. The secret is masked on screen until
 * revealed (someone may be looking over a shoulder or sharing a screen); Copy always copies the
 * real command.
 */
function CiSnippet({ origin, clientId, clientSecret }: { origin: string; clientId: string; clientSecret: string }) {
  const [shown, setShown] = useState(false);
  const command = ciCommand(origin, clientId, shellWord(clientSecret));
  const onScreen = shown ? command : ciCommand(origin, clientId, "•".repeat(12));
  return (
    <div className="field ci-snippet">
      <h3 className="field-label" id="ci-snippet-title">
        Upload from CI
      </h3>
      <p className="field-hint" id="ci-snippet-hint">
        Run this in a CI job or a terminal with Node.js 18 or later, with <code>app.apk</code> replaced by your build&apos;s path. In CI, keep the
        secret in the CI&apos;s secret store and pass it as <code>HANGAR_CLIENT_SECRET</code>.
      </p>
      <pre className="code-block" aria-labelledby="ci-snippet-title" aria-describedby="ci-snippet-hint">
        <code id="ci-snippet">{onScreen}</code>
      </pre>
      <div className="form-actions-row">
        <button type="button" className="button button-secondary button-small" aria-pressed={shown} aria-controls="ci-snippet" onClick={() => setShown(!shown)}>
          {shown ? "Hide secret" : "Reveal secret"}
          <span className="visually-hidden"> in the CI command</span>
        </button>
        <CopyButton value={command} label="CI command" />
      </div>
    </div>
  );
}

const KEY_FIELDS = ["name", "projectId"] as const;
const KEY_LABELS = { name: "Key name", projectId: "Project" };
const KEY_MESSAGES = { name: whenEmpty("Enter a key name.") };

function CreateKeyForm({ projects, onCreated }: { projects: Project[]; onCreated(key: CreatedKey): void }) {
  const form = useForm(KEY_FIELDS, KEY_LABELS);
  const create = useCreateKey();
  const [name, setName] = useState("");
  const [projectId, setProjectId] = useState(projects.length === 1 ? projects[0]!.projectId : "");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = { name: name.trim(), projectId };
    // The schema takes any id (the API answers for one that is not the account's); the form asks for a choice.
    const clientErrors = { ...schemaErrors(CreateKey, input, KEY_LABELS, KEY_MESSAGES), ...(projectId ? {} : { projectId: "Select the project this key uploads to." }) };
    void form.submit(clientErrors, async () => {
      const key = await create.mutateAsync(input);
      setName("");
      onCreated(key);
    });
  };
  const projectError = form.fieldErrors.projectId;
  return (
    <FormScaffold form={form} labels={KEY_LABELS} onSubmit={onSubmit} submit={{ label: "Create key", busyLabel: "Creating key…" }}>
      <TextField
        name="name"
        label={KEY_LABELS.name}
        value={name}
        maxLength={200}
        autoComplete="off"
        hint="For example “GitHub Actions”. 1–80 characters."
        onValueChange={(v) => {
          setName(v);
          form.clearFieldError("name");
        }}
        error={form.fieldErrors.name}
      />
      <div className={`field${projectError ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={fieldId("projectId")}>
          {KEY_LABELS.projectId}
        </label>
        <select
          id={fieldId("projectId")}
          name="projectId"
          className="input select"
          value={projectId}
          required
          onChange={(e) => {
            setProjectId(e.target.value);
            form.clearFieldError("projectId");
          }}
          aria-invalid={projectError ? true : undefined}
          aria-describedby={projectError ? `${fieldId("projectId")}-error` : undefined}
        >
          <option value="">Select a project</option>
          {projects.map((p) => (
            <option key={p.projectId} value={p.projectId}>
              {p.name}
            </option>
          ))}
        </select>
        {projectError && (
          <p id={`${fieldId("projectId")}-error`} className="field-error">
            {projectError}
          </p>
        )}
      </div>
    </FormScaffold>
  );
}

/** One key's facts and its actions; the list refreshes itself after a change (the mutations invalidate it). */
function KeyRow({ apiKey: key, canManage, onRegenerated }: { apiKey: ApiKey; canManage: boolean; onRegenerated(secret: string): void }) {
  const regenerate = useRegenerateKey();
  const revoke = useRevokeKey();
  const [confirm, setConfirm] = useState<"regenerate" | "revoke">();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      if (confirm === "regenerate") {
        const { clientSecret } = await regenerate.mutateAsync(key.clientId);
        setConfirm(undefined);
        onRegenerated(clientSecret);
      } else {
        await revoke.mutateAsync(key.clientId);
        setConfirm(undefined);
      }
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  const active = key.status === "active";
  return (
    <>
      <div className="key-head">
        <h3 className="key-name">{key.name}</h3>
        <span className={`badge ${active ? "badge-success" : "badge-muted"}`}>{active ? "Active" : "Revoked"}</span>
      </div>
      <dl className="key-facts">
        <div>
          <dt>Project</dt>
          <dd>{key.projectName}</dd>
        </div>
        <div>
          <dt>Client ID</dt>
          <dd className="mono break-anywhere">{key.clientId}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            {formatDateTime(key.createdAt)}
            <span className="break-anywhere"> by {key.createdBy.email ?? "a former member"}</span>
          </dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</dd>
        </div>
      </dl>
      {error && <ErrorSummary message={error} />}
      {confirm ? (
        <div className="confirm" role="group" aria-label={confirm === "regenerate" ? "Confirm regenerate" : "Confirm revoke"}>
          <p>
            {confirm === "regenerate"
              ? `Regenerate the secret of “${key.name}”? The current secret stops working at once; update your CI with the new one.`
              : `Revoke “${key.name}”? Uploads with it stop working at once. Its usage history stays readable.`}
          </p>
          <DangerActions
            label={confirm === "regenerate" ? "Regenerate secret" : "Revoke key"}
            busyLabel={confirm === "regenerate" ? "Regenerating…" : "Revoking…"}
            busy={busy}
            onConfirm={() => void run()}
            onCancel={() => setConfirm(undefined)}
          />
        </div>
      ) : (
        <div className="form-actions-row">
          <Link to={paths.keyUsage(key.clientId)} className="button button-secondary button-small">
            Usage<span className="visually-hidden"> of {key.name}</span>
          </Link>
          {active && canManage && (
            <>
              <Button variant="secondary" className="button-small" onClick={() => setConfirm("regenerate")}>
                Regenerate<span className="visually-hidden"> {key.name}</span>
              </Button>
              <Button variant="secondary" className="button-small" onClick={() => setConfirm("revoke")}>
                Revoke<span className="visually-hidden"> {key.name}</span>
              </Button>
            </>
          )}
        </div>
      )}
    </>
  );
}
