import { DynamoStageSecret } from "@hangar/core/dynamo";
import { DEVICE_COOKIE_SECRET, DynamoBuildProfiles, DynamoDevices, type BuildVerdictDeps } from "@hangar/core/devices";
import { DynamoTesterSessions } from "@hangar/core/tester-access";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The "will it install on this iPhone?" verdict (docs/devices.md) as the share, installs, apps and
 * tester functions compute it: the file items' UDIDs, the device items of builds' workspaces, the
 * tester sessions (who recorded a device) and the `device-cookie` stage secret, all on the table.
 */
export const buildVerdictDeps = once((): BuildVerdictDeps => {
  const { db, settings, clock } = getRuntime();
  return {
    builds: new DynamoBuildProfiles(db, settings.HANGAR_TABLE_NAME),
    devices: new DynamoDevices(db, settings.HANGAR_TABLE_NAME),
    deviceCookieSecret: new DynamoStageSecret(db, settings.HANGAR_TABLE_NAME, DEVICE_COOKIE_SECRET),
    testerSessions: new DynamoTesterSessions(db, settings.HANGAR_TABLE_NAME),
    clock,
  };
});
