import { useState, type ReactNode } from "react";
import { ErrorSummary } from "./alerts";
import { Button, DangerActions } from "./button";

interface ConfirmActionProps {
  /** The button that asks first ("Revoke", "Delete group…"). */
  trigger: ReactNode;
  triggerVariant?: "secondary" | "danger";
  triggerClassName?: string;
  /** The trigger in a block of its own (a row of facts whose last line it is). */
  triggerBlock?: boolean;
  /** Runs as the confirmation opens (a notice of an earlier action goes away). */
  onOpen?(): void;
  /** The confirmation group's accessible name. */
  groupLabel: string;
  /** What happens, and what it does not undo. */
  question: ReactNode;
  confirmLabel: ReactNode;
  busyLabel: ReactNode;
  /** The action; what it throws is shown above the confirmation, in `describeError`'s words. */
  run(): Promise<void>;
  describeError(error: unknown): string;
  /**
   * After `run`: "close" puts the trigger back (the thing is still there: a new address); "stay"
   * keeps the busy confirmation until the thing it removed leaves the page (a row, a page).
   */
  after: "close" | "stay";
}

/**
 * Every destructive action of the dashboard's lists and settings in one shape: a button, then a
 * group that asks (role=group, named), the danger button and Cancel, and the error, if any,
 * above it. Used by the token and tester rows and the group and app-page settings.
 */
export function ConfirmAction({ trigger, triggerVariant = "secondary", triggerClassName, triggerBlock, onOpen, groupLabel, question, confirmLabel, busyLabel, run, describeError, after }: ConfirmActionProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await run();
      if (after === "close") {
        setConfirming(false);
        setBusy(false);
      }
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };
  const button = (
    <Button
      variant={triggerVariant}
      {...(triggerClassName ? { className: triggerClassName } : {})}
      onClick={() => {
        onOpen?.();
        setConfirming(true);
      }}
    >
      {trigger}
    </Button>
  );
  return (
    <>
      {error && <ErrorSummary message={error} />}
      {confirming ? (
        <div className="confirm" role="group" aria-label={groupLabel}>
          <p>{question}</p>
          <DangerActions label={confirmLabel} busyLabel={busyLabel} busy={busy} onConfirm={() => void confirm()} onCancel={() => setConfirming(false)} />
        </div>
      ) : triggerBlock ? (
        <div>{button}</div>
      ) : (
        button
      )}
    </>
  );
}
