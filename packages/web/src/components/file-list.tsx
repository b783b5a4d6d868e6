import { useState } from "react";
import type { FileSummary, LinkSummary } from "../api/dashboard.api";
import { Link } from "../app/router";
import { ItemList } from "./data";
import { INSTALL_BLOCKER_TEXT } from "@hangar/core/installability";
import { formatBytes } from "@hangar/core/format-bytes";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import "../styles/files.css";

export const versionOf = (f: Pick<FileSummary, "version" | "buildNumber">) =>
  f.version ? `${f.version}${f.buildNumber ? ` (${f.buildNumber})` : ""}` : f.buildNumber ? `(${f.buildNumber})` : "—";

export const platformLabel = (p: string | null) => (p === "android" ? "Android" : p === "ios" ? "iOS" : p ?? "—");

export function AppIcon({ url, size = 40 }: { url: string | null; size?: number }) {
  // A presigned address expires and a store may be unreachable: fall back to the placeholder
  // rather than a broken image. Decorative either way: the app's name is written next to it.
  const [failed, setFailed] = useState(false);
  if (url && !failed) {
    return <img className="app-icon" src={url} alt="" width={size} height={size} data-icon-url={url} onError={() => setFailed(true)} />;
  }
  return (
    <span className="app-icon app-icon-empty" aria-hidden="true" data-icon-url={url ?? undefined}>
      <svg viewBox="0 0 24 24" focusable="false">
        <path d="m12 3 8 4.5v9L12 21l-8-4.5v-9L12 3Z" />
      </svg>
    </span>
  );
}

export function FileStatus({ file }: { file: Pick<FileSummary, "status" | "rejection"> }) {
  if (file.status === "completed") return <span className="badge badge-success">Completed</span>;
  if (file.status === "pending") return <span className="badge badge-muted">Pending</span>;
  return (
    <span className="file-status-rejected">
      <span className="badge badge-danger">Rejected</span>
      {file.rejection && <span className="file-reason">{file.rejection.message}</span>}
    </span>
  );
}

/** A build no tester can install from its link (core's installability, decided when the list was read). */
export function NotInstallable({ file }: { file: Pick<FileSummary, "installBlocker"> }) {
  if (!file.installBlocker) return null;
  return (
    <span className="file-not-installable" data-testid="not-installable">
      <span className="badge badge-warning">Not installable</span>
      <span className="file-reason file-reason-warning">{INSTALL_BLOCKER_TEXT[file.installBlocker].split(". ")[0]}.</span>
    </span>
  );
}

/**
 * A build with `danger` changes since the previous build of its app (another signing key or team,
 * a runtime permission, a build number that did not go up): complete's stored verdict.
 */
export function DangerChanges({ file }: { file: Pick<FileSummary, "diffSeverity"> }) {
  if (file.diffSeverity !== "danger") return null;
  return (
    <span className="file-not-installable" data-testid="danger-changes">
      <span className="badge badge-danger">Risky changes</span>
      <span className="file-reason">See what changed since the previous build.</span>
    </span>
  );
}

const LINK_STATE: Record<Exclude<LinkSummary["state"], "open">, { label: string; badge: string }> = {
  disabled: { label: "Link off", badge: "badge-muted" },
  expired: { label: "Link expired", badge: "badge-danger" },
  capped: { label: "Limit reached", badge: "badge-danger" },
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** A row's link: its counts, and a badge when it does not serve (or asks for a password). */
export function LinkCounts({ share, platform }: { share: LinkSummary; platform: string | null }) {
  const state = share.state === "open" ? undefined : LINK_STATE[share.state];
  return (
    <span className="file-link" data-testid="file-link">
      {(state || share.hasPassword) && (
        <span className="file-link-badges">
          {state && <span className={`badge ${state.badge}`}>{state.label}</span>}
          {share.hasPassword && <span className="badge badge-accent">Protected</span>}
        </span>
      )}
      <span className="file-counts" data-testid="file-counts">
        {plural(share.downloads, "download", "downloads")}
        {/* What is counted is an iPhone or iPad asking for the install manifest (an install started, not
            one known to have finished): an Android build has none to show. */}
        {(platform === "ios" || share.installs > 0) && <> · {plural(share.installs, "iOS install request", "iOS install requests")}</>}
      </span>
    </span>
  );
}

/**
 * A list's files in the groups the dashboard shows apart: builds (completed: what the project's
 * file count counts), rejected uploads, and uploads still waiting for their complete.
 */
export function groupFiles(files: readonly FileSummary[]) {
  return {
    builds: files.filter((f) => f.status === "completed"),
    rejected: files.filter((f) => f.status === "rejected"),
    pending: files.filter((f) => f.status === "pending"),
  };
}

/** Builds as a list of rows (a table on wide screens, stacked cards on phones, same markup). */
export function FileList({ files, showProject, projectNames }: { files: readonly FileSummary[]; showProject?: boolean; projectNames?: Map<string, string> }) {
  return (
    <ItemList items={files} itemKey={(f) => f.fileId} className="file-list" itemClassName="file-row">
      {(f) => (
        <>
          <AppIcon url={f.iconUrl} />
          <div className="file-main">
            <Link to={paths.file(f.fileId)} className="file-name">
              {f.appName ?? f.fileName}
            </Link>
            <p className="file-meta">
              <span>{versionOf(f)}</span>
              <span>{platformLabel(f.platform)}</span>
              <span>{formatBytes(f.fileSize)}</span>
              {showProject && projectNames?.get(f.projectId) && <span>{projectNames.get(f.projectId)}</span>}
            </p>
            <p className="file-meta">
              <span>
                Uploaded <time dateTime={f.createdAt}>{formatDateTime(f.createdAt)}</time>
              </span>
              <span>{f.uploadedBy.clientId === null ? "from the dashboard" : `by key ${f.uploadedBy.name ?? f.uploadedBy.clientId}`}</span>
            </p>
          </div>
          <div className="file-state">
            <FileStatus file={f} />
            <NotInstallable file={f} />
            <DangerChanges file={f} />
            {f.share && <LinkCounts share={f.share} platform={f.platform} />}
          </div>
        </>
      )}
    </ItemList>
  );
}
