import { readFile } from "node:fs/promises";
import { readSecretString } from "@hangar/core/aws-secrets";
import { AppStoreConnectRegistry, DynamoAppleDeviceStore, type AppleRegistrationDeps, type AppStoreConnectKey } from "@hangar/core/devices";
import { auditLog } from "./audit-log";
import { once } from "./once";
import { getRuntime } from "./root";
import type { Settings } from "./settings.schema";
import { workspaceCatalog } from "./workspace-catalog";

type AscSettings = Pick<
  Settings,
  "HANGAR_ASC_ENABLED" | "HANGAR_ASC_ISSUER_ID" | "HANGAR_ASC_KEY_ID" | "HANGAR_ASC_PRIVATE_KEY_SECRET_ARN" | "HANGAR_ASC_PRIVATE_KEY_FILE" | "HANGAR_ASC_BASE_URL"
>;

/**
 * The App Store Connect adapter when the stage has a key (HANGAR_ASC_ENABLED=1 with an issuer id,
 * a key id, and the key in Secrets Manager, or, on the local stack, in a file); undefined when off,
 * which the use case answers with 409 `apple_not_configured`. The key is read at the first
 * registration, not at cold start: a stage whose secret is missing still lists and exports devices.
 */
export function appleRegistry(settings: AscSettings, clock = getRuntime().clock): AppStoreConnectRegistry | undefined {
  const { HANGAR_ASC_ISSUER_ID: issuerId, HANGAR_ASC_KEY_ID: keyId } = settings;
  const arn = settings.HANGAR_ASC_PRIVATE_KEY_SECRET_ARN;
  const file = settings.HANGAR_ASC_PRIVATE_KEY_FILE;
  if (settings.HANGAR_ASC_ENABLED !== "1" || !issuerId || !keyId || (!arn && !file)) return undefined;
  const key = async (): Promise<AppStoreConnectKey> => ({
    issuerId,
    keyId,
    // Secrets Manager keeps the .p8 file's text as it is (PEM); trimmed, as a pasted value may end in a newline.
    privateKeyPem: (arn ? await readSecretString(arn) : await readFile(file!, "utf8")).trim(),
  });
  return new AppStoreConnectRegistry({ key, clock, ...(settings.HANGAR_ASC_BASE_URL ? { baseUrl: settings.HANGAR_ASC_BASE_URL } : {}) });
}

/** The apple function's ports: memberships, the workspace's device items, App Store Connect, the audit log. */
export const appleDeps = once((): AppleRegistrationDeps => {
  const { db, settings, clock } = getRuntime();
  return {
    workspaces: workspaceCatalog(),
    devices: new DynamoAppleDeviceStore(db, settings.HANGAR_TABLE_NAME),
    apple: appleRegistry(settings, clock),
    audit: auditLog(),
    clock,
  };
});
