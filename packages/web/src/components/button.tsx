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
