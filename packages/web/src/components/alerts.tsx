import type { ReactNode, RefObject } from "react";
import { fieldId } from "./field";

interface ErrorSummaryProps {
  message?: string;
  fieldErrors?: Partial<Record<string, string>>;
  labels?: Partial<Record<string, string>>;
  summaryRef?: RefObject<HTMLDivElement | null>;
  children?: ReactNode;
}

/**
 * The form-level error: announced (role=alert), focusable so focus can move to it after a
 * failed submit, and listing each field error as a link that puts focus on that field.
 */
export function ErrorSummary({ message, fieldErrors = {}, labels = {}, summaryRef, children }: ErrorSummaryProps) {
  const entries = Object.entries(fieldErrors).filter((e): e is [string, string] => Boolean(e[1]));
  return (
    <div ref={summaryRef} tabIndex={-1} role="alert" className={message ? "alert alert-error" : "alert-empty"}>
      {message && (
        <>
          <AlertIcon kind="error" />
          <div className="alert-body">
            <p className="alert-title">{message}</p>
            {entries.length > 0 && (
              <ul className="alert-list">
                {entries.map(([field, error]) => (
                  <li key={field}>
                    <a
                      href={`#${fieldId(field)}`}
                      onClick={(event) => {
                        event.preventDefault();
                        document.getElementById(fieldId(field))?.focus();
                      }}
                    >
                      {/* API messages already name their field; the client's own may not. */}
                      {labels[field] && !error.startsWith(labels[field]!) ? `${labels[field]}: ` : ""}
                      {error}
                    </a>
                  </li>
                ))}
              </ul>
            )}
            {children}
          </div>
        </>
      )}
    </div>
  );
}

/** A success or information message; polite, so it does not interrupt. */
export function Notice({ kind = "success", title, children }: { kind?: "success" | "info"; title?: string; children?: ReactNode }) {
  return (
    <div role="status" className={`alert alert-${kind}`}>
      <AlertIcon kind={kind} />
      <div className="alert-body">
        {title && <p className="alert-title">{title}</p>}
        {/* One block, so inline text and <strong> inside stay one paragraph. */}
        {children && <div>{children}</div>}
      </div>
    </div>
  );
}

function AlertIcon({ kind }: { kind: "error" | "success" | "info" }) {
  const paths = {
    error: "M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm0 4a1 1 0 0 0-1 1v3.5a1 1 0 1 0 2 0V7a1 1 0 0 0-1-1Zm0 8.5a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2Z",
    success: "M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm3.7 5.3a1 1 0 0 0-1.4 0L9 10.6 7.7 9.3a1 1 0 1 0-1.4 1.4l2 2a1 1 0 0 0 1.4 0l4-4a1 1 0 0 0 0-1.4Z",
    info: "M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm0 7a1 1 0 0 0-1 1v3.5a1 1 0 1 0 2 0V10a1 1 0 0 0-1-1Zm0-3.5a1.1 1.1 0 1 0 0 2.2 1.1 1.1 0 0 0 0-2.2Z",
  };
  return (
    <svg className="alert-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d={paths[kind]} />
    </svg>
  );
}
