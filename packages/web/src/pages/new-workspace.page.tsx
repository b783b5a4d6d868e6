import { CreateWorkspace } from "@hangar/core/workspace-schema";
import { useState, type FormEvent } from "react";
import { useCreateWorkspace } from "../api/workspaces.queries";
import { inTeamWords, useSwitchWorkspace } from "../app/workspace";
import { Button } from "../components/button";
import { TextField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card } from "../components/layouts";
import { schemaErrors, useForm, whenEmpty } from "../components/use-form";

const FIELDS = ["name"] as const;
const LABELS = { name: "Workspace name" };
const MESSAGES = { name: whenEmpty("Enter a workspace name.") };

/** "New workspace" from the switcher: the caller becomes its owner, and lands in it to invite the team. */
export function NewWorkspacePage() {
  const form = useForm(FIELDS, LABELS);
  const create = useCreateWorkspace();
  const switchTo = useSwitchWorkspace();
  const [name, setName] = useState("");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = { name: name.trim() };
    void form.submit(schemaErrors(CreateWorkspace, input, LABELS, MESSAGES), async () => {
      const workspace = await inTeamWords(create.mutateAsync(input.name));
      switchTo(workspace.workspaceId, "/settings/members");
    });
  };
  return (
    <AppShell title="New workspace" description="A workspace holds a team's projects, builds and API keys; you invite the team after creating it.">
      <Card title="Workspace details" id="workspace-details">
        <FormScaffold
          form={form}
          labels={LABELS}
          onSubmit={onSubmit}
          submit={{ label: "Create workspace", busyLabel: "Creating workspace…" }}
          actions={
            <Button variant="secondary" disabled={form.busy} onClick={() => window.history.back()}>
              Cancel
            </Button>
          }
        >
          <TextField name="name" label={LABELS.name} maxLength={200} autoComplete="organization" hint="For example your team's or app's name, 1–80 characters. You will be its owner." {...form.bind("name", name, setName)} />
        </FormScaffold>
      </Card>
    </AppShell>
  );
}
