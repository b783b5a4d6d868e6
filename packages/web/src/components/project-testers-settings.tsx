import { AppPageSettings as AppPageSettingsSchema, CreateUpdateToken } from "@hangar/core/app-pages-schema";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Project } from "../api/dashboard.api";
import type { AppPage, CreatedUpdateToken, Group, UpdateToken } from "../api/testers.api";
import {
  appPageQuery,
  defaultGroupsQuery,
  groupsQuery,
  updateTokensQuery,
  useCreateUpdateToken,
  useRevokeUpdateToken,
  useSetAppPage,
  useSetDefaultGroups,
} from "../api/testers.queries";
import { formatDateTime, formatRelative } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { describeTesterError, inTesterWords } from "../app/testers";
import { Notice } from "./alerts";
import { Button } from "./button";
import { ConfirmAction } from "./confirm-action";
import { CopyButton, CopyField, ItemList, Loaded } from "./data";
import { fieldId, PasswordField, TextField } from "./field";
import { FormScaffold } from "./form-scaffold";
import { Card } from "./layouts";
import { schemaErrors, useForm, whenEmpty } from "./use-form";
import "../styles/testers.css";

/**
 * A project's tester settings (issue 20): the groups every completed upload goes to, the public
 * app page (`/apps/<slug>`: the latest build per platform, on or off, optional password), and the
 * update tokens apps ship with to ask for a newer build. Everyone reads; `projects.manage` changes.
 */
export function ProjectTestersSettings({ project, canManage }: { project: Project; canManage: boolean }) {
  return (
    <>
      <DefaultGroups project={project} canManage={canManage} />
      <AppPageSettings project={project} canManage={canManage} />
      <UpdateTokens project={project} canManage={canManage} />
    </>
  );
}

function DefaultGroups({ project, canManage }: { project: Project; canManage: boolean }) {
  const groups = useQuery(groupsQuery(project.workspaceId));
  const chosen = useQuery(defaultGroupsQuery(project.projectId));
  return (
    <Card
      title="Default tester groups"
      id="default-groups"
      description="Every build uploaded to this project (from CI or here) is sent to these groups as soon as it is processed, with a mail to each tester."
    >
      <Loaded query={groups} label="the tester groups">
        {(all) => (
          <Loaded query={chosen} label="the default groups">
            {(ids) =>
              all.length === 0 ? (
                <p className="muted">
                  This workspace has no tester groups yet. <Link to={paths.inWorkspace("/testers", project.workspaceId)}>Create one on the Testers page</Link>, then choose it here.
                </p>
              ) : canManage ? (
                <DefaultGroupsForm project={project} groups={all} saved={ids} />
              ) : (
                <p data-testid="default-groups">{namesOf(all, ids) || <span className="muted">None: builds are sent to testers by hand or from CI.</span>}</p>
              )
            }
          </Loaded>
        )}
      </Loaded>
    </Card>
  );
}

const namesOf = (groups: readonly Group[], ids: readonly string[]) =>
  groups
    .filter((g) => ids.includes(g.groupId))
    .map((g) => g.name)
    .join(", ");

