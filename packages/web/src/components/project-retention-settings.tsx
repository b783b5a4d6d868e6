import { RETENTION_BOUNDS, RetentionInput } from "@hangar/core/dashboard-schema";
import { formatBytes } from "@hangar/core/format-bytes";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { describeError } from "../api/api-client";
import type { Project } from "../api/dashboard.api";
import { retentionPreviewQuery, useSetRetention, type CandidatePolicy, type RetentionPreview } from "../api/retention.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { ErrorSummary, Notice } from "./alerts";
import { Button } from "./button";
import { Loaded } from "./data";
import { TextField } from "./field";
import { platformLabel } from "./file-list";
import { FormScaffold } from "./form-scaffold";
import { Card, EmptyState } from "./layouts";
import { useForm } from "./use-form";
import "../styles/retention.css";

const FIELDS = ["keepLatest", "maxAgeDays"] as const;
const LABELS = { keepLatest: "Builds to keep", maxAgeDays: "Maximum age in days" };

/** "Keep the 5 newest builds per platform and branch, and none older than 30 days." */
export function policyText(policy: Project["retention"]): string {
  if (!policy) return "Off: builds are kept until someone deletes them.";
  const parts = [
    policy.keepLatest !== null ? `keep the ${policy.keepLatest === 1 ? "newest build" : `${policy.keepLatest} newest builds`} of each platform and branch` : null,
    policy.maxAgeDays !== null ? `remove builds older than ${policy.maxAgeDays} ${policy.maxAgeDays === 1 ? "day" : "days"}` : null,
  ].filter(Boolean);
  const text = parts.join(", and ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const REASONS = { over_keep_latest: "Beyond the newest to keep", older_than_max_age: "Older than the maximum age" } as const;

/** How long typing pauses before the preview asks for the new numbers. */
const PREVIEW_DEBOUNCE_MS = 400;

// Empty means "not applied"; anything else must be the whole number the API takes.
const numberOf = (text: string): number | null => (text.trim() === "" ? null : /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

/**
 * What the form holds, as the preview asks for it: undefined when it is the saved policy (the
 * saved preview), "invalid" while a field is not a number the API takes, else the candidate.
 */
function candidateOf(keepLatest: string, maxAgeDays: string, saved: Project["retention"]): CandidatePolicy | "invalid" | undefined {
  const candidate = { keepLatest: numberOf(keepLatest), maxAgeDays: numberOf(maxAgeDays) };
  if (fieldProblem(candidate.keepLatest, RETENTION_BOUNDS.keepLatest) || fieldProblem(candidate.maxAgeDays, RETENTION_BOUNDS.maxAgeDays)) return "invalid";
  const same = saved ? candidate.keepLatest === saved.keepLatest && candidate.maxAgeDays === saved.maxAgeDays : candidate.keepLatest === null && candidate.maxAgeDays === null;
  return same ? undefined : candidate;
}

/** `value`, once it has not changed for `ms` (the preview does not ask on every keystroke). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A project's retention (issue 24, docs/release-safety.md "Retention"): its storage, its policy
 * (keep the newest N builds per platform and branch, and/or none older than D days; off), and a
 * preview of exactly what the daily run would remove now. Everyone reads; `projects.manage` changes.
 */
export function ProjectRetentionSettings({ project, canManage }: { project: Project; canManage: boolean }) {
  const [previewing, setPreviewing] = useState(false);
  // The form's numbers live here: the preview shows what they would remove before they are saved.
  const [keepLatest, setKeepLatest] = useState(project.retention?.keepLatest?.toString() ?? "");
  const [maxAgeDays, setMaxAgeDays] = useState(project.retention?.maxAgeDays?.toString() ?? "");
  const typed = candidateOf(keepLatest, maxAgeDays, project.retention);
  // Compared by value: a new object per render must not restart the wait.
  const candidate = useDebounced(JSON.stringify(typed ?? null), PREVIEW_DEBOUNCE_MS);
  const previewed = JSON.parse(candidate) as CandidatePolicy | "invalid" | null;
  const typedPolicy = typeof typed === "object" && (typed.keepLatest !== null || typed.maxAgeDays !== null);
  return (
    <Card
      title="Retention"
      id="retention"
      description="Keeps the project's storage in check: once a day, builds the policy names are removed with their links, as if deleted by hand. Pinned builds and each platform's newest build are always kept."
    >
      <dl className="facts facts-plain">
        <div>
          <dt>Storage</dt>
          <dd data-testid="retention-storage">
            {project.storageBytes === null ? "Not counted yet" : formatBytes(project.storageBytes)} in {project.fileCount} {project.fileCount === 1 ? "build" : "builds"}
          </dd>
        </div>
        <div>
          <dt>Policy</dt>
          <dd data-testid="retention-policy">{policyText(project.retention)}</dd>
        </div>
      </dl>
      {canManage && (
        <RetentionForm
          project={project}
          values={{ keepLatest, maxAgeDays }}
          onValues={{ keepLatest: setKeepLatest, maxAgeDays: setMaxAgeDays }}
          onSaved={() => setPreviewing(true)}
        />
      )}
      {(project.retention || typedPolicy || (previewing && previewed !== null)) && (
        <div className="retention-preview">
          {previewing ? (
            <Preview projectId={project.projectId} candidate={previewed ?? undefined} />
          ) : (
            <Button variant="secondary" onClick={() => setPreviewing(true)}>
              Preview what would be removed
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}

type Fields = Record<(typeof FIELDS)[number], string>;

function RetentionForm({
  project,
  values: { keepLatest, maxAgeDays },
  onValues: { keepLatest: setKeepLatest, maxAgeDays: setMaxAgeDays },
  onSaved,
}: {
  project: Project;
  values: Fields;
  onValues: Record<keyof Fields, (value: string) => void>;
  onSaved: () => void;
}) {
  const form = useForm(FIELDS, LABELS);
  const save = useSetRetention(project.projectId);
  const [notice, setNotice] = useState<string>();
  const [turningOff, setTurningOff] = useState(false);
  const [offError, setOffError] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(undefined);
    const input = { keepLatest: numberOf(keepLatest), maxAgeDays: numberOf(maxAgeDays) };
    const errors = {
      keepLatest: fieldProblem(input.keepLatest, RETENTION_BOUNDS.keepLatest),
      maxAgeDays: fieldProblem(input.maxAgeDays, RETENTION_BOUNDS.maxAgeDays),
    };
    const neither = input.keepLatest === null && input.maxAgeDays === null;
    void form.submit(neither ? { keepLatest: "Enter how many builds to keep, a maximum age, or both (or turn retention off below)." } : errors, async () => {
      const checked = RetentionInput.safeParse(input);
      if (!checked.success) throw new Error("The policy is not valid.");
      await save.mutateAsync(checked.data);
      setNotice("Retention policy saved. It is applied once a day; the preview below shows what it removes now.");
      onSaved();
    });
  };
  const turnOff = async () => {
    setTurningOff(true);
    setOffError(undefined);
    try {
      await save.mutateAsync(null);
      setKeepLatest("");
      setMaxAgeDays("");
      setNotice("Retention turned off: builds are kept until someone deletes them.");
    } catch (error) {
      setOffError(describeError(error));
    } finally {
      setTurningOff(false);
    }
  };
  return (
    <FormScaffold
      form={form}
      labels={LABELS}
      onSubmit={onSubmit}
      notice={notice && <Notice>{notice}</Notice>}
      submit={{ label: "Save policy", busyLabel: "Saving…" }}
      actions={
        project.retention && (
          <Button variant="secondary" busy={turningOff} busyLabel="Turning off…" onClick={() => void turnOff()}>
            Turn retention off
          </Button>
        )
      }
      aria-label="Retention policy"
    >
      {offError && <ErrorSummary message={offError} />}
      <div className="form-row">
        <TextField
          name="keepLatest"
          label={LABELS.keepLatest}
          inputMode="numeric"
          autoComplete="off"
          optional
          hint={`The newest builds kept per platform and branch (${RETENTION_BOUNDS.keepLatest.min}–${RETENTION_BOUNDS.keepLatest.max}). Empty: no limit.`}
          {...form.bind("keepLatest", keepLatest, setKeepLatest)}
        />
        <TextField
          name="maxAgeDays"
          label={LABELS.maxAgeDays}
          inputMode="numeric"
          autoComplete="off"
          optional
          hint={`Builds older than this are removed (${RETENTION_BOUNDS.maxAgeDays.min}–${RETENTION_BOUNDS.maxAgeDays.max}). Empty: no limit.`}
          {...form.bind("maxAgeDays", maxAgeDays, setMaxAgeDays)}
        />
      </div>
    </FormScaffold>
  );
}

function fieldProblem(value: number | null, bounds: { min: number; max: number }): string | undefined {
  if (value === null) return undefined;
  if (!Number.isInteger(value)) return "Enter a whole number, or leave it empty.";
  if (value < bounds.min || value > bounds.max) return `Enter a number from ${bounds.min} to ${bounds.max.toLocaleString("en")}.`;
  return undefined;
}

/** The saved policy's preview, or (with a candidate) what the numbers typed but not saved would remove. */
function Preview({ projectId, candidate }: { projectId: string; candidate: CandidatePolicy | "invalid" | undefined }) {
  const asked = candidate === "invalid" ? undefined : candidate;
  const query = useQuery(retentionPreviewQuery(projectId, candidate !== "invalid", asked));
  return (
    <section aria-labelledby="retention-preview-title" className="section" data-testid="retention-preview" aria-busy={query.isFetching}>
      <h3 id="retention-preview-title" className="section-title">
        {candidate ? "What these numbers would remove now (not saved)" : "What the policy would remove now"}
      </h3>
      {candidate === "invalid" ? (
        <p className="muted">Enter whole numbers in the ranges above to see what they would remove.</p>
      ) : (
        <Loaded query={query} label="the preview">
          {(preview) =>
            preview.items.length === 0 ? (
              <EmptyState title="Nothing to remove" headingLevel={3}>
                <p>{preview.policy ? "Every build is within the policy." : "With both fields empty nothing is removed."}</p>
              </EmptyState>
            ) : (
              <PreviewTable preview={preview} />
            )
          }
        </Loaded>
      )}
    </section>
  );
}

function PreviewTable({ preview }: { preview: RetentionPreview }) {
  const count = preview.items.length;
  return (
    <>
      <p>
        {count} {count === 1 ? "build" : "builds"}, {formatBytes(preview.bytes)}. Pin a build on its page to keep it.
      </p>
      <div className="panel table-panel">
        <table className="table">
          <caption className="visually-hidden">Builds the retention policy would remove now, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Build</th>
              <th scope="col">Branch</th>
              <th scope="col">Completed</th>
              <th scope="col">Size</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {preview.items.map((item) => (
              <tr key={item.fileId}>
                <th scope="row">
                  <Link to={paths.file(item.fileId)}>{item.version ? `${item.version}${item.build ? ` (${item.build})` : ""}` : item.fileId}</Link> <span className="muted">{platformLabel(item.platform)}</span>
                </th>
                <td data-label="Branch" className="break-anywhere">{item.branch ?? <span className="muted">—</span>}</td>
                <td data-label="Completed">{formatDateTime(item.completedAt)}</td>
                <td data-label="Size">{formatBytes(item.size)}</td>
                <td data-label="Why">{item.reasons.map((r) => REASONS[r]).join("; ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
