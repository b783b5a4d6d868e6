import { useState } from "react";
import { accountApi } from "../api/account.api";
import { describeError } from "../api/api-client";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button } from "../components/button";
import { emailError, EmailField } from "../components/field";
import { AuthLayout } from "../components/layouts";
import { paths } from "../app/paths";
import { Link, sameOriginPath, useLocation } from "../app/router";

/** After sign-up (and after a login refused for an unverified address): "we sent a link". */
export function CheckEmailPage() {
  const { state } = useLocation();
  const given = (state ?? {}) as { email?: unknown; next?: unknown };
  const known = typeof given.email === "string" ? given.email : "";
  const next = typeof given.next === "string" ? sameOriginPath(given.next) : undefined;
  const [email, setEmail] = useState(known);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();

  const resend = async () => {
    const problem = emailError(email);
    setFieldError(problem);
    if (problem) return;
    setBusy(true);
    setError(undefined);
    setSent(false);
    try {
      await accountApi.resendVerification(email.trim());
      setSent(true);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Check your inbox"
      icon={
        <svg viewBox="0 0 48 48" focusable="false">
          <rect x="6" y="11" width="36" height="26" rx="4" />
          <path d="m8 14 16 12 16-12" />
        </svg>
      }
      footer={
        <p>
          Verified already? <Link to={next ? paths.withNext("/login", next) : "/login"}>Log in</Link>
        </p>
      }
    >
      {/* The mail goes out right after sign-up answers (docs/accounts.md), so this page cannot know it failed: resend covers that. */}
      <p className="lead">
        We sent a verification link to {known ? <strong className="break-anywhere">{known}</strong> : "your e-mail address"}. Open it
        to activate your account. The link works for 24 hours.
      </p>
      <p className="muted">Nothing there? Check your spam folder, or send the link again.</p>
      <ErrorSummary message={error} />
      {sent && <Notice title="Sent again.">If the address belongs to an account that still needs verifying, a new link is on its way.</Notice>}
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void resend();
        }}
      >
        {!known && (
          <EmailField
            value={email}
            onValueChange={(v) => {
              setEmail(v);
              setFieldError(undefined);
            }}
            error={fieldError}
          />
        )}
        <Button type="submit" variant="secondary" block busy={busy} busyLabel="Sending…">
          Resend verification e-mail
        </Button>
      </form>
    </AuthLayout>
  );
}