function DefaultGroupsForm({ project, groups, saved }: { project: Project; groups: readonly Group[]; saved: readonly string[] }) {
  const form = useForm(["groupIds"] as const, { groupIds: "Default groups" });
  const save = useSetDefaultGroups(project.projectId);
  const [chosen, setChosen] = useState<string[]>(() => saved.filter((id) => groups.some((g) => g.groupId === id)));
  const [done, setDone] = useState(false);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    void form.submit({}, async () => {
      await inTesterWords(save.mutateAsync(chosen));
      setDone(true);
    });
  };
  return (
    <FormScaffold form={form} labels={{ groupIds: "Default groups" }} onSubmit={onSubmit} notice={done && <Notice>Default groups saved.</Notice>} submit={{ label: "Save default groups", busyLabel: "Saving…" }} aria-label="Default tester groups">
      <fieldset className="field fieldset" id={fieldId("groupIds")} tabIndex={-1}>
        <legend className="visually-hidden">Groups every upload is sent to</legend>
        <ul className="check-list">
          {groups.map((g) => (
            <li key={g.groupId}>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.includes(g.groupId)}
                  onChange={(e) => {
                    setDone(false);
                    setChosen((current) => (e.target.checked ? [...current, g.groupId] : current.filter((c) => c !== g.groupId)));
                  }}
                />
                <span>
                  {g.name} <span className="muted">({g.testerCount} {g.testerCount === 1 ? "tester" : "testers"})</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
    </FormScaffold>
  );
}

function AppPageSettings({ project, canManage }: { project: Project; canManage: boolean }) {
  const query = useQuery(appPageQuery(project.projectId));
  return (
    <Card
      title="Public app page"
      id="app-page"
      description="One address that always offers the latest build per platform, with earlier builds below: for a wiki page or a QR code on the wall. Its address cannot be guessed."
    >
      <Loaded query={query} label="the app page">
        {(page) => (canManage ? <AppPageForm project={project} page={page} /> : <AppPageView page={page} />)}
      </Loaded>
    </Card>
  );
}

function AppPageView({ page }: { page: AppPage }) {
  if (!page.enabled || !page.url) return <p className="muted" data-testid="app-page-state">Off: this project has no public page.</p>;
  return (
    <>
      <CopyField id="app-page-url" label="App page address" value={page.url} />
      <p className="muted">{page.passwordProtected ? "Protected by a password." : "Open to anyone with the address."}</p>
    </>
  );
}

const PAGE_FIELDS = ["enabled", "password"] as const;
const PAGE_LABELS = { enabled: "Publish the app page", password: "Password" };

function AppPageForm({ project, page }: { project: Project; page: AppPage }) {
  const form = useForm(PAGE_FIELDS, PAGE_LABELS);
  const save = useSetAppPage(project.projectId);
  const [enabled, setEnabled] = useState(page.enabled);
  const [password, setPassword] = useState("");
  const [removePassword, setRemovePassword] = useState(false);
  const [notice, setNotice] = useState<string>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(undefined);
    const input = { enabled, ...(removePassword ? { password: null } : password ? { password } : {}) };
    // The very schema the API parses (core's AppPageSettings: the share links' password rules).
    void form.submit(schemaErrors(AppPageSettingsSchema, input, PAGE_LABELS), async () => {
      const answer = await inTesterWords(save.mutateAsync(input));
      setPassword("");
      setRemovePassword(false);
      setNotice(answer.enabled ? "App page saved. It is public at the address above." : "App page turned off. Its address answers that the page is not available.");
    });
  };
  const enabledId = fieldId("app-page-enabled");
  return (
    <div className="stack-tight">
      {page.enabled && page.url && <CopyField id="app-page-url" label="App page address" value={page.url} />}
      <FormScaffold form={form} labels={PAGE_LABELS} onSubmit={onSubmit} notice={notice && <Notice>{notice}</Notice>} submit={{ label: "Save app page", busyLabel: "Saving…" }} aria-label="Public app page">
        <div className="field">
          <label className="switch" htmlFor={enabledId}>
            <input id={enabledId} type="checkbox" role="switch" className="switch-input" checked={enabled} aria-describedby={`${enabledId}-hint`} onChange={(e) => setEnabled(e.target.checked)} />
            <span className="switch-track" aria-hidden="true" />
            <span className="field-label">{PAGE_LABELS.enabled}</span>
          </label>
          <div id={`${enabledId}-hint`} className="field-hint">
            Off: the address answers that the page is not available. On again, the same address works again.
          </div>
        </div>
        <PasswordField
          name="password"
          label={page.passwordProtected ? "New password" : PAGE_LABELS.password}
          optional
          autoComplete="new-password"
          value={password}
          disabled={removePassword}
          hint={page.passwordProtected ? "The page is protected; the password is never shown. Type a new one to change it." : "Visitors must type it before they see the builds. Share it by other means than the address."}
          onValueChange={(v) => {
            setPassword(v);
            form.clearFieldError("password");
          }}
          error={form.fieldErrors.password}
        />
        {page.passwordProtected && (
          <label className="checkbox" htmlFor="app-page-remove-password">
            <input id="app-page-remove-password" type="checkbox" checked={removePassword} onChange={(e) => { setRemovePassword(e.target.checked); if (e.target.checked) setPassword(""); }} />
            <span>Remove the password</span>
          </label>
        )}
      </FormScaffold>
      {page.enabled && page.url && (
        <div className="share-regenerate">
          <h3 className="subheading">New address</h3>
          <ConfirmAction
            trigger="Regenerate address…"
            onOpen={() => setNotice(undefined)}
            groupLabel="Confirm new app page address"
            question="Create a new address? The current one stops working at once, for everyone who has it."
            confirmLabel="Create new address"
            busyLabel="Creating…"
            run={async () => {
              await save.mutateAsync({ enabled: true, regenerate: true });
              setNotice("New address created. The old one no longer works: update the places that link to it.");
            }}
            describeError={describeTesterError}
            after="close"
          />
        </div>
      )}
    </div>
  );
}

