import { RenameDevice } from "@hangar/core/devices-schema";
import { MAX_APPLE_REGISTRATIONS } from "@hangar/core/devices-apple-schema";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { describeError } from "../api/api-client";
import { devicesExportUrl, type AppleRegistrationAnswer, type Device } from "../api/devices.api";
import { devicesQuery, useRegisterWithApple, useRemoveDevice, useRenameDevice } from "../api/devices.queries";
import type { Workspace } from "../api/workspaces.api";
import { formatDateTime, formatRelative } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { useWorkspace, type CurrentWorkspace } from "../app/workspace";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { InWorkspace, Loaded } from "../components/data";
import { deviceModel, EnrollmentHelp } from "../components/device-facts";
import { TextField } from "../components/field";
import { AppShell, EmptyState } from "../components/layouts";
import { schemaErrors, whenEmpty } from "../components/use-form";
import "../styles/devices.css";

/**
 * Devices (issue 22, docs/devices.md): every iPhone and iPad registered in the workspace — its
 * name, model, iOS build (what the device reports as VERSION, `22B83`), the tester who registered it, when, and whether Apple has it — with rename,
 * remove (confirmed), Apple's import file of all of them, and, when the stage has an App Store
 * Connect key, "Register with Apple" for the selected ones. Renaming, removing and registering
 * need `devices.manage` (owners, admins, developers); viewers read.
 */
export function DevicesPage() {
  const current = useWorkspace();
  const workspaceId = current.workspace?.workspaceId;
  return (
    <AppShell
      title="Devices"
      description="The iPhones and iPads your testers registered: what your ad-hoc and development profiles need to include."
      actions={
        workspaceId ? (
          <Link to={paths.inWorkspace("/testers", workspaceId)} className="button button-secondary">
            Testers and groups
          </Link>
        ) : undefined
      }
    >
      <InWorkspace current={current}>{(workspace) => <Devices key={workspace.workspaceId} workspace={workspace} can={current.can} />}</InWorkspace>
    </AppShell>
  );
}

function Devices({ workspace, can }: { workspace: Workspace; can: CurrentWorkspace["can"] }) {
  const query = useQuery(devicesQuery(workspace.workspaceId));
  const manage = can("devices.manage");
  return (
    <Loaded query={query} label="the devices">
      {({ items, appleRegistration }) =>
        items.length === 0 ? (
          <div className="panel">
            <EmptyState title="No devices registered yet" headingLevel={2}>
              <EnrollmentHelp />
            </EmptyState>
          </div>
        ) : (
          <DeviceTable workspaceId={workspace.workspaceId} devices={items} manage={manage} apple={appleRegistration.enabled && manage} />
        )
      }
    </Loaded>
  );
}

/** Names of devices by id, for the answer of a registration (the table may have changed meanwhile). */
const nameOf = (devices: readonly Device[], deviceId: string) => devices.find((d) => d.deviceId === deviceId)?.name ?? deviceId;

