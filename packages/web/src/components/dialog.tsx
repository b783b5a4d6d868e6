import { useEffect, useRef, type ReactNode } from "react";
import { flushSync } from "react-dom";
import "../styles/dialog.css";

/**
 * A modal dialog on the native `<dialog>` element opened with `showModal()`: the browser makes
 * the rest of the page inert (focus stays inside, screen readers see only the dialog), Escape
 * closes it, and it sits in the top layer above the sticky frame. A hand-made focus trap
 * (a div with keydown handlers and `aria-modal`) would re-implement all of that and still let a
 * screen reader's virtual cursor wander outside. Focus goes back to the control that opened it.
 * The content is mounted only while open, so each opening starts from a fresh form.
 */
export function Dialog({ open, title, description, onClose, children, id }: { open: boolean; title: string; description?: ReactNode; onClose(): void; children: ReactNode; id: string }) {
  const ref = useRef<HTMLDialogElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  // Unmounted while open (the page moved on): the top layer must not keep an inert page behind it.
  useEffect(() => () => ref.current?.close(), []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-description` : undefined}
      // Escape (the `cancel` event) and close() both end here: the parent's state follows the element,
      // at once. React gives `close` no urgent priority, so its update could wait while the opener,
      // focused again, is pressed: open → closed → open then renders as "still open" and nothing
      // calls showModal() (a quick Escape then Enter left the dialog shut).
      onClose={() => {
        flushSync(onClose);
        opener.current?.focus();
      }}
    >
      {open && (
        <div className="dialog-inner">
          <div className="dialog-header">
            <h2 className="dialog-title" id={`${id}-title`}>
              {title}
            </h2>
            <button type="button" className="dialog-close" onClick={() => ref.current?.close()}>
              <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
              </svg>
              <span className="visually-hidden">Close</span>
            </button>
          </div>
          {description && (
            <p className="dialog-description" id={`${id}-description`}>
              {description}
            </p>
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}
