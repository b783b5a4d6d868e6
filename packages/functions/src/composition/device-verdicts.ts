import { DynamoStageSecret } from "@hangar/core/dynamo";
import { DEVICE_COOKIE_SECRET, DynamoBuildProfiles, DynamoDevices, type BuildVerdictDeps } from "@hangar/core/devices";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The "will it install on this iPhone?" verdict (docs/devices.md) as the share, installs, apps and
 * tester functions compute it: the file items' UDIDs, the device items of builds' workspaces and
 * the `device-cookie` stage secret, all on the table.
 */
export const buildVerdictDeps = once((): BuildVerdictDeps => {
  const { db, settings, clock } = getRuntime();
  return {
    builds: new DynamoBuildProfiles(db, settings.HANGAR_TABLE_NAME),
    devices: new DynamoDevices(db, settings.HANGAR_TABLE_NAME),
    deviceCookieSecret: new DynamoStageSecret(db, settings.HANGAR_TABLE_NAME, DEVICE_COOKIE_SECRET),
    clock,
  };
});
