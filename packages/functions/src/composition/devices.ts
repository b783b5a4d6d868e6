import { readFile } from "node:fs/promises";
import { DependencyError } from "@hangar/core";
import { readSecretString } from "@hangar/core/aws-secrets";
import { DynamoAppPages } from "@hangar/core/app-pages";
import { DynamoFileCatalog, DynamoStageSecret } from "@hangar/core/dynamo";
import { DEVICE_COOKIE_SECRET, DynamoDevices, signingIdentity, type DeviceAdminDeps, type EnrollDeps, type SigningIdentity } from "@hangar/core/devices";
import { DynamoInstallRecords } from "@hangar/core/installs";
import { DynamoTesterSessions } from "@hangar/core/tester-access";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * What the devices function adds to the runtime (docs/devices.md): device and enrollment items,
 * the lookups of the pages a tester enrolls from (share items, install links, app pages, tester
 * sessions and groups), the stage secret of the device cookie, and the profile's signing identity
 * when the stage configures one. Table only, plus that one secret: no S3, no mail.
 */
const devices = once(() => {
  const { db, settings } = getRuntime();
  return new DynamoDevices(db, settings.HANGAR_TABLE_NAME);
});

/** The enroll flow's ports (the share host's public routes). */
export const enrollDeps = once((): EnrollDeps => {
  const runtime = getRuntime();
  const table = runtime.settings.HANGAR_TABLE_NAME;
  return {
    enrollments: devices(),
    devices: devices(),
    testerWorkspaces: devices(),
    files: runtime.files,
    projects: runtime.projects,
    installs: new DynamoInstallRecords(runtime.db, table),
    appPages: new DynamoAppPages(runtime.db, table),
    testerSessions: new DynamoTesterSessions(runtime.db, table),
    clock: runtime.clock,
    limits: { enroll: runtime.limits.rule("deviceEnroll"), answer: runtime.limits.rule("deviceEnrollAnswer") },
  };
});

/** The dashboard's device routes (session). */
export const deviceAdminDeps = once((): DeviceAdminDeps => {
  const runtime = getRuntime();
  return {
    devices: devices(),
    files: new DynamoFileCatalog(runtime.db, runtime.settings.HANGAR_TABLE_NAME, () => runtime.clock.now()),
    projects: runtime.projects,
    workspaces: workspaceCatalog(),
    clock: runtime.clock,
    appleEnabled: runtime.settings.HANGAR_ASC_ENABLED === "1",
  };
});

/** The `device-cookie` stage secret (the same for every function that reads the cookie). */
export const deviceCookieSecret = once(() => {
  const { db, settings } = getRuntime();
  return new DynamoStageSecret(db, settings.HANGAR_TABLE_NAME, DEVICE_COOKIE_SECRET);
});

let identity: Promise<SigningIdentity | undefined> | undefined;

/**
 * The profile's signing identity, read once per container (a failed read is retried by the next
 * request, answering 503 meanwhile rather than handing out an unsigned profile the stage did not
 * want); undefined when the stage configures none.
 */
export function enrollSigningIdentity(): Promise<SigningIdentity | undefined> {
  const { settings } = getRuntime();
  const arn = settings.HANGAR_ENROLL_SIGNING_SECRET_ARN;
  const file = settings.HANGAR_ENROLL_SIGNING_PEM_FILE;
  if (!arn && !file) return Promise.resolve(undefined);
  identity ??= (async () => signingIdentity(arn ? await readSecretString(arn) : await readFile(file!, "utf8")))().catch((error: unknown) => {
    identity = undefined;
    throw new DependencyError("secrets", "could not read the enroll profile's signing identity", { cause: error });
  });
  return identity;
}
