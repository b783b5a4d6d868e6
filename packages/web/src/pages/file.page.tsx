import { formatBytes } from "@hangar/core/format-bytes";
import { INSTALL_BLOCKER_TEXT } from "@hangar/core/installability";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { describeError } from "../api/api-client";
import type { FileDetail } from "../api/dashboard.api";
import { fileQuery, projectQuery, useDeleteFile } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link, useNavigate } from "../app/router";
import { useWorkspace } from "../app/workspace";
import { ErrorSummary } from "../components/alerts";
import { BuildChanges } from "../components/build-changes";
import { Button, DangerActions } from "../components/button";
import { CopyField, Loaded } from "../components/data";
import { Disclosure } from "../components/disclosure";
import { AppIcon, FileStatus, platformLabel, versionOf } from "../components/file-list";
import { FileTesters } from "../components/file-testers";
import { PinBuild } from "../components/pin-build";
import { FileDevicesCard } from "../components/file-devices";
import { AppShell, Card } from "../components/layouts";
import { ShareLinkSettings } from "../components/share-link-settings";
import "../styles/files.css";

/** Metadata keys shown in the summary above; the rest is listed under "All metadata". */
const SHOWN = new Set(["appName", "bundleId", "version", "buildNumber", "platform", "installable", "reason"]);

/** Readable labels for the extractor's usual keys; unknown keys are spelled out from camelCase. */
const LABELS: Record<string, string> = {
  minOs: "Minimum OS",
  minSdk: "Minimum SDK",
  minSdkVersion: "Minimum SDK",
  targetSdk: "Target SDK",
  targetSdkVersion: "Target SDK",
  permissions: "Permissions",
  locales: "Locales",
  provisioning: "Provisioning profile",
  teamId: "Team ID",
  teamName: "Team",
  expiresAt: "Expires",
  expirationDate: "Expires",
  devices: "Devices",
  deviceCount: "Device count",
  kind: "Kind",
};

const label = (key: string) => LABELS[key] ?? key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());

