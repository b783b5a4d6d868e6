import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { FileDetail } from "../api/dashboard.api";
import { devicesExportUrl, type Device, type FileDevices } from "../api/devices.api";
import { fileDevicesQuery } from "../api/devices.queries";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { Loaded } from "./data";
import { deviceModel } from "./device-facts";
import { Card } from "./layouts";

/** The profile kinds whose builds install on the devices they list, and only those. */
const LISTS_DEVICES = new Set(["ad-hoc", "development"]);

/**
 * A build's "Devices" (issue 22 item 3): which registered devices of the workspace its ad-hoc or
 * development profile includes, which it lacks (they cannot install it), and how many of its UDIDs
 * no device here has; the missing ones as Apple's import file. Shown for iOS builds only, and
 * only when the profile lists devices: App Store and enterprise builds install on any device
 * (their own texts say so), Android has no profile.
 */
export function FileDevicesCard({ file, workspaceId }: { file: FileDetail; workspaceId: string }) {
  const query = useQuery({ ...fileDevicesQuery(file.fileId), enabled: file.platform === "ios" && file.status === "completed" });
  if (file.platform !== "ios" || file.status !== "completed") return null;
  // Until the answer says which profile this is, nothing: an App Store build must not flash a card.
  if (query.isPending) return null;
  const answer = query.data;
  if (answer && !answer.known && !LISTS_DEVICES.has(answer.profileKind ?? "")) return null;
  return (
    <Card title="Devices" id="devices" description="The workspace’s registered iPhones and iPads against this build’s provisioning profile: a device the profile lacks cannot install the build.">
      <Loaded query={query} label="the build’s devices">
        {(devices) => (devices.known ? <DeviceLists devices={devices} file={file} workspaceId={workspaceId} /> : <OlderBuild workspaceId={workspaceId} />)}
      </Loaded>
    </Card>
  );
}

/** An ad-hoc or development build stored before Hangar kept its profile's UDIDs. */
function OlderBuild({ workspaceId }: { workspaceId: string }) {
  return (
    <p className="muted" data-testid="devices-unknown">
      This build was uploaded before Hangar kept its profile’s device list, so it cannot say which devices it installs on. The next upload of it will show them. Meanwhile, see every{" "}
      <Link to={paths.inWorkspace("/testers/devices", workspaceId)}>registered device</Link>.
    </p>
  );
}

function DeviceLists({ devices, file, workspaceId }: { devices: FileDevices; file: FileDetail; workspaceId: string }) {
  const registered = devices.included.length + devices.missing.length;
  return (
    <div className="stack-tight">
      <p data-testid="devices-summary">
        {registered === 0 ? (
          <>No device is registered in this workspace yet.</>
        ) : (
          <>
            <strong>
              {devices.included.length} of {registered}
            </strong>{" "}
            registered {registered === 1 ? "device is" : "devices are"} in this build’s {devices.profileKind} profile.
          </>
        )}{" "}
        {devices.unregistered.length > 0 && (
          <span data-testid="devices-unregistered">
            {devices.unregistered.length} {devices.unregistered.length === 1 ? "UDID" : "UDIDs"} in the profile {devices.unregistered.length === 1 ? "belongs" : "belong"} to no device registered here.
          </span>
        )}
      </p>
      {devices.missing.length > 0 && (
        <section aria-labelledby="devices-missing-heading" className="stack-tight">
          <h3 id="devices-missing-heading" className="section-title">
            Missing from the profile <span className="section-count">{devices.missing.length}</span>
          </h3>
          <p className="muted">These devices cannot install this build. Register them on Apple’s developer portal (it imports this file), add them to the profile, regenerate it, and upload the build again.</p>
          <div className="form-actions-row">
            <a className="button button-primary" href={devicesExportUrl(workspaceId, file.fileId)} download data-testid="export-missing">
              Export missing for Apple (.tsv)
            </a>
          </div>
          <DeviceMiniTable devices={devices.missing} workspaceId={workspaceId} testId="devices-missing" caption="Registered devices this build’s profile lacks" />
        </section>
      )}
      {devices.included.length > 0 && (
        <section aria-labelledby="devices-included-heading" className="stack-tight">
          <h3 id="devices-included-heading" className="section-title">
            In the profile <span className="section-count">{devices.included.length}</span>
          </h3>
          <IncludedDevices devices={devices.included} workspaceId={workspaceId} />
        </section>
      )}
      <p>
        <Link to={paths.inWorkspace("/testers/devices", workspaceId)}>All registered devices</Link>
      </p>
    </div>
  );
}

/** How many of the devices in the profile show before "Show all": a profile lists up to 100 devices. */
const INCLUDED_PREVIEW = 3;

/**
 * The devices in the profile, the first few until asked for all: what a person acts on is the
 * missing list above, and a team's profile lists dozens (the file page ran past 5,000 px on a
 * phone). A button with aria-expanded, naming the table it controls; focus stays on it.
 */
function IncludedDevices({ devices, workspaceId }: { devices: readonly Device[]; workspaceId: string }) {
  const [all, setAll] = useState(false);
  const collapsible = devices.length > INCLUDED_PREVIEW;
  const shown = collapsible && !all ? devices.slice(0, INCLUDED_PREVIEW) : devices;
  return (
    <>
      <DeviceMiniTable id="devices-included-table" devices={shown} workspaceId={workspaceId} testId="devices-included" caption="Registered devices in this build’s profile" />
      {collapsible && (
        <div className="form-actions-row">
          <button type="button" className="button button-secondary button-small" aria-expanded={all} aria-controls="devices-included-table" data-testid="devices-included-toggle" onClick={() => setAll(!all)}>
            {all ? "Show fewer" : `Show all ${devices.length} devices in the profile`}
          </button>
        </div>
      )}
    </>
  );
}

function DeviceMiniTable({ id, devices, workspaceId, testId, caption }: { id?: string; devices: readonly Device[]; workspaceId: string; testId: string; caption: string }) {
  return (
    <div className="panel table-panel" id={id}>
      <table className="table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Model</th>
            <th scope="col">Tester</th>
          </tr>
        </thead>
        <tbody>
          {devices.map((device) => (
            <tr key={device.deviceId}>
              <th scope="row" className="break-anywhere">
                {device.name}
              </th>
              <td data-label="Model">{deviceModel(device)}</td>
              <td data-label="Tester" className="break-anywhere">
                {device.email ? <Link to={paths.tester(device.email, workspaceId)}>{device.email}</Link> : <span className="muted">Unknown</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
