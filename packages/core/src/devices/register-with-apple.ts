import { recordChange } from "../dashboard/audit-record";
import { ConflictError, DependencyError, HangarError } from "../errors/domain-errors";
import type { AuditLog } from "../ports/audit-log.port";
import type { AppleDeviceRegistry, AppleDeviceStore, RegistrableDevice } from "../ports/apple-device-registry.port";
import type { Clock } from "../ports/clock.port";
import type { WorkspaceCatalog } from "../ports/workspace-catalog.port";
import { workspaceAccess } from "../workspaces/access";
import type { Actor } from "../workspaces/actor";
import type { WorkspaceRef } from "../workspaces/workspace.schema";
import type { AppleRegistrationAnswer, RegisterWithApple } from "./apple.schema";

/**
 * "Register with Apple" (docs/devices.md): adds a workspace's registered devices to the team's
 * Apple developer account through the App Store Connect API, so the next ad-hoc or development
 * profile can include them. Optional and off by default: without an API key configured the route
 * answers 409 `apple_not_configured` (after the access check, so a viewer still learns nothing but 403).
 *
 * Needs `devices.manage` (owners, admins, developers: the people who build and sign). A device
 * Hangar already registered is not sent again (`already`); one that is not in this workspace is
 * `failed`, named like any other failure, so one stale id does not sink the other 99.
 *
 * Audited per device whose record now carries Apple's id (`device.registered_with_apple`, outcome
 * `registered` or `already`): what changed. A device not sent (Hangar registered it before) or that
 * Apple refused changed nothing, so it has no entry, as a refused change has none anywhere.
 */

export interface AppleRegistrationDeps {
  workspaces: Pick<WorkspaceCatalog, "membership"> & Partial<Pick<WorkspaceCatalog, "touch">>;
  devices: AppleDeviceStore;
  /** Undefined when the stage has no App Store Connect key (the default). */
  apple: AppleDeviceRegistry | undefined;
  audit: Pick<AuditLog, "record">;
  clock: Clock;
}

/**
 * Calls to Apple at once: a page of 100 devices in well under the function's 29 s (each call is a
 * few hundred ms), and far from App Store Connect's hourly request budget (3,600).
 */
const CONCURRENCY = 5;

export const appleNotConfigured = () =>
  new ConflictError("apple_not_configured", "Registering devices with Apple is off on this deployment: it needs an App Store Connect API key (docs/devices.md, \"Register with Apple\")");

type Outcome = { deviceId: string } & ({ kind: "registered" | "already" } | { kind: "failed"; message: string });

export async function registerDevicesWithApple(deps: AppleRegistrationDeps, actor: Actor, input: WorkspaceRef & RegisterWithApple): Promise<AppleRegistrationAnswer> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "devices.manage");
  const apple = deps.apple;
  if (!apple) throw appleNotConfigured();
  const wanted = [...new Set(input.deviceIds)];
  const devices = await deps.devices.devicesOf(input.workspaceId);

  const registerOne = async (deviceId: string): Promise<Outcome> => {
    const device = devices.get(deviceId);
    if (!device) return { deviceId, kind: "failed", message: "Not a device of this workspace (removed meanwhile?)" };
    if (device.appleRegistration) return { deviceId, kind: "already" };
    const outcome = await apple.register({ name: deviceLabel(device), udid: device.udid });
    if (outcome.kind === "failed") return { deviceId, kind: "failed", message: outcome.message };
    // Apple has it now whatever happens to our record; a device removed meanwhile stays removed. A
    // device Apple had before whose id the lookup could not find is answered `already` and left
    // unmarked: the Devices page shows only what Apple's id backs.
    if (outcome.appleDeviceId !== null) {
      await deps.devices.markRegistered(input.workspaceId, device.udid, { at: deps.clock.now().toISOString(), appleDeviceId: outcome.appleDeviceId });
      await recordChange(deps, actor, {
        workspaceId: input.workspaceId,
        action: "device.registered_with_apple",
        target: { type: "device", id: deviceId, label: deviceLabel(device) },
        details: { outcome: outcome.kind, appleDeviceId: outcome.appleDeviceId },
      });
    }
    return { deviceId, kind: outcome.kind };
  };

  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const deviceId = wanted[next++]!;
      outcomes.push(await registerOne(deviceId));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, wanted.length) }, worker));
  } catch (error) {
    if (error instanceof HangarError) throw error;
    // The key could not be read or signed with: the stage's configuration, not the request.
    throw new DependencyError("appstoreconnect", "Could not use the stage's App Store Connect key", { cause: error });
  }
  // In the order asked, so a person reads the answer against their selection.
  const order = new Map(wanted.map((id, i) => [id, i]));
  outcomes.sort((a, b) => order.get(a.deviceId)! - order.get(b.deviceId)!);
  return {
    registered: outcomes.filter((o) => o.kind === "registered").map((o) => o.deviceId),
    already: outcomes.filter((o) => o.kind === "already").map((o) => o.deviceId),
    failed: outcomes.flatMap((o) => (o.kind === "failed" ? [{ deviceId: o.deviceId, message: o.message }] : [])),
  };
}

/** The name Apple's device list will show: the device's (or the member's) name, else its model. */
const deviceLabel = (device: RegistrableDevice) => device.name.trim() || device.model || "iOS device";
