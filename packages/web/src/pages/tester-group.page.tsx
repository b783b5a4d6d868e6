import { useQuery } from "@tanstack/react-query";
import { useRef, useState, type ChangeEvent, type FormEvent } from "react";
import type { AddTestersAnswer, GroupDetail, GroupTester } from "../api/testers.api";
import { groupQuery, useAddTesters, useCreateInviteLink, useDeleteGroup, useRemoveTester, useRenameGroup, useRevokeInviteLink } from "../api/testers.queries";
import { formatDateTime, formatRelative } from "../app/format";
import { paths } from "../app/paths";
import { Link, useNavigate } from "../app/router";
import { describeTesterError, INVITE_STATE_LABEL, inTesterWords, inviteLinkState, lastInstallLabel, MAX_ADDRESSES, parseAddresses } from "../app/testers";
import { useWorkspace } from "../app/workspace";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { ConfirmAction } from "../components/confirm-action";
import { CopyField, Loaded } from "../components/data";
import { fieldId, TextField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { useForm } from "../components/use-form";
import { groupNameError } from "./testers.page";
import "../styles/testers.css";

/**
 * One tester group: its testers (how each joined, the last build they installed), adding
 * addresses (typed, pasted or imported from a .txt/.csv read in the browser) and removing them,
 * the self-service invite link (create with an optional expiry and cap, copy, replace, revoke),
 * and rename/delete. Controls only for `testers.manage`; everyone else reads.
 */
export function TesterGroupPage({ groupId }: { groupId: string }) {
  const query = useQuery(groupQuery(groupId));
  const workspaceId = query.data?.workspaceId;
  const { can } = useWorkspace(workspaceId);
  const manage = Boolean(workspaceId) && can("testers.manage");
  return (
    <AppShell
      title={query.data?.name ?? "Tester group"}
      description={query.data ? `${query.data.testerCount} ${query.data.testerCount === 1 ? "tester" : "testers"}` : undefined}
      workspaceId={workspaceId}
      actions={
        <Link to={workspaceId ? paths.inWorkspace("/testers", workspaceId) : "/testers"} className="button button-secondary">
          All groups
        </Link>
      }
    >
      <Loaded query={query} label="the group">
        {(group) => (
          <div className="stack">
            {manage && <AddTesters group={group} />}
            <Testers group={group} manage={manage} />
            <InviteLinkCard group={group} manage={manage} />
            {manage && <GroupSettings group={group} />}
          </div>
        )}
      </Loaded>
    </AppShell>
  );
}

const ADD_FIELDS = ["emails"] as const;
const ADD_LABELS = { emails: "E-mail addresses" };

function AddTesters({ group }: { group: GroupDetail }) {
  const form = useForm(ADD_FIELDS, ADD_LABELS);
  const add = useAddTesters(group.groupId);
  const [text, setText] = useState("");
  const [result, setResult] = useState<AddTestersAnswer>();
  const [imported, setImported] = useState<string>();
  const fileInput = useRef<HTMLInputElement | null>(null);
  const addresses = parseAddresses(text);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setResult(undefined);
    const problem =
      addresses.length === 0 ? "Enter at least one e-mail address, like name@example.com."
      : addresses.length > MAX_ADDRESSES ? `Add at most ${MAX_ADDRESSES.toLocaleString("en-US")} addresses at once (this list has ${addresses.length.toLocaleString("en-US")}).`
      : undefined;
    void form.submit({ emails: problem }, async () => {
      const answer = await inTesterWords(add.mutateAsync(addresses));
      setResult(answer);
      // What was refused stays in the box to be corrected; the rest is done.
      setText(answer.invalid.join("\n"));
      setImported(undefined);
    });
  };
  // Read in the browser: the file never leaves it, only the addresses found in it do.
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const found = parseAddresses(await file.text());
    setText((current) => [current.trim(), ...found].filter(Boolean).join("\n"));
    setImported(`${found.length} ${found.length === 1 ? "address" : "addresses"} found in ${file.name}. Check the list, then add them.`);
    form.clearFieldError("emails");
  };
  const id = fieldId("emails");
  return (
    <Card title="Add testers" id="add-testers" description="They need no Hangar account: builds sent to this group reach them by mail, with a personal install link.">
      <FormScaffold
        form={form}
        labels={ADD_LABELS}
        onSubmit={onSubmit}
        notice={
          <>
            {result && <AddResult result={result} />}
            {imported && <Notice kind="info">{imported}</Notice>}
          </>
        }
        submit={{ label: addresses.length > 1 ? `Add ${addresses.length} testers` : "Add testers", busyLabel: "Adding…" }}
      >
        <div className={`field${form.fieldErrors.emails ? " field-invalid" : ""}`}>
          <label className="field-label" htmlFor={id}>
            {ADD_LABELS.emails}
          </label>
          <p className="field-hint" id={`${id}-hint`}>
            One or many, separated by commas or new lines. Or import a .txt or .csv file: every address in it is picked up.
          </p>
          <textarea
            id={id}
            name="emails"
            className="input textarea"
            rows={4}
            value={text}
            spellCheck={false}
            autoCapitalize="none"
            aria-invalid={form.fieldErrors.emails ? true : undefined}
            aria-describedby={[`${id}-hint`, form.fieldErrors.emails ? `${id}-error` : ""].filter(Boolean).join(" ")}
            onChange={(e) => {
              setText(e.target.value);
              form.clearFieldError("emails");
            }}
          />
          {form.fieldErrors.emails && (
            <p id={`${id}-error`} className="field-error">
              {form.fieldErrors.emails}
            </p>
          )}
        </div>
        <div className="file-import">
          <input ref={fileInput} id="testers-import" type="file" accept=".txt,.csv,text/plain,text/csv" className="visually-hidden" tabIndex={-1} aria-hidden="true" onChange={(e) => void onFile(e)} />
          <Button variant="secondary" className="button-small" onClick={() => fileInput.current?.click()}>
            Import from a file…
          </Button>
        </div>
      </FormScaffold>
    </Card>
  );
}

