import type { Clock } from "../ports/clock.port";
import type { StageSecret } from "../ports/stage-secret.port";
import type { TesterSessionStore } from "../tester-access/tester-access-deps";
import { authenticateTester } from "../tester-access/tester-sessions";
import { parseDeviceCookie, type DeviceClaim } from "./device-cookie";
import { modelName } from "./device-models";
import type { DeviceStore, EnrolledDevice, RecordOutcome } from "./device-store.port";
import { deviceVerdict, listsDevices, type DeviceVerdict, type VerdictBuild } from "./device-verdict";
import { MAX_DEVICE_NAME_LENGTH, MAX_DEVICES_PER_WORKSPACE } from "./devices.schema";
import { newDeviceId } from "./enrollment";

/**
 * The verdicts the tester-facing pages show (share page, personal install page, app page, tester
 * portal; docs/devices.md "The verdict"), and the one thing they do on the way: a device that is
 * not in a build's profile is recorded in the build's workspace, so "the team has been told" is
 * true – the dashboard's Devices page and the build's missing list show it.
 *
 * Reads only what a verdict needs, and only for builds whose profile can list devices: the build's
 * stored UDIDs and workspace, the device cookie's secret (cached per container). A page that
 * already holds the UDIDs (a share item or file record written since complete kept them) passes them in
 * and costs no read; a build passed without them (a share item written before complete copied
 * them, the portal's builds) costs one GetItem of its file item. A cookie that is absent, forged
 * or for another stage names no device.
 */

/** The build's facts beyond its metadata: complete stores them on the file item and copies them onto the share item. */
export interface BuildProfile {
  workspaceId?: string;
  provisionedUdids?: string[];
}

export interface BuildProfiles {
  /** The build's workspace and profile UDIDs, or undefined when the file item is gone. */
  profileOf(fileId: string): Promise<BuildProfile | undefined>;
}

export interface BuildVerdictDeps {
  builds: BuildProfiles;
  /** Records a device the profile does not list, create-only (`ifAbsent`): the enroll callback's writer. */
  devices: Pick<DeviceStore, "record">;
  deviceCookieSecret: StageSecret;
  /** Who a share or app page's visitor is (their `hangar_tester` cookie), read only when a device is recorded. */
  testerSessions: TesterSessionStore;
  clock: Clock;
}

/** A page's verdict; `told` (not-in-profile only): the build's workspace has the device now. */
export type PageVerdict = DeviceVerdict & { told?: boolean };

/**
 * A build a page shows. With `provisionedUdids` (a list, even empty) the page's own copy is the
 * profile and `workspaceId` is taken beside it (both copied from the same file record at
 * complete); without, the file item is read. So old share items, which lack them, need no
 * migration: they cost the read they always did.
 */
export interface VerdictBuildRef extends BuildProfile {
  fileId: string;
  metadata?: VerdictBuild["metadata"];
}

export interface VerdictRequest {
  builds: readonly VerdictBuildRef[];
  /**
   * The `hangar_ios_device` cookie's values the request carried (a browser may send a name twice,
   * for two paths or domains): the first that verifies counts.
   */
  cookies: readonly string[];
  /** The tester the page names (a personal install link's address, the portal's session); null when it names none. */
  email: string | null;
  /**
   * With `email` null (the share and app pages): the request's `hangar_tester` cookie. A device
   * recorded from the page is then the tester's when the cookie names a live session, else
   * nobody's. Read only when a device is recorded: the other views of a page cost no read.
   */
  testerCookie?: string | undefined;
}

/** The claim of the first cookie value that verifies (no secret read without a cookie). */
export async function deviceOfCookies(deps: Pick<BuildVerdictDeps, "deviceCookieSecret">, cookies: readonly string[]): Promise<DeviceClaim | undefined> {
  if (cookies.length === 0) return undefined;
  const secret = await deps.deviceCookieSecret.bytes();
  for (const value of cookies.slice(0, 4)) {
    const claim = parseDeviceCookie(secret, value);
    if (claim) return claim;
  }
  return undefined;
}

