import { useState, type FormEvent } from "react";
import { dashboardApi, type Project } from "../api/dashboard.api";
import { colorClass, colorLabel, PROJECT_COLOR_NAMES } from "../app/palette";
import { ErrorSummary } from "./alerts";
import { Button } from "./button";
import { fieldId, TextField } from "./field";
import { useForm } from "./use-form";

const FIELDS = ["name", "description", "color"] as const;
const LABELS = { name: "Project name", description: "Description", color: "Color" };

/** Create (no `project`) or edit a project: name, description and a color from the palette. */
export function ProjectForm({ project, onSaved, onCancel }: { project?: Project; onSaved(project: Project): void; onCancel?(): void }) {
  const form = useForm(FIELDS, LABELS);
  const [name, setName] = useState(project?.name ?? "");
  const [description, setDescription] = useState(project?.description ?? "");
  const [color, setColor] = useState(project?.color ?? "");

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const clientErrors = {
      name: !trimmed ? "Enter a project name." : [...trimmed].length > 80 ? "Use at most 80 characters." : undefined,
      description: [...description.trim()].length > 500 ? "Use at most 500 characters." : undefined,
      color: color ? undefined : "Choose a color.",
    };
    void form.submit(clientErrors, async () => {
      const input = { name: trimmed, description: description.trim(), color };
      onSaved(project ? await dashboardApi.updateProject(project.projectId, input) : await dashboardApi.createProject(input));
    });
  };

  const colorError = form.fieldErrors.color;
  return (
    <>
      <ErrorSummary message={form.formError} fieldErrors={form.fieldErrors} labels={LABELS} summaryRef={form.summaryRef} />
      <form className="form" noValidate onSubmit={onSubmit}>
        <TextField
          name="name"
          label={LABELS.name}
          value={name}
          maxLength={200}
          autoComplete="off"
          hint="1–80 characters, unique in your account."
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
        <div className="form-actions form-actions-row">
          <Button type="submit" busy={form.busy} busyLabel={project ? "Saving…" : "Creating project…"}>
            {project ? "Save changes" : "Create project"}
          </Button>
          {onCancel && (
            <Button variant="secondary" onClick={onCancel} disabled={form.busy}>
              Cancel
            </Button>
          )}
        </div>
      </form>
    </>
  );
}
