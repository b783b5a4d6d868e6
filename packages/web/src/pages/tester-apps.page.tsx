import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { TesterApp, TesterBuild } from "../api/tester.api";
import { testerAppsQuery } from "../api/tester.queries";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { Notice } from "../components/alerts";
import { Loaded } from "../components/data";
import { AppIcon } from "../components/file-list";
import { EmptyState } from "../components/layouts";
import { BuildActions, BuildFacts, buildVersion, CheckThisDevice, currentDevice, DeviceVerdictNote, type Device } from "../components/tester-build";
import { TesterLayout } from "../components/tester-layout";
import "../styles/tester-portal.css";

/**
 * `/apps`: every app sent to the signed-in tester, each with its newest build per platform and the
 * button this device needs. On a computer it also says how to get there on the phone, where the
 * installing happens.
 */
export function TesterAppsPage() {
  const device = useMemo(currentDevice, []);
  return (
    <TesterLayout title="Your apps" description="The builds teams sent you, newest first.">
      {(session) => <Apps email={session.email} device={device} />}
    </TesterLayout>
  );
}

function Apps({ email, device }: { email: string; device: Device }) {
  const apps = useQuery(testerAppsQuery());
  return (
    <Loaded query={apps} label="your apps">
      {({ items, enrollUrl }) =>
        items.length === 0 ? (
          <div className="card">
            <EmptyState
              title="No builds yet"
              icon={
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="m12 3 8 4.5v9L12 21l-8-4.5v-9L12 3Z" />
                </svg>
              }
            >
              <p>
                When a team sends a build to <strong className="break-anywhere">{email}</strong>, you get an e-mail with an Install button and the app shows up here.
              </p>
              <p>Expecting one? Ask the team to add this address to their testers, or to send you the build.</p>
            </EmptyState>
          </div>
        ) : (
          <>
            {device === "desktop" && (
              <Notice kind="info" title="Installing on a phone?">
                Open <strong className="break-anywhere">{`${window.location.origin}/apps`}</strong> on it and sign in with the same address, or open a build’s install page
                here and scan its QR code.
              </Notice>
            )}
            <CheckThisDevice builds={items.flatMap((a) => (a.latest.ios ? [a.latest.ios] : []))} device={device} enrollUrl={enrollUrl} />
            <ul className="tester-apps" data-testid="tester-apps">
              {items.map((app) => (
                <li key={app.projectId}>
                  <AppCard app={app} device={device} />
                </li>
              ))}
            </ul>
          </>
        )
      }
    </Loaded>
  );
}

/** Platforms in the order this device cares about: its own first. */
const platformsFor = (device: Device): ("ios" | "android")[] => (device === "android" ? ["android", "ios"] : ["ios", "android"]);

function AppCard({ app, device }: { app: TesterApp; device: Device }) {
  const builds = platformsFor(device)
    .map((p) => app.latest[p])
    .filter((b): b is TesterBuild => b !== null);
  const icon = builds.find((b) => b.iconUrl)?.iconUrl ?? null;
  const headingId = `app-${app.projectId}`;
  return (
    <section className="card tester-app" aria-labelledby={headingId}>
      <div className="tester-app-header">
        <AppIcon url={icon} size={48} />
        <div className="tester-app-title">
          <h2 className="card-title" id={headingId}>
            <Link to={paths.testerApp(app.projectId)}>{app.projectName}</Link>
          </h2>
          <p className="muted">{app.workspaceName}</p>
        </div>
      </div>
      <ul className="tester-builds">
        {builds.map((build) => (
          <li key={build.fileId} className="tester-build">
            <div className="tester-build-main">
              <p className="file-name">{build.appName ?? app.projectName}</p>
              <BuildFacts build={build} />
            </div>
            {/* The verdict before Install, as on the share page: the point is to know before tapping. */}
            <DeviceVerdictNote build={build} device={device} />
            <BuildActions build={build} device={device} label={`${build.appName ?? app.projectName} ${buildVersion(build)}`} />
          </li>
        ))}
      </ul>
      <p className="tester-app-more">
        <Link to={paths.testerApp(app.projectId)}>Release notes and earlier builds</Link>
      </p>
    </section>
  );
}
