import { AUDIT_ACTIONS } from "@hangar/core/audit-actions";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { AuditEntry, AuditFilter, Workspace } from "../api/workspaces.api";
import { auditQuery, membersQuery } from "../api/workspaces.queries";
import { formatDateTime } from "../app/format";
import { describeTeamError, memberLabel, useWorkspace } from "../app/workspace";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button } from "../components/button";
import { InWorkspace, ItemList } from "../components/data";
import { fieldId } from "../components/field";
import { AppShell, EmptyState } from "../components/layouts";
import "../styles/teams.css";

/** "member.role_changed" → "Member role changed". */
const actionLabel = (action: string) => {
  const words = action.replace(/[._]/g, " ").replace(/\bapple\b/, "Apple");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** "projectName" → "project name". */
const detailLabel = (key: string) => key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/**
 * Settings → Audit log (owners and admins: `audit.read`): who did what, when and from where,
 * newest first, filtered by who and by what, a page at a time with "Load more" (the API's cursor).
 */
export function AuditLogPage() {
  const current = useWorkspace();
  return (
    <AppShell title="Audit log" description="Who changed what in this workspace, when and from where. Entries are kept for 400 days.">
      <InWorkspace current={current}>
        {(workspace) =>
          current.can("audit.read") ? (
            <AuditLog key={workspace.workspaceId} workspace={workspace} />
          ) : (
            <Notice kind="info" title="Only owners and admins can read the audit log.">
              Ask an owner of “{workspace.name}” if you need to know who changed something.
            </Notice>
          )
        }
      </InWorkspace>
    </AppShell>
  );
}

function AuditLog({ workspace }: { workspace: Workspace }) {
  const [filter, setFilter] = useState<AuditFilter>({});
  const members = useQuery(membersQuery(workspace.workspaceId));
  const query = useInfiniteQuery(auditQuery(workspace.workspaceId, filter));
  const entries = query.data?.pages.flatMap((page) => page.items) ?? [];
  const state = query.isPending || query.isFetchingNextPage || (query.isError && query.isFetching) ? "loading" : query.isError ? "error" : "ready";
  const retry = () => void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch());
  const actorId = fieldId("audit-actor");
  const actionId = fieldId("audit-action");
  return (
    <div className="stack">
      <form className="audit-filters" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label className="field-label" htmlFor={actorId}>
            Who
          </label>
          <select id={actorId} className="input select" value={filter.actor ?? ""} onChange={(e) => setFilter({ ...filter, actor: e.target.value || undefined })}>
            <option value="">Everyone</option>
            {members.data?.map((m) => (
              <option key={m.userId} value={m.userId}>
                {memberLabel(m)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={actionId}>
            What
          </label>
          <select id={actionId} className="input select" value={filter.action ?? ""} onChange={(e) => setFilter({ ...filter, action: e.target.value || undefined })}>
            <option value="">Every action</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {actionLabel(action)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {entries.length > 0 && (
        <div className="panel">
          <ItemList items={entries} itemKey={(e) => e.entryId} className="audit-list" itemClassName="audit-row" testId="audit-entries">
            {(entry) => <AuditRow entry={entry} />}
          </ItemList>
        </div>
      )}
      {state === "ready" && entries.length === 0 && (
        <div className="panel">
          {/* A filtered page can come back empty with more to read: the API stops after a bounded search. */}
          <EmptyState title={filter.actor || filter.action ? (query.hasNextPage ? "No matching entries among the latest" : "No entries match") : "No entries yet"} headingLevel={2}>
            <p>
              {filter.actor || filter.action
                ? query.hasNextPage
                  ? "Load more to look further back, or choose “Everyone” and “Every action” to see the whole log."
                  : "Choose “Everyone” and “Every action” to see the whole log."
                : "Changes to members, invitations, projects, builds, links and keys are recorded here."}
            </p>
          </EmptyState>
        </div>
      )}
      {state === "loading" && (
        <p className="loading-line" role="status">
          <span className="spinner spinner-dark" aria-hidden="true" /> Loading the audit log…
        </p>
      )}
      {state === "error" && (
        <ErrorSummary message={`Could not load the audit log. ${describeTeamError(query.error)}`}>
          <div className="alert-actions">
            <Button variant="secondary" className="button-small" onClick={retry}>
              Try again
            </Button>
          </div>
        </ErrorSummary>
      )}
      {state === "ready" && query.hasNextPage && (
        <div>
          <Button variant="secondary" onClick={() => void query.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const where = [entry.actor.ip, entry.actor.userAgentFamily].filter(Boolean).join(" · ");
  // Ids in the details (a project's, the inviter's user id) say nothing to a person; names do.
  const details = Object.entries(entry.details ?? {}).filter(([k, v]) => v !== null && v !== "" && !/Id$/.test(k) && !/^(usr|prj|ws|inv)_/.test(String(v)));
  return (
    <>
      <p className="audit-head">
        <span className="audit-action">{actionLabel(entry.action)}</span>
        {entry.target && (
          <span className="audit-target break-anywhere">
            {" "}
            {entry.target.type} “{entry.target.label ?? entry.target.id}”
          </span>
        )}
      </p>
      <dl className="key-facts audit-facts">
        <div>
          <dt>When</dt>
          <dd>
            <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
          </dd>
        </div>
        <div>
          <dt>Who</dt>
          {/* `system`: Hangar itself, a retention policy's daily run (docs/audit-log.md). */}
          <dd className="break-anywhere">{entry.actor.email ?? (entry.actor.userId === "system" ? "Hangar (retention policy)" : entry.actor.userId)}</dd>
        </div>
        <div>
          <dt>From</dt>
          <dd className="break-anywhere">{where || "Unknown"}</dd>
        </div>
        {details.length > 0 && (
          <div>
            <dt>Details</dt>
            <dd className="break-anywhere">{details.map(([k, v]) => `${detailLabel(k)}: ${String(v)}`).join(", ")}</dd>
          </div>
        )}
      </dl>
    </>
  );
}
