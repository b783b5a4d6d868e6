import type { FormEvent, ReactNode } from "react";
import { ErrorSummary } from "./alerts";
import { Button } from "./button";
import type { FormState } from "./use-form";

interface FormScaffoldProps<F extends string> {
  form: FormState<F>;
  labels: Partial<Record<F, string>>;
  onSubmit(event: FormEvent): void;
  children: ReactNode;
  /** The submit button's words, and what it says while the request runs. */
  submit?: { label: ReactNode; busyLabel: ReactNode; block?: boolean };
  /** Other buttons beside the submit (Cancel), or the whole row when there is no `submit` (DangerActions). */
  actions?: ReactNode;
  /** A message between the error summary and the form ("Profile saved."). */
  notice?: ReactNode;
  /** Shown inside the error summary (a "resend the mail" action). */
  summaryExtra?: ReactNode;
  /** Overrides the summary's message (a bad link is said plainly, whatever the form error). */
  summaryMessage?: string;
  className?: string;
  "aria-label"?: string;
}

/**
 * Every form of the dashboard in one shape: the focusable error summary that links to the
 * fields, the form (no browser validation bubbles: the summary says it all, in both schemes),
 * the fields, and the action row with a submit button that says what it is doing.
 */
export function FormScaffold<F extends string>({ form, labels, onSubmit, children, submit, actions, notice, summaryExtra, summaryMessage, className, ...rest }: FormScaffoldProps<F>) {
  return (
    <>
      <ErrorSummary message={summaryMessage ?? form.formError} fieldErrors={form.fieldErrors} labels={labels} summaryRef={form.summaryRef}>
        {summaryExtra}
      </ErrorSummary>
      {notice}
      <form className={`form${className ? ` ${className}` : ""}`} noValidate onSubmit={onSubmit} aria-label={rest["aria-label"]}>
        {children}
        {submit ? (
          submit.block ? (
            <Button type="submit" block busy={form.busy} busyLabel={submit.busyLabel}>
              {submit.label}
            </Button>
          ) : (
            <div className={actions ? "form-actions form-actions-row" : "form-actions"}>
              <Button type="submit" busy={form.busy} busyLabel={submit.busyLabel}>
                {submit.label}
              </Button>
              {actions}
            </div>
          )
        ) : (
          actions
        )}
      </form>
    </>
  );
}
