import { useState, type ReactNode } from "react";

/** Wider than a phone: the width from which cards keep their full padding (base.css). */
const WIDE = "(min-width: 481px)";

/**
 * A secondary part of a page behind a native disclosure: <summary> is a button that says whether
 * it is expanded and answers Enter and Space, with no script of ours, and the browser's find-in-page
 * opens it on a match. Open from the start on a wider screen; on a phone only the summary shows
 * (the file page was over 5,000 px tall at 390 px, its long lists pushing everything else away).
 * The state follows the element once rendered (`onToggle`), so a person's choice is kept.
 * Rejected: collapsing with CSS alone (hidden content then has no control to reveal it) and the
 * Devices card's button with aria-controls, which shows part of a list, not none of it.
 */
export function Disclosure({ summary, children, className, testId }: { summary: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  const [open, setOpen] = useState(() => typeof window.matchMedia !== "function" || window.matchMedia(WIDE).matches);
  return (
    <details className={className ? `disclosure ${className}` : "disclosure"} open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={testId}>
      <summary className="disclosure-summary">{summary}</summary>
      <div className="disclosure-body">{children}</div>
    </details>
  );
}
