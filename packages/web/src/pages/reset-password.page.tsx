import { useState, type FormEvent } from "react";
import { accountApi } from "../api/account.api";
import { BAD_LINK_MESSAGE, isBadLink } from "../api/api-client";
import { newPasswordError, PASSWORD_RULES, PasswordField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AuthLayout } from "../components/layouts";
import { useForm } from "../components/use-form";
import { Link, useNavigate, useSearchParam } from "../app/router";
import { useSession } from "../app/session";

const FIELDS = ["newPassword"] as const;
const LABELS = { newPassword: "New password" };

export function ResetPasswordPage() {
  const token = useSearchParam("token");
  const navigate = useNavigate();
  const { refresh } = useSession();
  const form = useForm(FIELDS, LABELS);
  const [password, setPassword] = useState("");

  if (!token) {
    return (
      <AuthLayout title="This link is incomplete">
        <p className="lead">The reset link is missing its code. Open the link from the e-mail again, or ask for a new one.</p>
        <Link to="/forgot-password" className="button button-primary button-block">
          Send a new link
        </Link>
      </AuthLayout>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit({ newPassword: newPasswordError(password) }, async () => {
      await accountApi.confirmPasswordReset(token, password);
      // A reset ends every session, this browser's too.
      await refresh();
      navigate("/login", { replace: true, state: { notice: "password-reset" } });
    });
  };

  const badToken = isBadLink(form.apiError);

  return (
    <AuthLayout title="Choose a new password" subtitle="After the change, every device signed in to your account is signed out.">
      <FormScaffold
        form={form}
        labels={LABELS}
        onSubmit={onSubmit}
        summaryMessage={badToken ? BAD_LINK_MESSAGE : undefined}
        summaryExtra={
          badToken && (
            <p>
              <Link to="/forgot-password">Ask for a new reset link</Link>
            </p>
          )
        }
        submit={{ label: "Set new password", busyLabel: "Saving…", block: true }}
      >
        <PasswordField
          name="newPassword"
          label={LABELS.newPassword}
          autoComplete="new-password"
          hint={PASSWORD_RULES}
          {...form.bind("newPassword", password, setPassword)}
        />
      </FormScaffold>
    </AuthLayout>
  );
}
