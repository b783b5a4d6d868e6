import { useState, type FormEvent } from "react";
import { accountApi } from "../api/account.api";
import { emailError, EmailField, PASSWORD_RULES, newPasswordError, PasswordField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AuthLayout } from "../components/layouts";
import { useForm } from "../components/use-form";
import { paths } from "../app/paths";
import { keepForAfterVerification } from "../app/return-path";
import { Link, sameOriginPath, useLocation, useNavigate, useSearchParam } from "../app/router";

const FIELDS = ["email", "password"] as const;
const LABELS = { email: "E-mail address", password: "Password" };

export function SignUpPage() {
  const navigate = useNavigate();
  // From an invitation: where to come back to, and the invited address to start from.
  const next = sameOriginPath(useSearchParam("next"));
  const given = (useLocation().state ?? {}) as { email?: unknown };
  const form = useForm(FIELDS, LABELS);
  const [email, setEmail] = useState(typeof given.email === "string" ? given.email : "");
  const [password, setPassword] = useState("");

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit({ email: emailError(email), password: newPasswordError(password) }, async () => {
      const address = email.trim();
      await accountApi.signUp(address, password);
      keepForAfterVerification(next);
      navigate("/check-email", { state: { email: address, next } });
    });
  };

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Distribute your app's builds to testers in minutes."
      footer={
        <p>
          Already have an account? <Link to={next ? paths.withNext("/login", next) : "/login"}>Log in</Link>
        </p>
      }
    >
      <FormScaffold form={form} labels={LABELS} onSubmit={onSubmit} submit={{ label: "Create account", busyLabel: "Creating account…", block: true }}>
        <EmailField
          label={LABELS.email}
          {...form.bind("email", email, setEmail)}
        />
        <PasswordField
          name="password"
          label={LABELS.password}
          autoComplete="new-password"
          hint={PASSWORD_RULES}
          {...form.bind("password", password, setPassword)}
        />
      </FormScaffold>
    </AuthLayout>
  );
}