/** Any JSON value as markup; lists are capped so a hostile or huge list cannot swamp the page. */
function Value({ value }: { value: unknown }): ReactNode {
  if (value === null || value === undefined || value === "") return <span className="muted">—</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">None</span>;
    const shown = value.slice(0, 100);
    return (
      <>
        <span className="muted">{value.length} in total</span>
        <ul className="meta-list">
          {shown.map((v, i) => (
            <li key={i}>{typeof v === "object" ? <Value value={v} /> : String(v)}</li>
          ))}
          {value.length > shown.length && <li className="muted">and {value.length - shown.length} more</li>}
        </ul>
      </>
    );
  }
  if (typeof value === "object") {
    return (
      <dl className="meta-nested">
        {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
          <div key={k}>
            {/* Nested keys are often data themselves (locale codes of labels): shown as they are. */}
            <dt>{LABELS[k] ?? k}</dt>
            <dd>
              <Value value={v} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <>{String(value)}</>;
}

export function FilePage({ fileId }: { fileId: string }) {
  const query = useQuery(fileQuery(fileId));
  const file = query.data;
  // A build's workspace is its project's (the project answer names it; cached from the project page).
  const project = useQuery({ ...projectQuery(file?.projectId ?? ""), enabled: Boolean(file) });
  const workspaceId = project.data?.workspaceId;
  const { can } = useWorkspace(workspaceId);
  // Until the project says which workspace this is, nothing that changes the build is offered.
  const allowed = {
    links: Boolean(workspaceId) && can("links.manage"),
    builds: Boolean(workspaceId) && can("builds.manage"),
    distribute: Boolean(workspaceId) && can("builds.distribute"),
  };
  return (
    <AppShell
      workspaceId={workspaceId}
      title={file ? (file.appName ?? file.fileName) : "Build"}
      description={file ? `${versionOf(file)} · ${platformLabel(file.platform)}` : undefined}
      actions={
        file ? (
          <Link to={paths.project(file.projectId)} className="button button-secondary">
            {file.projectName}
          </Link>
        ) : undefined
      }
    >
      <Loaded query={query} label="the build">
        {(file) => <FileDetails file={file} workspaceId={workspaceId} canManageLinks={allowed.links} canDelete={allowed.builds} canDistribute={allowed.distribute} />}
      </Loaded>
    </AppShell>
  );
}

/** The notes and CI context complete was given, as text (React escapes every value). */
function ReleaseNotes({ file }: { file: FileDetail }) {
  if (!file.releaseNotes && !file.branch && !file.commit && !file.ciUrl) return null;
  // complete accepts only http(s) run URLs; checked again so no other scheme can become a link.
  const ciUrl = file.ciUrl && /^https?:\/\//i.test(file.ciUrl) ? file.ciUrl : null;
  return (
    <Card title="Release notes" id="release-notes" description="What the CI job that uploaded this build sent with it.">
      {file.releaseNotes ? (
        <p className="release-notes" data-testid="release-notes">
          {file.releaseNotes}
        </p>
      ) : (
        <p className="muted">No release notes were sent with this build.</p>
      )}
      {(file.branch || file.commit || ciUrl) && (
        <dl className="facts facts-plain build-context">
          {file.branch && (
            <div>
              <dt>Branch</dt>
              <dd className="break-anywhere">{file.branch}</dd>
            </div>
          )}
          {file.commit && (
            <div>
              <dt>Commit</dt>
              <dd className="break-anywhere mono">{file.commit}</dd>
            </div>
          )}
          {ciUrl && (
            <div>
              <dt>CI run</dt>
              <dd className="break-anywhere">
                <a href={ciUrl} target="_blank" rel="noopener noreferrer">
                  Open the CI run
                </a>
              </dd>
            </div>
          )}
        </dl>
      )}
    </Card>
  );
}

function FileDetails({ file, workspaceId, canManageLinks, canDelete, canDistribute }: { file: FileDetail; workspaceId: string | undefined; canManageLinks: boolean; canDelete: boolean; canDistribute: boolean }) {
  const share = file.share ?? null;
  const extra = Object.entries(file.metadata ?? {}).filter(([k]) => !SHOWN.has(k));
  return (
    <div className="stack file-details">
      {file.installBlocker && (
        <div className="alert alert-warning" role="note" data-testid="install-warning">
          <p className="alert-title">Testers cannot install this build from its link.</p>
          <p>{INSTALL_BLOCKER_TEXT[file.installBlocker]}</p>
        </div>
      )}
      <Card title="Summary" id="summary">
        <div className="file-hero">
          <AppIcon url={file.iconUrl} size={64} />
          <dl className="facts facts-plain">
            <div>
              <dt>App name</dt>
              <dd>{file.appName ?? "—"}</dd>
            </div>
            <div>
              <dt>Bundle / package ID</dt>
              <dd className="break-anywhere">{file.bundleId ?? "—"}</dd>
            </div>
            <div>
              <dt>Version (build)</dt>
              <dd>{versionOf(file)}</dd>
            </div>
            <div>
              <dt>Platform</dt>
              <dd>{platformLabel(file.platform)}</dd>
            </div>
            <div>
              <dt>File</dt>
              <dd className="break-anywhere">
                {file.fileName} · {formatBytes(file.fileSize)}
              </dd>
            </div>
            <div>
              <dt>Uploaded</dt>
              <dd>{formatDateTime(file.createdAt)}</dd>
            </div>
            <div>
              <dt>{file.uploadedBy.clientId === null ? "Uploaded from" : "Uploaded with key"}</dt>
              <dd className="break-anywhere">{file.uploadedBy.clientId === null ? "The dashboard" : (file.uploadedBy.name ?? file.uploadedBy.clientId)}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <FileStatus file={file} />
              </dd>
            </div>
          </dl>
        </div>
      </Card>
      {file.status === "completed" && <BuildChanges file={file} />}
      <ReleaseNotes file={file} />
      <PinBuild file={file} canManage={canDelete} />
      {share && <ShareLinkSettings file={file} share={share} canManage={canManageLinks} />}
      {((file.shareUrl && !share) || file.downloadUrl) && (
        <Card
          title="Links"
          id="links"
          description={share ? "The download link fetches the package directly; it follows the share link's settings." : "Send the share link to testers; the download link fetches the package directly."}
        >
          {file.shareUrl && !share && <CopyField id="share-url" label="Share link" value={file.shareUrl} />}
          {file.downloadUrl && <CopyField id="download-url" label="Download link" value={file.downloadUrl} />}
        </Card>
      )}
      {workspaceId && file.status !== "rejected" && <FileTesters file={file} workspaceId={workspaceId} canDistribute={canDistribute} />}
      {workspaceId && <FileDevicesCard file={file} workspaceId={workspaceId} />}
      <Card title="All metadata" id="metadata" description="Everything Hangar read from the package.">
        {extra.length === 0 ? (
          <p className="muted">No further metadata was extracted from this package.</p>
        ) : (
          <Disclosure summary={`${extra.length} ${extra.length === 1 ? "field" : "fields"}`}>
            <dl className="meta-grid" data-testid="metadata">
              {extra.map(([k, v]) => (
                <div key={k}>
                  <dt>{label(k)}</dt>
                  <dd>
                    <Value value={v} />
                  </dd>
                </div>
              ))}
            </dl>
          </Disclosure>
        )}
      </Card>
      {canDelete && <DeleteFile file={file} />}
    </div>
  );
}

function DeleteFile({ file }: { file: FileDetail }) {
  const navigate = useNavigate();
  const deleteFile = useDeleteFile();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await deleteFile.mutateAsync(file);
      navigate(paths.project(file.projectId), { replace: true });
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };
  return (
    <Card title="Delete build" id="delete-file" description="Deletes the package, its icon and its share link; the link then tells testers the build was removed.">
      {error && <ErrorSummary message={error} />}
      {confirming ? (
        <div className="confirm" role="group" aria-label="Confirm delete">
          <p>Delete {file.appName ?? file.fileName} {versionOf(file)}? This cannot be undone.</p>
          <DangerActions label="Delete build" busyLabel="Deleting…" busy={busy} onConfirm={() => void remove()} onCancel={() => setConfirming(false)} />
        </div>
      ) : (
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Delete build…
        </Button>
      )}
    </Card>
  );
}
