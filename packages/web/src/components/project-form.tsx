import { CreateProject, UpdateProject } from "@hangar/core/dashboard-schema";
import { useState, type FormEvent } from "react";
import type { Project } from "../api/dashboard.api";
import { useSaveProject } from "../api/dashboard.queries";
import { colorClass, colorLabel, PROJECT_COLOR_NAMES } from "../app/palette";
import { Button } from "./button";
import { fieldId, TextField } from "./field";
import { FormScaffold } from "./form-scaffold";
import { schemaErrors, useForm, whenEmpty } from "./use-form";
import "../styles/project-form.css";

const FIELDS = ["name", "description", "color"] as const;
const LABELS = { name: "Project name", description: "Description", color: "Color" };
const MESSAGES = { name: whenEmpty("Enter a project name."), color: whenEmpty("Choose a color.") };

/** Create a project in `workspaceId` (no `project`) or edit one: name, description and a color from the palette. */
export function ProjectForm({ project, workspaceId, onSaved, onCancel }: { project?: Project; workspaceId: string; onSaved(project: Project): void; onCancel?(): void }) {
  const form = useForm(FIELDS, LABELS);
  const save = useSaveProject();
  const [name, setName] = useState(project?.name ?? "");
  const [description, setDescription] = useState(project?.description ?? "");
  const [color, setColor] = useState(project?.color ?? "");

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = { name: name.trim(), description: description.trim(), color };
    void form.submit(schemaErrors(project ? UpdateProject : CreateProject, input, LABELS, MESSAGES), async () => {
      // The cache takes the saved project (its page and every list showing it); the caller moves on.
      onSaved(await save.mutateAsync(project ? { projectId: project.projectId, input } : { workspaceId, input }));
    });
  };

  const colorError = form.fieldErrors.color;
  return (
    <FormScaffold
      form={form}
      labels={LABELS}
      onSubmit={onSubmit}
      submit={{ label: project ? "Save changes" : "Create project", busyLabel: project ? "Saving…" : "Creating project…" }}
      actions={
        onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={form.busy}>
            Cancel
          </Button>
        )
      }
    >
      <TextField
        name="name"
        label={LABELS.name}
        value={name}
        maxLength={200}
        autoComplete="off"
        hint="1–80 characters, unique in the workspace."
        onValueChange={(v) => {
          setName(v);
          form.clearFieldError("name");
        }}
        error={form.fieldErrors.name}
      />
      <div className={`field${form.fieldErrors.description ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={fieldId("description")}>
          {LABELS.description}
          <span className="field-optional"> (optional)</span>
        </label>
        <textarea
          id={fieldId("description")}
          name="description"
          className="input textarea"
          rows={3}
          maxLength={1000}
          value={description}
          onChange={(e) => {
            setDescription(e.target.value);
            form.clearFieldError("description");
          }}
          aria-invalid={form.fieldErrors.description ? true : undefined}
          aria-describedby={form.fieldErrors.description ? `${fieldId("description")}-error` : undefined}
        />
        {form.fieldErrors.description && (
          <p id={`${fieldId("description")}-error`} className="field-error">
            {form.fieldErrors.description}
          </p>
        )}
      </div>
      <fieldset className={`field swatches${colorError ? " field-invalid" : ""}`} aria-describedby={colorError ? `${fieldId("color")}-error` : undefined}>
        <legend className="field-label">{LABELS.color}</legend>
        <div className="swatch-list">
          {PROJECT_COLOR_NAMES.map((name, i) => (
            <label key={name} className={`swatch ${colorClass(name)}`}>
              <input
                type="radio"
                name="color"
                value={name}
                id={i === 0 ? fieldId("color") : undefined}
                checked={color === name}
                onChange={() => {
                  setColor(name);
                  form.clearFieldError("color");
                }}
              />
              <span className="swatch-chip" aria-hidden="true" />
              <span className="swatch-name">{colorLabel(name)}</span>
            </label>
          ))}
        </div>
        {colorError && (
          <p id={`${fieldId("color")}-error`} className="field-error">
            {colorError}
          </p>
        )}
      </fieldset>
    </FormScaffold>
  );
}
