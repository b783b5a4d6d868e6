import { useCallback, useRef, useState } from "react";
import { ApiError, describeError } from "../api/api-client";

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface FormState<F extends string> {
  busy: boolean;
  /** The form-level message (shown in the error summary). */
  formError?: string;
  /** The API's error, for pages that react to a code (e.g. `email_not_verified`). */
  apiError?: ApiError;
  fieldErrors: FieldErrors<F>;
  summaryRef: React.RefObject<HTMLDivElement | null>;
  /**
   * Runs `action` unless `clientErrors` has any; maps the API's `fields` onto the form's fields
   * (unknown ones stay in the summary), and moves focus to the summary so it is read out.
   */
  submit(clientErrors: FieldErrors<F>, action: () => Promise<void>): Promise<void>;
  clearFieldError(field: F): void;
  /**
   * A field's props: its value, a change handler that stores the new value and clears the field's
   * error (the person is fixing it), and the error to show. Spread onto a field component.
   */
  bind<V>(field: F, value: V, setValue: (value: V) => void): { value: V; onValueChange: (value: V) => void; error: string | undefined };
  reset(): void;
}

/**
 * The API words field messages to follow the field's name ("is too common: …"); beside a field
 * they read better as a sentence with the field's label in front.
 */
export function fieldSentence(label: string | undefined, message: string): string {
  const text = /^[a-z]/.test(message) && label ? `${label} ${message}` : message;
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

const humanize = (field: string) => field.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

export function useForm<F extends string>(fields: readonly F[], labels: Partial<Record<F, string>> = {}): FormState<F> {
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string>();
  const [apiError, setApiError] = useState<ApiError>();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<F>>({});
  const summaryRef = useRef<HTMLDivElement | null>(null);
  const busyRef = useRef(false);
  const known = useRef(new Set<string>(fields));
  const labelsRef = useRef(labels);

  const focusSummary = () => requestAnimationFrame(() => summaryRef.current?.focus());

  const submit = useCallback(async (clientErrors: FieldErrors<F>, action: () => Promise<void>) => {
    if (busyRef.current) return;
    setApiError(undefined);
    if (Object.values(clientErrors).some(Boolean)) {
      setFieldErrors(clientErrors);
      setFormError("Please correct the fields below.");
      focusSummary();
      return;
    }
    busyRef.current = true;
    setBusy(true);
    setFormError(undefined);
    setFieldErrors({});
    try {
      await action();
    } catch (error) {
      const next: FieldErrors<F> = {};
      const unplaced: string[] = [];
      if (error instanceof ApiError) {
        setApiError(error);
        for (const { field, message } of error.fields) {
          const label = labelsRef.current[field as F];
          if (known.current.has(field) && !next[field as F]) next[field as F] = fieldSentence(label, message);
          else unplaced.push(fieldSentence(label ?? (field ? humanize(field) : undefined), message));
        }
      }
      setFieldErrors(next);
      // With field errors, the envelope's message only repeats them in a programmer's words.
      const lead = error instanceof ApiError && error.fields.length > 0 ? (Object.keys(next).length ? "Please correct the fields below." : "") : describeError(error);
      setFormError([lead, ...unplaced].filter(Boolean).join(" "));
      focusSummary();
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }, []);

  const clearFieldError = useCallback((field: F) => {
    setFieldErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }, []);

  const bind = useCallback(
    <V,>(field: F, value: V, setValue: (value: V) => void) => ({
      value,
      onValueChange: (next: V) => {
        setValue(next);
        clearFieldError(field);
      },
      error: fieldErrors[field],
    }),
    [fieldErrors, clearFieldError],
  );

  const reset = useCallback(() => {
    setFormError(undefined);
    setApiError(undefined);
    setFieldErrors({});
  }, []);

  return { busy, formError, apiError, fieldErrors, summaryRef, submit, clearFieldError, bind, reset };
}

/** What the form needs of a core zod schema (mini or classic): its verdict and its issues. */
export interface FormSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** A field's own words for a failed rule, given the value and the schema's message (undefined: the schema's). */
export type FieldMessage = (value: unknown, message: string) => string | undefined;

/** The common case of `FieldMessage`: a request to fill the field in, when it is empty. */
export const whenEmpty =
  (text: string): FieldMessage =>
  (value) =>
    value === undefined || value === null || (typeof value === "string" && value.trim() === "") ? text : undefined;

/**
 * Checks `values` with the very schema the API checks them with (from core, through a
 * dependency-free subpath), so the form never restates a rule: each field gets its first issue,
 * worded as the API's `fields` are shown (`Project name must be at most 80 characters.`), or in
 * the field's own words where `messages` has some.
 */
export function schemaErrors<F extends string>(
  schema: FormSchema,
  values: Partial<Record<F, unknown>>,
  labels: Partial<Record<F, string>>,
  messages: Partial<Record<F, FieldMessage>> = {},
): FieldErrors<F> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors<F> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field !== "string" || !(field in values) || errors[field as F]) continue;
    const f = field as F;
    errors[f] = messages[f]?.(values[f], issue.message) ?? fieldSentence(labels[f], issue.message);
  }
  return errors;
}

/** `schemaErrors` for one value checked by a field's own schema (a password on its own). */
export function fieldError(schema: FormSchema, value: unknown, message: FieldMessage, label?: string): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const first = result.error.issues[0]?.message ?? "is invalid";
  return message(value, first) ?? fieldSentence(label, first);
}
