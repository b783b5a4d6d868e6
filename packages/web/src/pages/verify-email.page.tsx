import { useEffect, useRef, useState } from "react";
import { accountApi } from "../api/account.api";
import { ApiError, BAD_LINK_MESSAGE, describeError, isBadLink } from "../api/api-client";
import { ErrorSummary } from "../components/alerts";
import { Button } from "../components/button";
import { AuthLayout } from "../components/layouts";
import { paths } from "../app/paths";
import { takeAfterVerification } from "../app/return-path";
import { Link, useSearchParam } from "../app/router";
import { homeFor, useSession } from "../app/session";

type Status = { kind: "verifying" } | { kind: "verified" } | { kind: "failed"; error: ApiError | unknown };

/**
 * The mail links here with `?token=`. Opening the page (a GET) changes nothing on the server;
 * the page itself posts the token, so mail scanners that prefetch links do not consume it.
 */
export function VerifyEmailPage() {
  const token = useSearchParam("token");
  const { state, refresh } = useSession();
  const [status, setStatus] = useState<Status>({ kind: "verifying" });
  const posted = useRef<string | null>(null);
  // Where sign-up was headed (an invitation), kept across the mail's new tab: taken once.
  const [next] = useState(takeAfterVerification);

  useEffect(() => {
    // Once per token: React's development double-run of effects must not spend it twice.
    if (!token || posted.current === token) return;
    posted.current = token;
    accountApi
      .verifyEmail(token)
      .then(async () => {
        setStatus({ kind: "verified" });
        await refresh();
      })
      .catch((error: unknown) => setStatus({ kind: "failed", error }));
  }, [token, refresh]);

  if (!token) {
    return (
      <AuthLayout title="This link is incomplete">
        <p className="lead">The verification link is missing its code. Open the link from the e-mail again, or ask for a new one.</p>
        <Link to="/check-email" className="button button-primary button-block">
          Send a new link
        </Link>
      </AuthLayout>
    );
  }

  if (status.kind === "verifying") {
    return (
      <AuthLayout title="Verifying your e-mail address">
        <p className="lead loading-line" role="status">
          <span className="spinner spinner-dark" aria-hidden="true" />
          One moment…
        </p>
      </AuthLayout>
    );
  }

  if (status.kind === "verified") {
    const signedIn = state.status === "signedIn";
    return (
      <AuthLayout
        title="E-mail address verified"
        subtitle="You're all set: your account is active."
        icon={
          <svg viewBox="0 0 48 48" focusable="false">
            <circle cx="24" cy="24" r="17" />
            <path d="m16.5 24.5 5 5 10-11" />
          </svg>
        }
      >
        {signedIn ? (
          <Link to={homeFor(state.account, next)} className="button button-primary button-block">
            Continue
          </Link>
        ) : (
          <Link to={next ? paths.withNext("/login", next) : "/login"} state={{ notice: "verified" }} className="button button-primary button-block">
            Log in
          </Link>
        )}
      </AuthLayout>
    );
  }

  const rateLimited = status.error instanceof ApiError && status.error.status === 429;
  return (
    <AuthLayout title="We couldn't verify this link">
      <ErrorSummary message={isBadLink(status.error) ? BAD_LINK_MESSAGE : describeError(status.error)} />
      <p className="muted">
        {rateLimited
          ? "Wait a moment, then reload this page."
          : "Verification links work once and for 24 hours. If you verified already, just log in; otherwise ask for a new link."}
      </p>
      <div className="stack-buttons">
        <Link to="/login" className="button button-primary button-block">
          Log in
        </Link>
        <Link to="/check-email" className="button button-secondary button-block">
          Send a new link
        </Link>
      </div>
      {rateLimited && (
        <Button variant="ghost" block onClick={() => window.location.reload()}>
          Try again
        </Button>
      )}
    </AuthLayout>
  );
}
