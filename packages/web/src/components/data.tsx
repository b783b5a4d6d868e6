import { useEffect, useState, type ReactNode } from "react";
import { describeError } from "../api/api-client";
import type { Workspace } from "../api/workspaces.api";
import { colorClass, colorLabel } from "../app/palette";
import type { CurrentWorkspace } from "../app/workspace";
import { ErrorSummary } from "./alerts";
import { Button } from "./button";

/** What `Loaded` reads of a query (`useQuery`'s result). */
export interface QueryView<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  refetch(): unknown;
}

/**
 * Loading and error states of a query, the same everywhere. A failed refetch shows the error
 * (with "Try again") rather than answers that may be gone, as a failed first load does.
 */
export function Loaded<T>({ query, label, children }: { query: QueryView<T>; label: string; children(data: T): ReactNode }) {
  if (query.isError) {
    return (
      <ErrorSummary message={`Could not load ${label}. ${describeError(query.error)}`}>
        <div className="alert-actions">
          <Button variant="secondary" className="button-small" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      </ErrorSummary>
    );
  }
  if (query.isPending || query.data === undefined) {
    return (
      <p className="loading-line" role="status">
        <span className="spinner spinner-dark" aria-hidden="true" /> Loading {label}…
      </p>
    );
  }
  return <>{children(query.data)}</>;
}

/** A page's body once the current workspace is known (its id keys the page's queries, its permissions its controls). */
export function InWorkspace({ current, children }: { current: CurrentWorkspace; children(workspace: Workspace): ReactNode }) {
  return (
    <Loaded query={current.workspaces} label="your workspaces">
      {() => (current.workspace ? children(current.workspace) : <ErrorSummary message="You are not a member of any workspace. Create one from the menu." />)}
    </Loaded>
  );
}

/** Items as a list, one `<li>` each: the markup of every list the dashboard shows. */
export function ItemList<T>({ items, itemKey, className, itemClassName, testId, children }: {
  items: readonly T[];
  itemKey(item: T): string;
  className: string;
  itemClassName: string;
  testId?: string;
  children(item: T): ReactNode;
}) {
  return (
    <ul className={className} data-testid={testId}>
      {items.map((item) => (
        <li key={itemKey(item)} className={itemClassName}>
          {children(item)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The list pages' scaffold: a query's loading and error states, an empty state when it has no
 * items, else the items (`children`), with what comes after them (`footer`) given the items.
 */
export function ResourceList<D, T>({ query, label, items, empty, children, footer }: {
  query: QueryView<D>;
  /** Completes "Loading …" and "Could not load …": "your projects". */
  label: string;
  items(data: D): readonly T[];
  empty: ReactNode;
  children(items: readonly T[]): ReactNode;
  footer?(items: readonly T[]): ReactNode;
}) {
  return (
    <Loaded query={query} label={label}>
      {(data) => {
        const list = items(data);
        if (list.length === 0) return <div className="panel">{empty}</div>;
        return (
          <>
            {children(list)}
            {footer?.(list)}
          </>
        );
      }}
    </Loaded>
  );
}

/** A project's color, as a dot with its name for people who do not see the color. */
export function ColorDot({ color }: { color: string }) {
  return (
    <span className={`color-dot ${colorClass(color)}`} role="img" aria-label={`${colorLabel(color)} project`} />
  );
}

export function ProjectBadge({ name, color }: { name: string; color: string }) {
  return <span className={`project-badge ${colorClass(color)}`}>{name}</span>;
}

/**
 * Copies `value`: the async clipboard API where the page may use it, else a selected
 * off-screen textarea and execCommand("copy") (older browsers, plain-HTTP origins).
 */
export async function copyText(value: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(value);
      return true;
    }
  } catch {
    // fall through to the fallback
  }
  const area = document.createElement("textarea");
  area.value = value;
  area.setAttribute("readonly", "");
  area.className = "copy-fallback";
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <>
      <button type="button" className="button button-secondary button-small" onClick={() => void copyText(value).then((ok) => setState(ok ? "copied" : "failed"))}>
        {state === "copied" ? "Copied" : "Copy"}
        <span className="visually-hidden"> {label}</span>
      </button>
      <span className="visually-hidden" role="status">
        {state === "copied" ? `${label} copied` : state === "failed" ? `Could not copy; select the ${label} and copy it` : ""}
      </span>
    </>
  );
}

/** A read-only value with a copy button (client IDs, secrets, links). */
export function CopyField({ id, label, value, secret }: { id: string; label: string; value: string; secret?: boolean }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-row">
        <input id={id} className={`input input-mono${secret ? " input-secret" : ""}`} readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}