function UpdateTokens({ project, canManage }: { project: Project; canManage: boolean }) {
  const tokens = useQuery(updateTokensQuery(project.projectId));
  const [created, setCreated] = useState<CreatedUpdateToken>();
  return (
    <Card
      title="Update tokens"
      id="update-tokens"
      description="A token your test builds ship with to ask Hangar whether a newer build exists (GET /api/updates/latest). It can do nothing else, so it is safe inside an app; revoke it to stop the checks."
    >
      <div className="stack-tight">
        {created && <CreatedToken token={created} onDismiss={() => setCreated(undefined)} />}
        <Loaded query={tokens} label="the update tokens">
          {(items) =>
            items.length === 0 ? (
              <p className="muted">{canManage ? "No update tokens yet. Create one below and put it in your app's test configuration." : "This project has no update tokens."}</p>
            ) : (
              <ItemList items={items} itemKey={(t) => t.tokenId} className="key-list" itemClassName="key-row" testId="update-tokens">
                {(token) => <TokenRow project={project} token={token} canManage={canManage} />}
              </ItemList>
            )
          }
        </Loaded>
        {canManage && <CreateTokenForm project={project} onCreated={setCreated} />}
      </div>
    </Card>
  );
}

function TokenRow({ project, token, canManage }: { project: Project; token: UpdateToken; canManage: boolean }) {
  const revoke = useRevokeUpdateToken(project.projectId);
  return (
    <>
      <div className="key-head">
        <h3 className="key-name">{token.name}</h3>
      </div>
      <dl className="key-facts">
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(token.createdAt, { dateOnly: true })}</dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{token.lastUsedAt ? formatRelative(token.lastUsedAt) : "Never"}</dd>
        </div>
      </dl>
      {canManage && (
        <ConfirmAction
          trigger={
            <>
              Revoke<span className="visually-hidden"> {token.name}</span>
            </>
          }
          triggerClassName="button-small"
          triggerBlock
          groupLabel={`Confirm revoking ${token.name}`}
          question={<>Revoke “{token.name}”? Apps that carry it can no longer ask for updates; builds already installed keep working otherwise.</>}
          confirmLabel="Revoke token"
          busyLabel="Revoking…"
          run={async () => void (await revoke.mutateAsync(token.tokenId))}
          describeError={describeTesterError}
          after="stay"
        />
      )}
    </>
  );
}

const TOKEN_FIELDS = ["name"] as const;
const TOKEN_LABELS = { name: "Token name" };

