import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { buildDiffQuery, type BuildChange, type ChangeSeverity } from "../api/build-diff.queries";
import type { FileDetail, FileSummary } from "../api/dashboard.api";
import { projectFilesQuery } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { Button } from "./button";
import { Loaded } from "./data";
import { versionOf } from "./file-list";
import { Card } from "./layouts";
import "../styles/build-changes.css";

/**
 * What changed between this build and the one before it (or any other build of the same app the
 * person picks): issue 24's "Changes since …" and "compare any two builds", from
 * `GET /api/files/{fileId}/diff[?against=]` (core's diffBuilds, the rule complete and the CLI's
 * gate apply too). The severity is written out, never shown by color alone.
 */

const SEVERITY: Record<ChangeSeverity, { label: string; badge: string }> = {
  danger: { label: "Danger", badge: "badge-danger" },
  warning: { label: "Warning", badge: "badge-warning" },
  info: { label: "Info", badge: "badge-muted" },
};

/** The builds of the same app (platform and bundle id) in the project, but this one. */
function sameApp(file: FileDetail, files: readonly FileSummary[]): FileSummary[] {
  return files.filter((f) => f.fileId !== file.fileId && f.status === "completed" && f.platform === file.platform && f.bundleId === file.bundleId);
}

export function BuildChanges({ file }: { file: FileDetail }) {
  const pickerId = useId();
  // undefined: the previous build (what complete compared with).
  const [against, setAgainst] = useState<string | undefined>(undefined);
  const diff = useQuery(buildDiffQuery(file.fileId, against));
  const builds = useInfiniteQuery(projectFilesQuery(file.projectId));
  const others = sameApp(file, builds.data?.pages.flatMap((p) => p.items) ?? []);
  const picked = against ? others.find((f) => f.fileId === against) : undefined;

  const previous = diff.data?.diff?.previous;
  const title = previous ? `Changes since ${versionOf(previous)}` : "Changes since the previous build";
  return (
    <Card
      title={title}
      id="changes"
      description="What changed from the previous build of this app: signing, permissions, SDK levels, build number, profile, size."
    >
      <div className="changes-compare">
        <label htmlFor={pickerId} className="field-label">
          Compare with…
        </label>
        <select
          id={pickerId}
          className="input select select-small changes-picker"
          value={against ?? ""}
          onChange={(event) => setAgainst(event.target.value || undefined)}
        >
          <option value="">The previous build</option>
          {others.map((f) => (
            <option key={f.fileId} value={f.fileId}>
              {versionOf(f)} · {formatDateTime(f.completedAt ?? f.createdAt)}
            </option>
          ))}
        </select>
        {builds.hasNextPage && (
          <Button variant="secondary" className="button-small" busy={builds.isFetchingNextPage} onClick={() => void builds.fetchNextPage()}>
            Load older builds
          </Button>
        )}
      </div>
      <Loaded query={diff} label="the changes">
        {({ diff: answer }) =>
          answer === null ? (
            <p className="muted" data-testid="changes-none">
              This is the first build of this app in the project: there is nothing to compare it with yet.
            </p>
          ) : (
            <>
              <p className="changes-against">
                {picked ? "Compared with " : "Compared with the previous build, "}
                <Link to={paths.file(answer.previous.fileId)}>{versionOf(answer.previous)}</Link>
                {picked && ` (${formatDateTime(picked.completedAt ?? picked.createdAt)})`}.
              </p>
              {answer.changes.length === 0 ? (
                <p className="muted" data-testid="changes-none">
                  Nothing that Hangar compares changed.
                </p>
              ) : (
                <ul className="change-list" data-testid="changes">
                  {answer.changes.map((change, i) => (
                    <ChangeRow key={`${change.kind}-${i}`} change={change} />
                  ))}
                </ul>
              )}
            </>
          )
        }
      </Loaded>
    </Card>
  );
}

function ChangeRow({ change }: { change: BuildChange }) {
  const severity = SEVERITY[change.severity];
  return (
    <li className={`change change-${change.severity}`} data-kind={change.kind}>
      <span className={`badge ${severity.badge}`}>{severity.label}</span>
      <span className="change-text">
        <span className="break-anywhere">{change.message}</span>
        <code className="change-kind">{change.kind}</code>
      </span>
    </li>
  );
}
