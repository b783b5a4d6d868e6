import { useState, type FormEvent } from "react";
import { accountApi } from "../api/account.api";
import { describeError } from "../api/api-client";
import { GivenPassword } from "@hangar/core/account-input-schema";
import { Notice } from "../components/alerts";
import { Button } from "../components/button";
import { emailError, EmailField, PasswordField } from "../components/field";
import { AuthLayout } from "../components/layouts";
import { FormScaffold } from "../components/form-scaffold";
import { fieldError, useForm, whenEmpty } from "../components/use-form";
import { paths } from "../app/paths";
import { Link, sameOriginPath, useLocation, useNavigate, useSearchParam } from "../app/router";
import { homeFor, useSession } from "../app/session";

const FIELDS = ["email", "password"] as const;
const LABELS = { email: "E-mail address", password: "Password" };

/** Messages other pages leave for the login page (in history state, never in the URL). */
export type LoginNotice = "password-reset" | "signed-out" | "verified" | "session-ended";
const NOTICES: Record<LoginNotice, string> = {
  "password-reset": "Your password was changed and every session was signed out. Log in with your new password.",
  "signed-out": "You are signed out.",
  verified: "Your e-mail address is verified. Log in to continue.",
  "session-ended": "Your session ended — sign in again. You will be back where you were, with what you had typed.",
};

export function LoginPage() {
  const navigate = useNavigate();
  const { setAccount } = useSession();
  const { state } = useLocation();
  const next = useSearchParam("next");
  // Carried on to sign-up, so an invited person who has no account yet still comes back.
  const nextPath = sameOriginPath(next);
  const notice = (state as { notice?: LoginNotice } | null)?.notice;
  const form = useForm(FIELDS, LABELS);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [resend, setResend] = useState<{ busy: boolean; sent: boolean; error?: string }>({ busy: false, sent: false });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setResend({ busy: false, sent: false });
    const clientErrors = { email: emailError(email), password: fieldError(GivenPassword, password, whenEmpty("Enter your password."), LABELS.password) };
    void form.submit(clientErrors, async () => {
      const { account } = await accountApi.signIn(email.trim(), password);
      setAccount(account);
      navigate(homeFor(account, next), { replace: true });
    });
  };

  const resendVerification = async () => {
    setResend({ busy: true, sent: false });
    try {
      await accountApi.resendVerification(email.trim());
      setResend({ busy: false, sent: true });
    } catch (error) {
      setResend({ busy: false, sent: false, error: describeError(error) });
    }
  };

  const unverified = form.apiError?.code === "email_not_verified";

  return (
    <AuthLayout
      title="Log in to Hangar"
      footer={
        <p>
          New to Hangar? <Link to={nextPath ? paths.withNext("/sign-up", nextPath) : "/sign-up"}>Create an account</Link>
        </p>
      }
    >
      {notice && NOTICES[notice] && !form.formError && <Notice kind="info">{NOTICES[notice]}</Notice>}
      <FormScaffold
        form={form}
        labels={LABELS}
        onSubmit={onSubmit}
        submit={{ label: "Log in", busyLabel: "Logging in…", block: true }}
        summaryExtra={
          unverified && (
            <div className="alert-actions">
              {resend.sent ? (
                <p role="status">We sent a new verification link to {email.trim()}.</p>
              ) : (
                <Button variant="secondary" className="button-small" busy={resend.busy} busyLabel="Sending…" onClick={() => void resendVerification()}>
                  Resend verification e-mail
                </Button>
              )}
              {resend.error && <p>{resend.error}</p>}
            </div>
          )
        }
      >
        <EmailField
          label={LABELS.email}
          {...form.bind("email", email, setEmail)}
        />
        <div className="field-with-link">
          <PasswordField
            name="password"
            label={LABELS.password}
            autoComplete="current-password"
            {...form.bind("password", password, setPassword)}
          />
          <Link to="/forgot-password" className="field-link">
            Forgot password?
          </Link>
        </div>
      </FormScaffold>
    </AuthLayout>
  );
}