function CreateTokenForm({ project, onCreated }: { project: Project; onCreated(token: CreatedUpdateToken): void }) {
  const form = useForm(TOKEN_FIELDS, TOKEN_LABELS);
  const create = useCreateUpdateToken(project.projectId);
  const [name, setName] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    void form.submit(schemaErrors(CreateUpdateToken, { name: trimmed }, TOKEN_LABELS, { name: whenEmpty("Enter a name, like “iOS beta”.") }), async () => {
      onCreated(await inTesterWords(create.mutateAsync(trimmed)));
      setName("");
    });
  };
  return (
    <FormScaffold form={form} labels={TOKEN_LABELS} onSubmit={onSubmit} submit={{ label: "Create token", busyLabel: "Creating…" }} aria-label="Create update token">
      <TextField name="name" label={TOKEN_LABELS.name} autoComplete="off" maxLength={80} hint="Where it is used, so you know which to revoke: “iOS beta”, “Android QA”." {...form.bind("name", name, setName)} />
    </FormScaffold>
  );
}

/** The token, shown this once, with the few lines an app needs to use it (the full snippets are in docs/testers.md). */
function CreatedToken({ token, onDismiss }: { token: CreatedUpdateToken; onDismiss(): void }) {
  const origin = window.location.origin;
  const swift = `var url = URLComponents(string: "${origin}/api/updates/latest")!
let info = Bundle.main.infoDictionary
url.queryItems = [
  URLQueryItem(name: "platform", value: "ios"),
  URLQueryItem(name: "bundleId", value: Bundle.main.bundleIdentifier),
  URLQueryItem(name: "version", value: info?["CFBundleShortVersionString"] as? String),
  URLQueryItem(name: "build", value: info?["CFBundleVersion"] as? String),
]
var request = URLRequest(url: url.url!)
request.setValue("Bearer ${token.token}", forHTTPHeaderField: "Authorization")
let (data, response) = try await URLSession.shared.data(for: request)
// 200: a newer build; its JSON has version, build, releaseNotes and installUrl. 204: up to date.`;
  const kotlin = `val url = URL("${origin}/api/updates/latest?platform=android" +
  "&bundleId=\${BuildConfig.APPLICATION_ID}&version=\${BuildConfig.VERSION_NAME}&build=\${BuildConfig.VERSION_CODE}")
val connection = url.openConnection() as HttpURLConnection
connection.setRequestProperty("Authorization", "Bearer ${token.token}")
// 200: a newer build; its JSON has version, build, releaseNotes and installUrl. 204: up to date.
if (connection.responseCode == 200) showUpdate(connection.inputStream.bufferedReader().readText())`;
  return (
    <div className="secret-card card-inset" role="region" aria-labelledby="created-token-title">
      <h3 className="subheading" id="created-token-title">
        Token “{token.name}” created
      </h3>
      <Notice kind="info" title="Copy it now: Hangar shows it only this once.">
        Put it in your test builds&apos; configuration. If it is lost, create another and revoke this one.
      </Notice>
      <CopyField id="update-token" label="Update token" value={token.token} />
      <details className="snippets">
        <summary>Use it in your app (Swift and Kotlin)</summary>
        <p className="field-hint">Ask at launch; on 200, offer the install link. The full examples, with the answer&apos;s fields, are in Hangar&apos;s docs/testers.md (“The app page and the update check”).</p>
        <h4 className="field-label" id="swift-snippet-title">Swift (iOS)</h4>
        <pre className="code-block" aria-labelledby="swift-snippet-title">
          <code>{swift}</code>
        </pre>
        <CopyButton value={swift} label="Swift snippet" />
        <h4 className="field-label" id="kotlin-snippet-title">Kotlin (Android)</h4>
        <pre className="code-block" aria-labelledby="kotlin-snippet-title">
          <code>{kotlin}</code>
        </pre>
        <CopyButton value={kotlin} label="Kotlin snippet" />
      </details>
      <div>
        <Button variant="secondary" className="button-small" onClick={onDismiss}>
          I have copied it
        </Button>
      </div>
    </div>
  );
}
