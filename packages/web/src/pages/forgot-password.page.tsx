import { useState, type FormEvent } from "react";
import { accountApi } from "../api/account.api";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button } from "../components/button";
import { emailError, EmailField } from "../components/field";
import { AuthLayout } from "../components/layouts";
import { useForm } from "../components/use-form";
import { Link } from "../app/router";

const FIELDS = ["email"] as const;

export function ForgotPasswordPage() {
  const form = useForm(FIELDS, { email: "E-mail address" });
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit({ email: emailError(email) }, async () => {
      await accountApi.requestPasswordReset(email.trim());
      setSentTo(email.trim());
    });
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle={sentTo ? undefined : "Enter the e-mail address of your account and we will send you a link to choose a new password."}
      footer={
        <p>
          Remembered it? <Link to="/login">Back to log in</Link>
        </p>
      }
    >
      {sentTo ? (
        <>
          {/* The same answer whether or not the address has an account: nobody learns who signed up. */}
          <Notice title="Check your inbox">
            If <strong className="break-anywhere">{sentTo}</strong> belongs to a Hangar account, a link to reset the password is on its way. It works for one
            hour.
          </Notice>
          <Button variant="secondary" block onClick={() => setSentTo(undefined)}>
            Use a different address
          </Button>
        </>
      ) : (
        <>
          <ErrorSummary message={form.formError} fieldErrors={form.fieldErrors} labels={{ email: "E-mail address" }} summaryRef={form.summaryRef} />
          <form className="form" noValidate onSubmit={onSubmit}>
            <EmailField
              {...form.bind("email", email, setEmail)}
            />
            <Button type="submit" block busy={form.busy} busyLabel="Sending link…">
              Send reset link
            </Button>
          </form>
        </>
      )}
    </AuthLayout>
  );
}
