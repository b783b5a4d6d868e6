import type { ButtonHTMLAttributes, ReactNode } from "react";

type Variant = "primary" | "secondary" | "ghost" | "danger";

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  /** While true the button is disabled and says what it is doing. */
  busy?: boolean;
  busyLabel?: ReactNode;
  block?: boolean;
}

export function Button({ variant = "primary", busy = false, busyLabel, block, className, children, disabled, type = "button", ...rest }: ButtonProps) {
  const classes = ["button", `button-${variant}`, block ? "button-block" : "", className ?? ""].filter(Boolean).join(" ");
  return (
    <button type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy && <span className="spinner" aria-hidden="true" />}
      <span>{busy ? (busyLabel ?? children) : children}</span>
    </button>
  );
}

/**
 * The row under every destructive confirmation: the danger action (a form's submit when
 * `onConfirm` is omitted) and Cancel, which is disabled while the action runs.
 */
export function DangerActions({ label, busyLabel, busy, onConfirm, onCancel }: { label: ReactNode; busyLabel: ReactNode; busy: boolean; onConfirm?: () => void; onCancel: () => void }) {
  return (
    <div className={onConfirm ? "form-actions-row" : "form-actions form-actions-row"}>
      <Button type={onConfirm ? "button" : "submit"} variant="danger" busy={busy} busyLabel={busyLabel} onClick={onConfirm}>
        {label}
      </Button>
      <Button variant="secondary" disabled={busy} onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
