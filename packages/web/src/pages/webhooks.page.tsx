import { CreateWebhook, UpdateWebhook, WEBHOOK_EVENTS, WEBHOOK_TYPES, type WebhookType } from "@hangar/core/webhooks-schema";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "../api/api-client";
import type { Project } from "../api/dashboard.api";
import { projectsQuery } from "../api/dashboard.queries";
import type { Delivery, Webhook, WebhookEventType, WebhookWithSecret } from "../api/webhooks.api";
import {
  deliveriesQuery,
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliver,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhook,
  webhooksQuery,
} from "../api/webhooks.queries";
import type { Workspace } from "../api/workspaces.api";
import { formatDateTime, formatRelative } from "../app/format";
import { describeTeamError, inTeamWords, roleLabel, useWorkspace } from "../app/workspace";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { CopyField, InWorkspace, ItemList, ResourceList } from "../components/data";
import { fieldId, TextField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { schemaErrors, useForm, whenEmpty, type FormState } from "../components/use-form";
import "../styles/webhooks.css";

/**
 * Settings → Webhooks (issue 21, docs/webhooks.md): the workspace's endpoints — signed JSON for
 * your own systems, Slack and Microsoft Teams messages — with what each receives, its state and its
 * delivery log. Owners and admins (`webhooks.manage`) add, change, test, rotate and delete; every
 * other member reads. The "turned off" mail links here (core/webhooks/deliver.ts builds the link).
 */
export function WebhooksPage() {
  const current = useWorkspace();
  return (
    <AppShell title="Webhooks" description="Tell your chat and your own systems when a build lands, is sent to testers or is deleted.">
      <InWorkspace current={current}>{(workspace) => <Webhooks key={workspace.workspaceId} workspace={workspace} canManage={current.can("webhooks.manage")} />}</InWorkspace>
    </AppShell>
  );
}

const TYPE_LABEL: Record<WebhookType, string> = { webhook: "Webhook", slack: "Slack", teams: "Microsoft Teams" };

const TYPE_HINT: Record<WebhookType, string> = {
  webhook: "Signed JSON (Standard Webhooks) for your own systems: CI, deploy pipelines, bots.",
  slack: "A Slack incoming-webhook URL (Slack app → Incoming Webhooks). Posts a message with an Install button.",
  teams: "A Microsoft Teams Workflows URL (“Post to a channel when a webhook request is received”). Posts an Adaptive Card.",
};

/** What each event means, in a person's words (docs/webhooks.md documents the payloads). */
const EVENT_HINT: Record<WebhookEventType, string> = {
  "build.completed": "a build was uploaded and processed",
  "build.rejected": "an upload could not be read as an APK or IPA",
  "build.distributed": "a build was sent to testers",
  "build.deleted": "a build was deleted",
  "link.settings_changed": "a build's share link settings changed",
  "key.created": "an API key was created",
  "key.revoked": "an API key was revoked",
  "tester.joined": "someone became a tester of a group",
};

/** A Slack or Teams URL is the channel's secret: the page shows its host only (docs/webhooks.md). */
const shownUrl = (hook: Pick<Webhook, "type" | "url">) => (hook.type === "webhook" ? hook.url : `${new URL(hook.url).host} (the rest of the URL is its secret)`);
const nameOf = (hook: Pick<Webhook, "description" | "url">) => hook.description || new URL(hook.url).host;

function Webhooks({ workspace, canManage }: { workspace: Workspace; canManage: boolean }) {
  const hooks = useQuery(webhooksQuery(workspace.workspaceId));
  const projects = useQuery(projectsQuery(workspace.workspaceId));
  const [revealed, setRevealed] = useState<{ secret: WebhookWithSecret; rotated: boolean }>();
  const [adding, setAdding] = useState(false);
  const projectList = projects.data?.items ?? [];
  const empty = hooks.data?.length === 0;
  return (
    <div className="stack">
      {revealed && <SecretOnce hook={revealed.secret} rotated={revealed.rotated} onDone={() => setRevealed(undefined)} />}
      {!canManage && (
        <Notice kind="info" title="You can see this workspace's webhooks and their delivery logs.">
          As a {roleLabel(workspace.role).toLowerCase()} in “{workspace.name}” you cannot add, change, test or delete them; owners and admins can.
        </Notice>
      )}
      {canManage &&
        (adding || empty ? (
          <Card title="Add an endpoint" id="add-webhook" description="Hangar POSTs each event you choose to this URL, retrying for about 24 hours until it answers 2xx within 10 seconds.">
            <WebhookForm
              workspaceId={workspace.workspaceId}
              projects={projectList}
              onCreated={(secret) => {
                setAdding(false);
                setRevealed({ secret, rotated: false });
              }}
              onCancel={empty ? undefined : () => setAdding(false)}
            />
          </Card>
        ) : (
          <div>
            <Button onClick={() => setAdding(true)}>Add endpoint</Button>
          </div>
        ))}
      <section aria-labelledby="webhooks-heading" className="section">
        <div className="section-header">
          <h2 id="webhooks-heading" className="section-title">
            Endpoints
          </h2>
          {hooks.data && <span className="section-count">{hooks.data.length}</span>}
        </div>
        <ResourceList
          query={hooks}
          label="the webhooks"
          items={(items) => items}
          empty={
            <EmptyState title="No endpoints yet" headingLevel={3}>
              <p>
                {canManage
                  ? "Add one above: your CI, a deploy pipeline, a Slack or Teams channel. Send it a test event to see what it will receive."
                  : "Owners and admins can add endpoints that are told when builds land, are sent to testers or are deleted."}
              </p>
            </EmptyState>
          }
        >
          {(items) => (
            <ItemList items={items} itemKey={(h) => h.webhookId} className="key-list" itemClassName="key-row webhook-row" testId="webhooks">
              {(hook) => <WebhookRow hook={hook} projects={projectList} canManage={canManage} onRotated={(secret) => setRevealed({ secret, rotated: true })} />}
            </ItemList>
          )}
        </ResourceList>
      </section>
    </div>
  );
}

/** The only place a signing secret is shown: this component's state, until "I have copied it". */
function SecretOnce({ hook, rotated, onDone }: { hook: WebhookWithSecret; rotated: boolean; onDone(): void }) {
  return (
    <section className="card secret-card" aria-labelledby="webhook-secret-title">
      <div className="card-header">
        <h2 className="card-title break-anywhere" id="webhook-secret-title" tabIndex={-1} ref={(el) => el?.focus()}>
          {rotated ? `New signing secret for “${nameOf(hook)}”` : `Endpoint “${nameOf(hook)}” added`}
        </h2>
      </div>
      <div className="card-body">
        <div className="alert alert-warning" role="note">
          <p className="alert-title">Copy the signing secret now. It will not be shown again.</p>
          {rotated && hook.previousSecretExpiresAt ? (
            <p>
              The previous secret keeps signing beside this one until <time dateTime={hook.previousSecretExpiresAt}>{formatDateTime(hook.previousSecretExpiresAt)}</time> (24 hours),
              so your receiver can switch without missing a delivery.
            </p>
          ) : (
            <p>Your receiver verifies each delivery with it (any Standard Webhooks library). If you lose it, rotate the secret.</p>
          )}
        </div>
        {hook.type !== "webhook" && <p className="muted">Slack and Teams do not check signatures; you only need the secret if you later point this endpoint at your own receiver.</p>}
        <CopyField id="webhook-secret" label="Signing secret" value={hook.secret} secret />
        <div className="form-actions">
          <Button variant="secondary" onClick={onDone}>
            I have copied the secret
          </Button>
        </div>
      </div>
    </section>
  );
}

const FORM_FIELDS = ["type", "url", "description", "events", "projectIds", "branchFilter"] as const;
type FormField = (typeof FORM_FIELDS)[number];
const FORM_LABELS: Record<FormField, string> = {
  type: "Type",
  url: "URL",
  description: "Description",
  events: "Events",
  projectIds: "Projects",
  branchFilter: "Branch filter",
};
const FORM_MESSAGES = { url: whenEmpty("Enter the URL Hangar should POST to."), events: (value: unknown) => (Array.isArray(value) && value.length === 0 ? "Choose at least one event." : undefined) };

/** Adding an endpoint (no `hook`), or changing one. A Slack or Teams URL left empty when changing is kept. */
function WebhookForm({
  workspaceId,
  projects,
  hook,
  onCreated,
  onSaved,
  onCancel,
}: {
  workspaceId: string;
  projects: readonly Project[];
  hook?: Webhook;
  onCreated?(secret: WebhookWithSecret): void;
  onSaved?(): void;
  onCancel?: (() => void) | undefined;
}) {
  const form = useForm(FORM_FIELDS, FORM_LABELS);
  const create = useCreateWebhook(workspaceId);
  const update = useUpdateWebhook(hook?.webhookId ?? "");
  const secretUrl = hook !== undefined && hook.type !== "webhook";
  const [type, setType] = useState<WebhookType>(hook?.type ?? "webhook");
  const [url, setUrl] = useState(hook && !secretUrl ? hook.url : "");
  const [description, setDescription] = useState(hook?.description ?? "");
  const [events, setEvents] = useState<WebhookEventType[]>(hook?.events ?? ["build.completed"]);
  const [projectIds, setProjectIds] = useState<string[]>(hook?.projectIds ?? []);
  const [branchFilter, setBranchFilter] = useState(hook?.branchFilter ?? "");
  // Each endpoint's form has its own field ids (the error summary links to them), the add form the plain ones.
  const prefix = hook ? `hook-${hook.webhookId}-` : "";
  const id = (field: FormField) => fieldId(`${prefix}${field}`);
  const scoped: FormState<string> = prefix ? { ...form, fieldErrors: Object.fromEntries(Object.entries(form.fieldErrors).map(([k, v]) => [`${prefix}${k}`, v])) } : (form as FormState<string>);
  const scopedLabels = Object.fromEntries(Object.entries(FORM_LABELS).map(([k, v]) => [`${prefix}${k}`, v]));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const branch = branchFilter.trim();
    const common = { description: description.trim(), events: WEBHOOK_EVENTS.filter((e) => events.includes(e)), projectIds, branchFilter: branch === "" ? null : branch };
    if (!hook) {
      const input = { type, url: url.trim(), ...common };
      void form.submit(schemaErrors(CreateWebhook, input, FORM_LABELS, FORM_MESSAGES), async () => {
        onCreated?.(await inTeamWords(create.mutateAsync(input)));
      });
      return;
    }
    const change = { ...common, ...(url.trim() !== "" ? { url: url.trim() } : {}) };
    void form.submit(schemaErrors(UpdateWebhook, change, FORM_LABELS, FORM_MESSAGES), async () => {
      await inTeamWords(update.mutateAsync(change));
      onSaved?.();
    });
  };
  const toggle = <T extends string>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));
  return (
    <div className="webhook-form">
      <FormScaffold
        form={scoped}
        labels={scopedLabels}
        onSubmit={onSubmit}
        aria-label={hook ? `Change “${nameOf(hook)}”` : "Add an endpoint"}
        submit={hook ? { label: "Save changes", busyLabel: "Saving…" } : { label: "Add endpoint", busyLabel: "Adding…" }}
        actions={
          onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          )
        }
      >
        {!hook && (
          <div className="field">
            <label className="field-label" htmlFor={id("type")}>
              {FORM_LABELS.type}
            </label>
            <select id={id("type")} className="input select" value={type} aria-describedby={`${id("type")}-hint`} onChange={(e) => setType(e.target.value as WebhookType)}>
              {WEBHOOK_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </select>
            <p className="field-hint" id={`${id("type")}-hint`}>
              {TYPE_HINT[type]}
            </p>
          </div>
        )}
        <TextField
          name={`${prefix}url`}
          label={FORM_LABELS.url}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          maxLength={2000}
          value={url}
          optional={secretUrl}
          hint={secretUrl ? "Leave empty to keep the current URL (it is the channel's secret, so it is not shown)." : "https:// only. Hangar resolves the name itself and never calls private or internal addresses."}
          onValueChange={(v) => {
            setUrl(v);
            form.clearFieldError("url");
          }}
          error={form.fieldErrors.url}
        />
        <TextField
          name={`${prefix}description`}
          label={FORM_LABELS.description}
          optional
          maxLength={200}
          autoComplete="off"
          value={description}
          hint="Who or what receives it, for example “Deploy bot” or “#mobile-releases”."
          onValueChange={(v) => {
            setDescription(v);
            form.clearFieldError("description");
          }}
          error={form.fieldErrors.description}
        />
        <fieldset className={`field fieldset${form.fieldErrors.events ? " field-invalid" : ""}`} id={id("events")} tabIndex={-1} aria-describedby={form.fieldErrors.events ? `${id("events")}-error` : undefined}>
          <legend className="field-label">{FORM_LABELS.events}</legend>
          {form.fieldErrors.events && (
            <p id={`${id("events")}-error`} className="field-error">
              {form.fieldErrors.events}
            </p>
          )}
          <ul className="check-list">
            {WEBHOOK_EVENTS.map((e) => (
              <li key={e}>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={events.includes(e)}
                    onChange={(change) => {
                      setEvents(toggle(events, e, change.target.checked));
                      form.clearFieldError("events");
                    }}
                  />
                  <span>
                    <code>{e}</code> <span className="muted">{EVENT_HINT[e]}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {projects.length > 0 && (
          <fieldset className="field fieldset" id={id("projectIds")} tabIndex={-1}>
            <legend className="field-label">
              {FORM_LABELS.projectIds} <span className="field-optional">(none chosen: every project)</span>
            </legend>
            <ul className="check-list">
              {projects.map((p) => (
                <li key={p.projectId}>
                  <label className="checkbox">
                    <input type="checkbox" checked={projectIds.includes(p.projectId)} onChange={(change) => setProjectIds(toggle(projectIds, p.projectId, change.target.checked))} />
                    <span>{p.name}</span>
                  </label>
                </li>
              ))}
            </ul>
            {projectIds.length > 0 && events.includes("tester.joined") && <p className="field-hint">Tester events belong to no project: with projects chosen, tester.joined never matches.</p>}
          </fieldset>
        )}
        <TextField
          name={`${prefix}branchFilter`}
          label={FORM_LABELS.branchFilter}
          optional
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          value={branchFilter}
          hint="Only builds of matching branches: main, release/* (one level), feature/** (any depth). Empty: every branch. Builds without a branch never match a filter."
          onValueChange={(v) => {
            setBranchFilter(v);
            form.clearFieldError("branchFilter");
          }}
          error={form.fieldErrors.branchFilter}
        />
      </FormScaffold>
    </div>
  );
}

function StateBadge({ hook }: { hook: Webhook }) {
  if (hook.enabled) return <span className="badge badge-success">On</span>;
  return <span className={`badge ${hook.disabledReason === "failing" ? "badge-danger" : "badge-muted"}`}>{hook.disabledReason === "failing" ? "Turned off: failing" : "Off"}</span>;
}

/** A row action's state: busy while it runs, its refusal in team words until the next try. */
function useRowAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<unknown>, after?: () => void) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      after?.();
    } catch (e) {
      setError(describeWebhookError(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

function describeWebhookError(error: unknown): string {
  if (error instanceof ApiError && error.code === "webhook_disabled") return "This endpoint is turned off: turn it on first, then send it events.";
  return describeTeamError(error);
}

type Mode = "view" | "edit" | "delete" | "rotate";

function WebhookRow({ hook, projects, canManage, onRotated }: { hook: Webhook; projects: readonly Project[]; canManage: boolean; onRotated(secret: WebhookWithSecret): void }) {
  const [mode, setMode] = useState<Mode>("view");
  const [logOpen, setLogOpen] = useState(false);
  const [tested, setTested] = useState<string>();
  const update = useUpdateWebhook(hook.webhookId);
  const remove = useDeleteWebhook(hook.webhookId);
  const rotate = useRotateWebhookSecret(hook.webhookId);
  const test = useSendTestEvent(hook.webhookId);
  const action = useRowAction();
  const name = nameOf(hook);
  const projectNames = hook.projectIds.map((id) => projects.find((p) => p.projectId === id)?.name ?? "a deleted project");
  const headingId = fieldId(`hook-${hook.webhookId}-name`);
  return (
    <article aria-labelledby={headingId} className="stack-tight">
      <div className="key-head">
        <h3 className="key-name break-anywhere" id={headingId}>
          {name}
        </h3>
        <span className="badge badge-accent">{TYPE_LABEL[hook.type]}</span>
        <StateBadge hook={hook} />
      </div>
      {!hook.enabled && <DisabledExplained hook={hook} canManage={canManage} />}
      <dl className="key-facts">
        <div>
          <dt>URL</dt>
          <dd className="break-anywhere">{shownUrl(hook)}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd className="break-anywhere">{hook.events.join(", ")}</dd>
        </div>
        <div>
          <dt>Projects</dt>
          <dd className="break-anywhere">{projectNames.length > 0 ? projectNames.join(", ") : "Every project"}</dd>
        </div>
        <div>
          <dt>Branches</dt>
          <dd className="break-anywhere">{hook.branchFilter ?? "Every branch"}</dd>
        </div>
        <div>
          <dt>Failed attempts in a row</dt>
          <dd>{hook.failureStreak}</dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>{formatDateTime(hook.createdAt, { dateOnly: true })}</dd>
        </div>
        {hook.previousSecretExpiresAt && (
          <div>
            <dt>Previous secret</dt>
            <dd>
              signs too until <time dateTime={hook.previousSecretExpiresAt}>{formatDateTime(hook.previousSecretExpiresAt)}</time>
            </dd>
          </div>
        )}
      </dl>
      {action.error && <ErrorSummary message={action.error} />}
      {tested && <Notice>{tested}</Notice>}
      {canManage && mode === "edit" && (
        <WebhookForm workspaceId={hook.workspaceId} projects={projects} hook={hook} onSaved={() => setMode("view")} onCancel={() => setMode("view")} />
      )}
      {canManage && mode === "delete" && (
        <div className="confirm" role="group" aria-label={`Confirm deleting ${name}`}>
          <p>Delete “{name}” with its delivery log? It gets nothing more, retries included. This cannot be undone.</p>
          <DangerActions label="Delete endpoint" busyLabel="Deleting…" busy={action.busy} onConfirm={() => void action.run(() => remove.mutateAsync())} onCancel={() => setMode("view")} />
        </div>
      )}
      {canManage && mode === "rotate" && (
        <div className="confirm confirm-neutral" role="group" aria-label={`Confirm a new secret for ${name}`}>
          <p>Make a new signing secret? The current one keeps signing beside it for 24 hours, so your receiver can switch to the new one without missing a delivery.</p>
          <div className="form-actions-row">
            <Button busy={action.busy} busyLabel="Rotating…" onClick={() => void action.run(async () => onRotated(await rotate.mutateAsync()), () => setMode("view"))}>
              Rotate secret
            </Button>
            <Button variant="secondary" onClick={() => setMode("view")}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {canManage && mode === "view" && (
        <div className="form-actions-row webhook-actions">
          <Button variant="secondary" className="button-small" onClick={() => setMode("edit")}>
            Edit<span className="visually-hidden"> {name}</span>
          </Button>
          <Button
            variant="secondary"
            className="button-small"
            busy={action.busy && update.isPending}
            busyLabel={hook.enabled ? "Turning off…" : "Turning on…"}
            onClick={() => void action.run(() => update.mutateAsync({ enabled: !hook.enabled }))}
          >
            {hook.enabled ? "Turn off" : "Turn on"}
            <span className="visually-hidden"> {name}</span>
          </Button>
          <Button variant="secondary" className="button-small" onClick={() => setMode("rotate")}>
            Rotate secret<span className="visually-hidden"> of {name}</span>
          </Button>
          <Button variant="danger" className="button-small" onClick={() => setMode("delete")}>
            Delete<span className="visually-hidden"> {name}</span>
          </Button>
        </div>
      )}
      {canManage && mode === "view" && hook.enabled && (
        <TestEventForm
          hook={hook}
          busy={test.isPending}
          onSend={(event) =>
            void action.run(
              () => test.mutateAsync(event),
              () => {
                setTested(`Test ${event} event sent. Its delivery is at the top of the log.`);
                setLogOpen(true);
              },
            )
          }
        />
      )}
      <div>
        <button type="button" className="button button-secondary button-small" aria-expanded={logOpen} aria-controls={`log-${hook.webhookId}`} onClick={() => setLogOpen(!logOpen)}>
          {logOpen ? "Hide delivery log" : "Show delivery log"}
          <span className="visually-hidden"> of {name}</span>
        </button>
      </div>
      <div id={`log-${hook.webhookId}`} hidden={!logOpen}>
        {logOpen && <DeliveryLog hook={hook} canManage={canManage} />}
      </div>
    </article>
  );
}

/** Why an endpoint is off and what to do about it: the page the "turned off" mail links to. */
function DisabledExplained({ hook, canManage }: { hook: Webhook; canManage: boolean }) {
  return (
    <div className="alert alert-warning" role="note">
      {hook.disabledReason === "failing" ? (
        <>
          <p className="alert-title">Hangar turned this endpoint off after {hook.failureStreak} failed deliveries in a row.</p>
          <p>
            Its receiver did not answer with a 2xx status within 10 seconds, for about 12 hours or more; the delivery log below says what it answered. While it is off it
            gets no events, no retries and no test events.
          </p>
          <p>
            {canManage
              ? "Fix the receiver, then turn the endpoint on below, send it a test event, and redeliver from the log what it missed (deliveries are kept 30 days)."
              : "Once the receiver is fixed, an owner or admin can turn it on here and redeliver from the log what it missed (deliveries are kept 30 days)."}
          </p>
        </>
      ) : (
        <>
          <p className="alert-title">This endpoint is turned off.</p>
          <p>
            A member turned it off. It gets no events, no retries and no test events until {canManage ? "you turn it on below" : "an owner or admin turns it on"}.
          </p>
        </>
      )}
    </div>
  );
}

function TestEventForm({ hook, busy, onSend }: { hook: Webhook; busy: boolean; onSend(event: WebhookEventType): void }) {
  const [event, setEvent] = useState<WebhookEventType>(hook.events[0] ?? "build.completed");
  const selectId = fieldId(`hook-${hook.webhookId}-test`);
  return (
    <form
      className="form-actions-row test-event"
      aria-label={`Send a test event to ${nameOf(hook)}`}
      onSubmit={(e) => {
        e.preventDefault();
        onSend(event);
      }}
    >
      <label className="field-label" htmlFor={selectId}>
        Test event
      </label>
      <select id={selectId} className="input select select-small" value={event} onChange={(e) => setEvent(e.target.value as WebhookEventType)}>
        {WEBHOOK_EVENTS.map((e) => (
          <option key={e} value={e}>
            {e}
          </option>
        ))}
      </select>
      <Button type="submit" variant="secondary" className="button-small" busy={busy} busyLabel="Sending…">
        Send test event
      </Button>
    </form>
  );
}

const STATE_LABEL: Record<Delivery["state"], string> = { pending: "Pending", succeeded: "Delivered", failed: "Failed" };
const STATE_BADGE: Record<Delivery["state"], string> = { pending: "badge-warning", succeeded: "badge-success", failed: "badge-danger" };

/** The endpoint's deliveries, newest first, 50 a page ("Load more"), each with its attempts. */
function DeliveryLog({ hook, canManage }: { hook: Webhook; canManage: boolean }) {
  const query = useInfiniteQuery(deliveriesQuery(hook.webhookId));
  const deliveries = query.data?.pages.flatMap((page) => page.items) ?? [];
  const state = query.isPending || query.isFetchingNextPage || (query.isError && query.isFetching) ? "loading" : query.isError ? "error" : "ready";
  return (
    <div className="stack-tight delivery-log">
      <h4 className="delivery-log-title">Delivery log</h4>
      {state === "ready" && deliveries.length === 0 && <p className="muted">No deliveries in the last 30 days. {canManage && hook.enabled ? "Send a test event to see one." : ""}</p>}
      {deliveries.length > 0 && (
        <ItemList items={deliveries} itemKey={(d) => d.deliveryId} className="delivery-list" itemClassName="delivery-row" testId={`deliveries-${hook.webhookId}`}>
          {(delivery) => <DeliveryRow delivery={delivery} hook={hook} canManage={canManage} />}
        </ItemList>
      )}
      {state === "loading" && (
        <p className="loading-line" role="status">
          <span className="spinner spinner-dark" aria-hidden="true" /> Loading the delivery log…
        </p>
      )}
      {state === "error" && (
        <ErrorSummary message={`Could not load the delivery log. ${describeTeamError(query.error)}`}>
          <div className="alert-actions">
            <Button variant="secondary" className="button-small" onClick={() => void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch())}>
              Try again
            </Button>
          </div>
        </ErrorSummary>
      )}
      {state === "ready" && query.hasNextPage && (
        <div>
          <Button variant="secondary" className="button-small" onClick={() => void query.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

function DeliveryRow({ delivery, hook, canManage }: { delivery: Delivery; hook: Webhook; canManage: boolean }) {
  const redeliver = useRedeliver(hook.webhookId);
  const action = useRowAction();
  const [sent, setSent] = useState(false);
  const last = delivery.attempts.at(-1);
  return (
    <>
      <div className="key-head">
        <code className="delivery-event">{delivery.event}</code>
        <span className={`badge ${STATE_BADGE[delivery.state]}`}>{STATE_LABEL[delivery.state]}</span>
        {delivery.test && <span className="badge badge-muted">Test</span>}
        <span className="muted delivery-when">
          <time dateTime={delivery.createdAt} title={formatDateTime(delivery.createdAt)}>
            {formatRelative(delivery.createdAt)}
          </time>
        </span>
      </div>
      <p className="muted delivery-summary break-anywhere">
        {delivery.attempts.length === 0 ? "Not attempted yet." : `${delivery.attempts.length} ${delivery.attempts.length === 1 ? "attempt" : "attempts"}; last: ${attemptOutcome(last!)}.`}
        {delivery.nextAttemptAt && delivery.attempts.length > 0 && (
          <>
            {" "}
            Next attempt <time dateTime={delivery.nextAttemptAt}>{formatRelative(delivery.nextAttemptAt)}</time>.
          </>
        )}{" "}
        <span className="delivery-id">
          webhook-id <code>{delivery.deliveryId}</code>
        </span>
      </p>
      {delivery.attempts.length > 0 && (
        <details className="snippets delivery-attempts">
          <summary>
            Attempts<span className="visually-hidden"> of {delivery.event} delivery {delivery.deliveryId}</span>
          </summary>
          <div className="table-panel">
            <table className="table attempts-table">
              <caption className="visually-hidden">
                Attempts of delivery {delivery.deliveryId} ({delivery.event})
              </caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Status</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Response (first 2 KB) or error</th>
                </tr>
              </thead>
              <tbody>
                {delivery.attempts.map((a) => (
                  <tr key={a.attempt}>
                    <th scope="row">
                      <span className="attempt-number">Attempt </span>
                      {a.attempt}
                    </th>
                    <td className="nowrap" data-label="When">
                      <time dateTime={a.at}>{formatDateTime(a.at)}</time>
                    </td>
                    <td data-label="Status">{a.status ?? "No answer"}</td>
                    <td className="nowrap" data-label="Latency">
                      {a.latencyMs} ms
                    </td>
                    <td data-label="Response">
                      {a.error && <p className="field-error">{a.error}</p>}
                      {a.responseBody ? <pre className="response-excerpt">{a.responseBody}</pre> : !a.error && <span className="muted">Empty body</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
      {action.error && <ErrorSummary message={action.error} />}
      {sent && <Notice>Redelivery queued: one more attempt with the same webhook-id.</Notice>}
      {canManage && hook.enabled && delivery.state !== "pending" && (
        <div>
          <Button variant="secondary" className="button-small" busy={action.busy} busyLabel="Queuing…" onClick={() => void action.run(() => redeliver.mutateAsync(delivery.deliveryId), () => setSent(true))}>
            Redeliver<span className="visually-hidden"> {delivery.event} delivery {delivery.deliveryId}</span>
          </Button>
        </div>
      )}
    </>
  );
}

const attemptOutcome = (a: Delivery["attempts"][number]) => (a.status !== null ? `HTTP ${a.status} in ${a.latencyMs} ms` : (a.error ?? "no answer"));
