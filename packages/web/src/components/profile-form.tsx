import { useState, type FormEvent } from "react";
import { accountApi, type Account } from "../api/account.api";
import { ErrorSummary, Notice } from "./alerts";
import { Button } from "./button";
import { TextField } from "./field";
import { useForm } from "./use-form";

const FIELDS = ["displayName", "organization"] as const;
const LABELS = { displayName: "Display name", organization: "Organization" };

/** Display name (required, shown to teammates and on share pages) and organization (optional). */
export function ProfileForm({ account, submitLabel, onSaved }: { account: Account; submitLabel: string; onSaved(account: Account): void }) {
  const form = useForm(FIELDS, LABELS);
  const [displayName, setDisplayName] = useState(account.displayName ?? "");
  const [organization, setOrganization] = useState(account.organization ?? "");
  const [saved, setSaved] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const name = displayName.trim();
    const clientErrors = {
      displayName: !name ? "Enter the name people should see." : [...name].length > 80 ? "Use at most 80 characters." : undefined,
      organization: [...organization.trim()].length > 120 ? "Use at most 120 characters." : undefined,
    };
    void form.submit(clientErrors, async () => {
      const org = organization.trim();
      const updated = await accountApi.updateProfile({ displayName: name, ...(org ? { organization: org } : {}) });
      setSaved(true);
      onSaved(updated);
    });
  };

  return (
    <>
      <ErrorSummary message={form.formError} fieldErrors={form.fieldErrors} labels={LABELS} summaryRef={form.summaryRef} />
      {saved && <Notice>Profile saved.</Notice>}
      <form className="form" noValidate onSubmit={onSubmit}>
        <TextField
          name="displayName"
          label={LABELS.displayName}
          autoComplete="name"
          maxLength={80}
          hint="Shown in the dashboard and to people you share builds with."
          value={displayName}
          onValueChange={(v) => {
            setDisplayName(v);
            form.clearFieldError("displayName");
          }}
          error={form.fieldErrors.displayName}
        />
        <TextField
          name="organization"
          label={LABELS.organization}
          optional
          autoComplete="organization"
          maxLength={120}
          value={organization}
          onValueChange={(v) => {
            setOrganization(v);
            form.clearFieldError("organization");
          }}
          error={form.fieldErrors.organization}
        />
        <div className="form-actions">
          <Button type="submit" busy={form.busy} busyLabel="Saving…">
            {submitLabel}
          </Button>
        </div>
      </form>
    </>
  );
}
