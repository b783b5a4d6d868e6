import { MAX_DISPLAY_NAME, MAX_ORGANIZATION, ProfileInput } from "@hangar/core/account-input-schema";
import { useState, type FormEvent } from "react";
import type { Account } from "../api/account.api";
import { useUpdateProfile } from "../api/account.queries";
import { Notice } from "./alerts";
import { TextField } from "./field";
import { FormScaffold } from "./form-scaffold";
import { schemaErrors, useForm, whenEmpty } from "./use-form";

const FIELDS = ["displayName", "organization"] as const;
const LABELS = { displayName: "Display name", organization: "Organization" };
const MESSAGES = { displayName: whenEmpty("Enter the name people should see.") };

/**
 * Display name (required, shown to teammates and on share pages) and organization (optional).
 * The saved account replaces the session's in the cache, so the frame shows the new name at once.
 */
export function ProfileForm({ account, submitLabel, onSaved }: { account: Account; submitLabel: string; onSaved?(account: Account): void }) {
  const form = useForm(FIELDS, LABELS);
  const update = useUpdateProfile();
  const [displayName, setDisplayName] = useState(account.displayName ?? "");
  const [organization, setOrganization] = useState(account.organization ?? "");
  const [saved, setSaved] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const org = organization.trim();
    const input = { displayName: displayName.trim(), ...(org ? { organization: org } : {}) };
    void form.submit(schemaErrors(ProfileInput, input, LABELS, MESSAGES), async () => {
      const updated = await update.mutateAsync(input);
      setSaved(true);
      onSaved?.(updated);
    });
  };

  return (
    <FormScaffold form={form} labels={LABELS} onSubmit={onSubmit} notice={saved && <Notice>Profile saved.</Notice>} submit={{ label: submitLabel, busyLabel: "Saving…" }}>
      <TextField
        name="displayName"
        label={LABELS.displayName}
        autoComplete="name"
        maxLength={MAX_DISPLAY_NAME}
        hint="Shown in the dashboard and to people you share builds with."
        {...form.bind("displayName", displayName, setDisplayName)}
      />
      <TextField
        name="organization"
        label={LABELS.organization}
        optional
        autoComplete="organization"
        maxLength={MAX_ORGANIZATION}
        {...form.bind("organization", organization, setOrganization)}
      />
    </FormScaffold>
  );
}
