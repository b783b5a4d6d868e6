import { emailProblem, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, NewPassword, passwordLength } from "@hangar/core/account-input-schema";
import { useState, type InputHTMLAttributes, type ReactNode } from "react";
import { fieldError, fieldSentence, type FieldMessage } from "./use-form";

/** The element id of a form field: error summaries link to it. */
export const fieldId = (name: string) => `field-${name}`;

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "id" | "name"> {
  name: string;
  label: string;
  value: string;
  onValueChange(value: string): void;
  hint?: ReactNode;
  error?: string;
  optional?: boolean;
}

export function TextField({ name, label, value, onValueChange, hint, error, optional, type = "text", ...rest }: TextFieldProps) {
  const id = fieldId(name);
  return (
    <div className={`field${error ? " field-invalid" : ""}`}>
      <FieldLabel id={id} label={label} optional={optional} />
      <FieldHint id={id} hint={hint} />
      <input
        id={id}
        name={name}
        type={type}
        className="input"
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        required={!optional}
        {...rest}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/**
 * An e-mail address field as phones and password managers expect it: the e-mail keyboard, no
 * capital letter or spelling correction forced on the address, and autofill of the address.
 */
export function EmailField({ name = "email", label = "E-mail address", ...rest }: Omit<TextFieldProps, "type" | "name" | "label"> & { name?: string; label?: string }) {
  return <TextField name={name} label={label} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...rest} />;
}

interface PasswordFieldProps extends Omit<TextFieldProps, "type" | "autoComplete"> {
  autoComplete: "current-password" | "new-password";
}

/** A password input with a show/hide toggle (typing blind on a phone is where mistakes happen). */
export function PasswordField({ name, label, value, onValueChange, hint, error, optional, autoComplete, ...rest }: PasswordFieldProps) {
  const id = fieldId(name);
  const [visible, setVisible] = useState(false);
  return (
    <div className={`field${error ? " field-invalid" : ""}`}>
      <FieldLabel id={id} label={label} optional={optional} />
      <FieldHint id={id} hint={hint} />
      <div className="password-input">
        <input
          id={id}
          name={name}
          type={visible ? "text" : "password"}
          className="input"
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          autoComplete={autoComplete}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          required={!optional}
          {...rest}
        />
        <button
          type="button"
          className="password-toggle"
          aria-controls={id}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? "Hide" : "Show"}
          <span className="visually-hidden"> password</span>
        </button>
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}

function FieldLabel({ id, label, optional }: { id: string; label: string; optional?: boolean }) {
  return (
    <label htmlFor={id} className="field-label">
      {label}
      {optional && <span className="field-optional"> (optional)</span>}
    </label>
  );
}

function FieldHint({ id, hint }: { id: string; hint?: ReactNode }) {
  if (!hint) return null;
  return (
    <div id={`${id}-hint`} className="field-hint">
      {hint}
    </div>
  );
}

function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="field-error">
      <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="field-error-icon">
        <path d="M8 1.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13Zm0 3a.9.9 0 0 0-.9.9v3.2a.9.9 0 0 0 1.8 0V5.4A.9.9 0 0 0 8 4.5Zm0 7.2a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z" />
      </svg>
      {error}
    </p>
  );
}

function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** Stated up front on every new-password field, and checked (with core's `NewPassword`) before the request is sent. */
export const PASSWORD_RULES = `At least ${MIN_PASSWORD_LENGTH} characters (up to ${MAX_PASSWORD_LENGTH}). Common passwords are not accepted.`;

/**
 * The words for a new password core's `NewPassword` refused: its length with the count, which is
 * how people fix it; its other rules (only spaces, an unpaired surrogate) as the API says them.
 */
export const newPasswordMessage: FieldMessage = (value, message) => {
  const length = passwordLength(String(value ?? "").normalize("NFKC"));
  if (length === 0) return "Enter a password.";
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters (this one has ${length}).`;
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  return fieldSentence("Password", message);
};

/** A new password as the API checks it (NFKC, code points, 12 to 256, not only spaces). */
export const newPasswordError = (password: string) => fieldError(NewPassword, password, newPasswordMessage);

/**
 * Core's rule for an address's shape (`emailProblem`, the one `Email` applies after normalizing).
 * A Unicode domain is left to the server, which turns it into ASCII first (with Node's IDNA).
 */
export function emailError(email: string): string | undefined {
  const address = email.trim().toLowerCase();
  if (!address) return "Enter your e-mail address.";
  const domain = address.slice(address.lastIndexOf("@") + 1);
  if (!/^[\x00-\x7f]*$/.test(domain)) return undefined;
  return emailProblem(address) ? "Enter an e-mail address like name@example.com." : undefined;
}
