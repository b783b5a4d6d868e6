import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { describeError } from "../api/api-client";
import { colorClass, colorLabel } from "../app/palette";
import { ErrorSummary } from "./alerts";
import { Button } from "./button";

export type Load<T> = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; data: T };

/** Runs `fetcher` on mount and whenever `reload()` is called; stale answers are dropped. */
export function useLoad<T>(fetcher: () => Promise<T>, deps: readonly unknown[]): [Load<T>, () => void, (data: T) => void] {
  const [state, setState] = useState<Load<T>>({ status: "loading" });
  const [version, setVersion] = useState(0);
  const run = useRef(0);
  useEffect(() => {
    const mine = ++run.current;
    setState((s) => (s.status === "ready" ? s : { status: "loading" }));
    fetcher().then(
      (data) => mine === run.current && setState({ status: "ready", data }),
      (error) => mine === run.current && setState({ status: "error", message: describeError(error) }),
    );
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const set = useCallback((data: T) => setState({ status: "ready", data }), []);
  return [state, reload, set];
}

/** Loading and error states of a request, the same everywhere. */
export function Loaded<T>({ load, retry, label, children }: { load: Load<T>; retry(): void; label: string; children(data: T): ReactNode }) {
  if (load.status === "loading") {
    return (
      <p className="loading-line" role="status">
        <span className="spinner spinner-dark" aria-hidden="true" /> Loading {label}…
      </p>
    );
  }
  if (load.status === "error") {
    return (
      <ErrorSummary message={`Could not load ${label}. ${load.message}`}>
        <div className="alert-actions">
          <Button variant="secondary" className="button-small" onClick={retry}>
            Try again
          </Button>
        </div>
      </ErrorSummary>
    );
  }
  return <>{children(load.data)}</>;
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