function AddResult({ result }: { result: AddTestersAnswer }) {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [
    result.added.length ? `${n(result.added.length, "tester", "testers")} added` : "",
    result.already.length ? `${n(result.already.length, "was", "were")} in the group already` : "",
  ].filter(Boolean);
  return (
    <Notice kind={result.invalid.length ? "info" : "success"} title={parts.length ? `${parts.join("; ")}.` : "Nobody was added."}>
      {result.invalid.length > 0 && (
        <p>
          {n(result.invalid.length, "entry is", "entries are")} not an e-mail address and stayed in the box to correct: {result.invalid.join(", ")}.
        </p>
      )}
    </Notice>
  );
}

function Testers({ group, manage }: { group: GroupDetail; manage: boolean }) {
  const joined = group.testers.filter((t) => t.source === "joined").length;
  return (
    <section aria-labelledby="testers-heading" className="section">
      <div className="section-header">
        <h2 id="testers-heading" className="section-title">
          Testers
        </h2>
        <span className="section-count" data-testid="group-count">
          {group.testers.length}
          {joined > 0 && ` · ${joined} joined by link`}
        </span>
      </div>
      {group.testers.length === 0 ? (
        <div className="panel">
          <EmptyState title="No testers in this group yet" headingLevel={3}>
            {manage ? <p>Add their addresses above, or create an invite link below and share it: people who open it add themselves.</p> : <p>Owners and admins add testers here.</p>}
          </EmptyState>
        </div>
      ) : (
        <div className="panel table-panel">
          <table className="table" data-testid="group-testers">
            <caption className="visually-hidden">Testers of {group.name}</caption>
            <thead>
              <tr>
                <th scope="col">Tester</th>
                <th scope="col">How they joined</th>
                <th scope="col">Last installed</th>
                {manage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {group.testers.map((tester) => (
                <TesterRow key={tester.email} group={group} tester={tester} manage={manage} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function TesterRow({ group, tester, manage }: { group: GroupDetail; tester: GroupTester; manage: boolean }) {
  const remove = useRemoveTester(group.groupId);
  return (
    <tr>
      <th scope="row" className="break-anywhere">
        <Link to={paths.tester(tester.email, group.workspaceId)}>{tester.email}</Link>
      </th>
      <td data-label="How they joined">
        {tester.source === "joined" ? <span className="badge badge-accent">Joined by link</span> : <span className="badge badge-muted">Added</span>}{" "}
        <span className="muted nowrap">{formatDateTime(tester.addedAt, { dateOnly: true })}</span>
      </td>
      <td data-label="Last installed">
        {tester.lastInstall ? (
          <>
            <Link to={paths.file(tester.lastInstall.fileId)}>{lastInstallLabel(tester.lastInstall)}</Link> <span className="muted nowrap">{formatRelative(tester.lastInstall.at)}</span>
          </>
        ) : (
          <span className="muted">Nothing yet</span>
        )}
      </td>
      {manage && (
        <td className="table-actions">
          <ConfirmAction
            trigger={
              <>
                Remove<span className="visually-hidden"> {tester.email}</span>
              </>
            }
            triggerClassName="button-small"
            groupLabel={`Confirm removing ${tester.email}`}
            question={
              <>
                Remove {tester.email} from “{group.name}”? Builds already sent stay in their portal.
              </>
            }
            confirmLabel="Remove"
            busyLabel="Removing…"
            run={async () => void (await remove.mutateAsync(tester.email))}
            describeError={describeTesterError}
            after="stay"
          />
        </td>
      )}
    </tr>
  );
}

const LINK_FIELDS = ["expiresAt", "maxMembers"] as const;
const LINK_LABELS = { expiresAt: "Expires", maxMembers: "Most people who can join" };

function InviteLinkCard({ group, manage }: { group: GroupDetail; manage: boolean }) {
  const link = group.inviteLink;
  const state = inviteLinkState(link);
  const revoke = useRevokeInviteLink(group.groupId);
  const [editing, setEditing] = useState(false);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const joined = group.testers.filter((t) => t.source === "joined");
  const doRevoke = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await revoke.mutateAsync();
      setConfirmRevoke(false);
      setNotice("Invite link revoked. It no longer works; people who joined stay in the group.");
    } catch (e) {
      setError(describeTesterError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      title="Invite link"
      id="invite-link"
      description="Share it in a chat or on a wiki page: whoever opens it enters their address, confirms it by mail and is in this group."
    >
      <div className="stack-tight">
        {error && <ErrorSummary message={error} />}
        {notice && <Notice>{notice}</Notice>}
        {link ? (
          <>
            <p>
              <span className={`badge ${state === "open" ? "badge-success" : "badge-warning"}`} data-testid="invite-link-state">
                {INVITE_STATE_LABEL[state]}
              </span>
            </p>
            <CopyField id="invite-link-url" label="Invite link address" value={link.url} />
            <dl className="key-facts">
              <div>
                <dt>Created</dt>
                <dd>{formatDateTime(link.createdAt)}</dd>
              </div>
              <div>
                <dt>Expires</dt>
                <dd>{link.expiresAt ? formatDateTime(link.expiresAt) : "Never"}</dd>
              </div>
              <div>
                <dt>Joined</dt>
                <dd data-testid="invite-link-joined">{link.maxMembers === null ? `${link.joinedCount} (no limit)` : `${link.joinedCount} of ${link.maxMembers}`}</dd>
              </div>
            </dl>
          </>
        ) : (
          <p className="muted" data-testid="invite-link-state">
            {manage ? "No invite link yet: testers are added by address above." : "This group has no invite link."}
          </p>
        )}
        <div>
          <h3 className="subheading">Who joined through a link</h3>
          {joined.length ? (
            <ul className="plain-list" data-testid="joined-testers">
              {joined.map((t) => (
                <li key={t.email}>
                  <span className="break-anywhere">{t.email}</span> <span className="muted">{formatDateTime(t.addedAt)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nobody yet.</p>
          )}
        </div>
        {manage &&
          (editing ? (
            <InviteLinkForm
              group={group}
              onDone={(created) => {
                setEditing(false);
                setNotice(created ? (link ? "New invite link created. The previous one no longer works." : "Invite link created. Copy it and share it with your testers.") : undefined);
              }}
            />
          ) : confirmRevoke ? (
            <div className="confirm" role="group" aria-label="Confirm revoking the invite link">
              <p>Revoke the invite link? It stops working at once; the people who joined through it stay in the group.</p>
              <DangerActions label="Revoke link" busyLabel="Revoking…" busy={busy} onConfirm={() => void doRevoke()} onCancel={() => setConfirmRevoke(false)} />
            </div>
          ) : (
            <div className="form-actions-row">
              <Button
                variant={link ? "secondary" : "primary"}
                onClick={() => {
                  setNotice(undefined);
                  setEditing(true);
                }}
              >
                {link ? "Replace link…" : "Create invite link…"}
              </Button>
              {link && (
                <Button
                  variant="secondary"
                  onClick={() => {
                    setNotice(undefined);
                    setConfirmRevoke(true);
                  }}
                >
                  Revoke link…
                </Button>
              )}
            </div>
          ))}
      </div>
    </Card>
  );
}

/** A `datetime-local` value (local time, minutes) for a date. */
const toLocalInput = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

function InviteLinkForm({ group, onDone }: { group: GroupDetail; onDone(created: boolean): void }) {
  const form = useForm(LINK_FIELDS, LINK_LABELS);
  const create = useCreateInviteLink(group.groupId);
  const [expiresAt, setExpiresAt] = useState(() => toLocalInput(new Date(Date.now() + 14 * 86_400_000)));
  const [maxMembers, setMaxMembers] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const expiry = expiresAt ? new Date(expiresAt) : null;
    const cap = maxMembers.trim() === "" ? null : Number(maxMembers);
    const errors = {
      expiresAt:
        expiry && Number.isNaN(expiry.getTime()) ? "Enter a date and time."
        : expiry && expiry.getTime() <= Date.now() ? "Choose a time in the future, or leave it empty for a link that does not expire."
        : undefined,
      maxMembers: cap !== null && (!Number.isInteger(cap) || cap < 1 || cap > 1000) ? "Enter a whole number from 1 to 1,000, or leave it empty for no limit." : undefined,
    };
    void form.submit(errors, async () => {
      await inTesterWords(create.mutateAsync({ expiresAt: expiry ? expiry.toISOString() : null, maxMembers: cap }));
      onDone(true);
    });
  };
  return (
    <FormScaffold
      form={form}
      labels={LINK_LABELS}
      onSubmit={onSubmit}
      aria-label="Invite link settings"
      notice={group.inviteLink && <Notice kind="info">The current link stops working when the new one is created.</Notice>}
      submit={{ label: group.inviteLink ? "Replace link" : "Create link", busyLabel: "Creating…" }}
      actions={
        <Button variant="secondary" onClick={() => onDone(false)}>
          Cancel
        </Button>
      }
    >
      <TextField name="expiresAt" label={LINK_LABELS.expiresAt} type="datetime-local" optional hint="Your local time. Empty: the link never expires." {...form.bind("expiresAt", expiresAt, setExpiresAt)} />
      <TextField
        name="maxMembers"
        label={LINK_LABELS.maxMembers}
        type="number"
        inputMode="numeric"
        min={1}
        max={1000}
        step={1}
        optional
        hint="After this many people joined, the link says it is full. Empty: no limit."
        {...form.bind("maxMembers", maxMembers, setMaxMembers)}
      />
    </FormScaffold>
  );
}

const RENAME_FIELDS = ["name"] as const;
const RENAME_LABELS = { name: "Group name" };

function GroupSettings({ group }: { group: GroupDetail }) {
  const form = useForm(RENAME_FIELDS, RENAME_LABELS);
  const rename = useRenameGroup(group.groupId);
  const remove = useDeleteGroup(group.groupId);
  const navigate = useNavigate();
  const [name, setName] = useState(group.name);
  const [saved, setSaved] = useState(false);
  const onRename = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void form.submit({ name: groupNameError(name) }, async () => {
      await inTesterWords(rename.mutateAsync(name.trim()));
      setSaved(true);
    });
  };
  const onDelete = async () => {
    await remove.mutateAsync();
    navigate(paths.inWorkspace("/testers", group.workspaceId), { replace: true });
  };
  return (
    <Card title="Group settings" id="group-settings">
      <FormScaffold form={form} labels={RENAME_LABELS} onSubmit={onRename} notice={saved && <Notice>Group renamed.</Notice>} submit={{ label: "Rename group", busyLabel: "Saving…" }} aria-label="Rename group">
        <TextField name="name" label={RENAME_LABELS.name} autoComplete="off" hint="CI names groups by id or name (--groups qa,beta): after a rename, a CI job that names it must use the new name." {...form.bind("name", name, setName)} />
      </FormScaffold>
      <div className="share-regenerate">
        <h3 className="subheading">Delete group</h3>
        <ConfirmAction
          trigger="Delete group…"
          triggerVariant="danger"
          groupLabel="Confirm deleting the group"
          question={
            <>
              Delete “{group.name}” and its invite link? Its {group.testerCount} {group.testerCount === 1 ? "tester stays" : "testers stay"} in other groups they are in, and keep the builds already sent to them. Projects stop sending uploads to it.
            </>
          }
          confirmLabel="Delete group"
          busyLabel="Deleting…"
          run={onDelete}
          describeError={describeTesterError}
          after="stay"
        />
      </div>
    </Card>
  );
}