/** The address of a live tester session the cookie names, else null (none, expired, forged: the page is anonymous). */
async function testerOf(deps: Pick<BuildVerdictDeps, "testerSessions" | "clock">, cookie: string | undefined): Promise<string | null> {
  if (!cookie) return null;
  try {
    return (await authenticateTester({ sessions: deps.testerSessions, clock: deps.clock }, cookie)).email;
  } catch {
    return null;
  }
}

/**
 * The device item a cookie's claim makes: named by the device, else by its model; serial unknown
 * (only an enrollment's signed answer carries it); `email` the tester the page knows, or null.
 */
function unlistedDevice(workspaceId: string, claim: DeviceClaim, email: string | null, now: Date): EnrolledDevice {
  const at = now.toISOString();
  const model = modelName(claim.product);
  return {
    deviceId: newDeviceId(),
    workspaceId,
    udid: claim.udid,
    name: (claim.name ?? model ?? claim.product).slice(0, MAX_DEVICE_NAME_LENGTH),
    product: claim.product,
    model,
    osVersion: claim.version,
    serial: null,
    email,
    registeredAt: at,
    updatedAt: at,
  };
}

/** The verdict of each build, by file id; a build whose profile lists no devices is `not-applicable` without a read. */
export async function buildVerdicts(deps: BuildVerdictDeps, request: VerdictRequest): Promise<Map<string, PageVerdict>> {
  const now = deps.clock.now();
  const verdicts = new Map<string, PageVerdict>();
  // The metadata alone says whether a profile could list devices: the UDIDs are read only then.
  const candidates = request.builds.filter((b) => listsDevices({ metadata: b.metadata, provisionedUdids: ["?"] }, now));
  for (const b of request.builds) verdicts.set(b.fileId, { kind: "not-applicable" });
  if (candidates.length === 0) return verdicts;
  const profileOf = (b: VerdictBuildRef): Promise<BuildProfile | undefined> | BuildProfile =>
    Array.isArray(b.provisionedUdids) ? { ...(b.workspaceId ? { workspaceId: b.workspaceId } : {}), provisionedUdids: b.provisionedUdids } : deps.builds.profileOf(b.fileId);
  const [claim, profiles] = await Promise.all([deviceOfCookies(deps, request.cookies), Promise.all(candidates.map(profileOf))]);
  const recorded = new Map<string, Promise<RecordOutcome>>();
  let tester: Promise<string | null> | undefined;
  const emailOf = () => (tester ??= request.email !== null ? Promise.resolve(request.email) : testerOf(deps, request.testerCookie));
  await Promise.all(
    candidates.map(async (b, i) => {
      const profile = profiles[i];
      const verdict: PageVerdict = deviceVerdict({ metadata: b.metadata, provisionedUdids: profile?.provisionedUdids }, claim, now);
      if (verdict.kind === "not-in-profile" && claim && profile?.workspaceId) {
        // One write per workspace, however many of its builds the page shows.
        const ws = profile.workspaceId;
        if (!recorded.has(ws)) {
          recorded.set(ws, emailOf().then((email) => deps.devices.record(unlistedDevice(ws, claim, email, now), MAX_DEVICES_PER_WORKSPACE, { ifAbsent: true })));
        }
        // Told when the workspace has the device now; not when it is full, or gone or being deleted.
        const outcome = await recorded.get(ws);
        verdict.told = outcome === "created" || outcome === "exists";
      }
      verdicts.set(b.fileId, verdict);
    }),
  );
  return verdicts;
}

/** One build's verdict (the share page and the personal install page). */
export async function buildVerdict(deps: BuildVerdictDeps, build: VerdictRequest["builds"][number], cookies: readonly string[], email: string | null): Promise<PageVerdict> {
  return (await buildVerdicts(deps, { builds: [build], cookies, email })).get(build.fileId)!;
}
