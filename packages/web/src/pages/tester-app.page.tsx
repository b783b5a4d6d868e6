import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { ApiError } from "../api/api-client";
import type { TesterAppDetail, TesterBuild } from "../api/tester.api";
import { testerAppQuery } from "../api/tester.queries";
import { Link } from "../app/router";
import { ErrorSummary } from "../components/alerts";
import { Loaded } from "../components/data";
import { AppIcon } from "../components/file-list";
import { BuildActions, BuildFacts, buildVersion, CheckThisDevice, currentDevice, DeviceVerdictNote, type Device } from "../components/tester-build";
import { TesterLayout } from "../components/tester-layout";
import "../styles/tester-portal.css";

/**
 * `/tester/apps/<projectId>`: every build of one app sent to the tester, newest first, each with
 * its release notes and the message the team sent with it; the newest of each platform is marked.
 */
export function TesterAppPage({ projectId }: { projectId: string }) {
  const device = useMemo(currentDevice, []);
  const app = useQuery(testerAppQuery(projectId));
  const notFound = app.error instanceof ApiError && app.error.status === 404;
  return (
    <TesterLayout
      title={app.data?.projectName ?? (notFound ? "App not found" : "App")}
      description={app.data?.workspaceName}
      back={<Link to="/apps">← All your apps</Link>}
    >
      {() =>
        notFound ? (
          <ErrorSummary message="No build of this app was sent to you. It may have been deleted, or sent to another address." />
        ) : (
          <Loaded query={app} label="the app">
            {(detail) => <Builds detail={detail} device={device} />}
          </Loaded>
        )
      }
    </TesterLayout>
  );
}

function Builds({ detail, device }: { detail: TesterAppDetail; device: Device }) {
  // The API lists newest first: the first of each platform is the one to install.
  const latest = new Set<string>();
  for (const platform of ["ios", "android"] as const) {
    const first = detail.builds.find((b) => b.platform === platform);
    if (first) latest.add(first.fileId);
  }
  if (detail.builds.length === 0) return <p className="muted">No builds of this app are available any more.</p>;
  return (
    <>
      <CheckThisDevice builds={detail.builds} device={device} enrollUrl={detail.enrollUrl} />
      <ol className="tester-history" data-testid="tester-builds" aria-label="Builds, newest first">
        {detail.builds.map((build) => (
          <li key={build.fileId} className="card tester-history-item">
            <BuildEntry build={build} latest={latest.has(build.fileId)} device={device} fallbackName={detail.projectName} />
          </li>
        ))}
      </ol>
    </>
  );
}

function BuildEntry({ build, latest, device, fallbackName }: { build: TesterBuild; latest: boolean; device: Device; fallbackName: string }) {
  const name = build.appName ?? fallbackName;
  const label = `${name} ${buildVersion(build)}`;
  return (
    <article className="tester-build-entry" aria-label={label}>
      <div className="tester-app-header">
        <AppIcon url={build.iconUrl} size={40} />
        <div className="tester-build-main">
          <h2 className="tester-build-title">
            {buildVersion(build)} {latest && <span className="badge badge-success">Latest</span>}
          </h2>
          <BuildFacts build={build} version={false} />
        </div>
      </div>
      {build.message && (
        <div className="tester-message">
          <h3 className="tester-label">From the team</h3>
          <p className="release-notes">{build.message}</p>
        </div>
      )}
      <div>
        <h3 className="tester-label">Release notes</h3>
        {build.releaseNotes ? <p className="release-notes">{build.releaseNotes}</p> : <p className="muted">No release notes for this build.</p>}
      </div>
      {/* The verdict before Install, as on the share page: the point is to know before tapping. */}
      <DeviceVerdictNote build={build} device={device} />
      <BuildActions build={build} device={device} label={label} />
    </article>
  );
}