function DeviceTable({ workspaceId, devices, manage, apple }: { workspaceId: string; devices: readonly Device[]; manage: boolean; apple: boolean }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const register = useRegisterWithApple(workspaceId);
  const [answer, setAnswer] = useState<AppleRegistrationAnswer>();
  const [error, setError] = useState<string>();
  // Selected devices still in the list (one removed meanwhile drops out of the selection).
  const chosen = devices.filter((d) => selected.has(d.deviceId)).map((d) => d.deviceId);
  const unregistered = devices.filter((d) => !d.appleRegistration).map((d) => d.deviceId);
  const allChosen = unregistered.length > 0 && unregistered.every((id) => selected.has(id));
  const toggle = (deviceId: string, on: boolean) =>
    setSelected((now) => {
      const next = new Set(now);
      if (on) next.add(deviceId);
      else next.delete(deviceId);
      return next;
    });
  const submit = async () => {
    setError(undefined);
    setAnswer(undefined);
    try {
      setAnswer(await register.mutateAsync(chosen));
      setSelected(new Set());
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <section aria-labelledby="devices-heading" className="section">
      <div className="section-header">
        <h2 id="devices-heading" className="section-title">
          Registered devices
        </h2>
        <span className="section-count">{devices.length}</span>
      </div>
      <div className="form-actions-row device-toolbar">
        <a className="button button-secondary" href={devicesExportUrl(workspaceId)} download data-testid="export-all">
          Export all for Apple (.tsv)
        </a>
        {apple && (
          <Button
            onClick={() => void submit()}
            busy={register.isPending}
            busyLabel="Registering with Apple…"
            disabled={chosen.length === 0 || chosen.length > MAX_APPLE_REGISTRATIONS}
            data-testid="register-with-apple"
          >
            Register {chosen.length > 0 ? `${chosen.length} selected` : "selected"} with Apple
          </Button>
        )}
      </div>
      <p className="muted device-toolbar-hint">
        {apple
          ? `Select devices, then register them with your Apple developer account (up to ${MAX_APPLE_REGISTRATIONS} at a time). Regenerate your ad-hoc or development profile afterwards and upload the new build.`
          : "The file lists every device in the format Apple’s developer portal imports (Devices → + → Register Multiple Devices)."}
      </p>
      {error && <ErrorSummary message={`Could not register with Apple. ${error}`} />}
      {answer && <AppleOutcome answer={answer} devices={devices} />}
      <div className="panel table-panel">
        <table className="table" data-testid="devices">
          <caption className="visually-hidden">Devices registered in this workspace</caption>
          <thead>
            <tr>
              {apple && (
                <th scope="col" className="device-select">
                  <label className="checkbox">
                    <input
                      type="checkbox"
                      checked={allChosen}
                      disabled={unregistered.length === 0}
                      onChange={(e) => setSelected(e.target.checked ? new Set(unregistered) : new Set())}
                    />
                    <span className="visually-hidden">Select every device Apple does not have yet</span>
                  </label>
                </th>
              )}
              <th scope="col">Device</th>
              <th scope="col">Model</th>
              <th scope="col">iOS build</th>
              <th scope="col">Tester</th>
              <th scope="col">Registered</th>
              <th scope="col">Apple</th>
              {manage && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {devices.map((device) => (
              <DeviceRow key={device.deviceId} workspaceId={workspaceId} device={device} manage={manage} selectable={apple} selected={selected.has(device.deviceId)} onSelect={(on) => toggle(device.deviceId, on)} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function AppleOutcome({ answer, devices }: { answer: AppleRegistrationAnswer; devices: readonly Device[] }) {
  const names = (ids: string[]) => ids.map((id) => nameOf(devices, id)).join(", ");
  return (
    <div className="stack-tight" data-testid="apple-outcome">
      {(answer.registered.length > 0 || answer.already.length > 0) && (
        <Notice title="Apple has these devices now.">
          {answer.registered.length > 0 && <p>Registered: {names(answer.registered)}.</p>}
          {answer.already.length > 0 && <p>Already in your Apple account: {names(answer.already)}.</p>}
          <p>Regenerate the ad-hoc or development profile in Xcode or on Apple’s portal so it includes them, then upload the new build.</p>
        </Notice>
      )}
      {answer.failed.length > 0 && (
        <ErrorSummary message="Apple did not register these devices:">
          <ul>
            {answer.failed.map((f) => (
              <li key={f.deviceId}>
                {nameOf(devices, f.deviceId)}: {f.message}
              </li>
            ))}
          </ul>
        </ErrorSummary>
      )}
    </div>
  );
}

const RENAME_LABELS = { name: "Device name" };

function DeviceRow({ workspaceId, device, manage, selectable, selected, onSelect }: { workspaceId: string; device: Device; manage: boolean; selectable: boolean; selected: boolean; onSelect(on: boolean): void }) {
  const [mode, setMode] = useState<"view" | "rename" | "remove">("view");
  return (
    <tr data-testid="device-row">
      {selectable && (
        <td className="device-select">
          <label className="checkbox">
            <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} />
            <span className="visually-hidden">Select {device.name}</span>
          </label>
        </td>
      )}
      <th scope="row" className="device-name break-anywhere">
        {device.name}
        <span className="device-udid muted">{device.udid}</span>
      </th>
      <td data-label="Model">{deviceModel(device)}</td>
      <td data-label="iOS build">{device.osVersion}</td>
      <td data-label="Tester" className="device-tester">
        {device.email ? <Link to={paths.tester(device.email, workspaceId)}>{device.email}</Link> : <span className="muted">Unknown</span>}
      </td>
      <td data-label="Registered">
        <span className="nowrap" title={formatDateTime(device.registeredAt)}>
          {formatRelative(device.registeredAt)}
        </span>
      </td>
      <td data-label="Apple">
        {device.appleRegistration ? (
          <span className="badge badge-success" title={`Registered ${formatDateTime(device.appleRegistration.at)}`}>
            Registered
          </span>
        ) : (
          <span className="badge badge-muted">Not registered</span>
        )}
      </td>
      {manage && (
        <td className="table-actions">
          {mode === "rename" && <RenameForm device={device} onDone={() => setMode("view")} />}
          {mode === "remove" && <RemoveConfirm device={device} onCancel={() => setMode("view")} />}
          {mode === "view" && (
            <div className="form-actions-row device-actions">
              <Button variant="secondary" className="button-small" onClick={() => setMode("rename")}>
                Rename<span className="visually-hidden"> {device.name}</span>
              </Button>
              <Button variant="secondary" className="button-small" onClick={() => setMode("remove")}>
                Remove<span className="visually-hidden"> {device.name}</span>
              </Button>
            </div>
          )}
        </td>
      )}
    </tr>
  );
}

function RenameForm({ device, onDone }: { device: Device; onDone(): void }) {
  const rename = useRenameDevice();
  const [name, setName] = useState(device.name);
  const [error, setError] = useState<string>();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // The API's own rule (core's DeviceName: trimmed, 1–100 characters, one line), in the form's words.
    const problem = schemaErrors(RenameDevice, { name }, RENAME_LABELS, { name: whenEmpty("Enter a name for the device.") }).name;
    if (problem) return setError(problem);
    setError(undefined);
    try {
      await rename.mutateAsync({ deviceId: device.deviceId, name });
      onDone();
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <form className="confirm" onSubmit={(e) => void onSubmit(e)} aria-label={`Rename ${device.name}`} noValidate>
      <TextField name={`device-name-${device.deviceId}`} label={RENAME_LABELS.name} value={name} onValueChange={setName} error={error} autoComplete="off" hint="How the team and Apple’s import file name it." />
      <div className="form-actions-row">
        <Button type="submit" className="button-small" busy={rename.isPending} busyLabel="Saving…">
          Save name
        </Button>
        <Button variant="secondary" className="button-small" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RemoveConfirm({ device, onCancel }: { device: Device; onCancel(): void }) {
  const remove = useRemoveDevice();
  const [error, setError] = useState<string>();
  const run = async () => {
    setError(undefined);
    try {
      await remove.mutateAsync(device.deviceId);
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <div className="confirm" role="group" aria-label={`Confirm removing ${device.name}`}>
      {error && <ErrorSummary message={error} />}
      <p>
        Remove {device.name} from this workspace? It leaves Hangar’s lists and exports only: Apple’s account and existing profiles keep it. The tester can register it again.
      </p>
      <DangerActions label="Remove device" busyLabel="Removing…" busy={remove.isPending} onConfirm={() => void run()} onCancel={onCancel} />
    </div>
  );
}
