/**
 * What `inspectPackage` answers. The spec's three fields (appName, bundleId, version) are always
 * strings. Every string and list is within `metadataBounds` (bound-metadata.ts); what was cut is
 * said in `warnings`.
 */
export interface InspectResult {
  platform: "android" | "ios";
  appName: string;
  bundleId: string;
  /** versionName (Android) / CFBundleShortVersionString (iOS). */
  version: string;
  /** versionCode (Android) / CFBundleVersion (iOS). */
  buildNumber: string;
  /** minSdkVersion (Android) / MinimumOSVersion (iOS). */
  minOs: string;
  targetSdk?: string;
  permissions?: string[];
  /** Localized app names by locale ("" = default, "fr", "zh-CN", ...). */
  labels?: Record<string, string>;
  /** Locales the package declares resources or localizations for. */
  locales?: string[];
  /** iOS: supported platforms from CFBundleSupportedPlatforms. */
  supportedPlatforms?: string[];
  provisioning?: ProvisioningInfo;
  /**
   * iOS ad-hoc and development builds: the UDIDs the profile lists (uppercase, well-formed ones
   * only, at most MAX_PROVISIONED_UDIDS). Apart from `provisioning` so that the metadata Hangar
   * shows and answers stays what it was: the service keeps these on the file record alone.
   */
  provisionedUdids?: string[];
  /** Android: who signed the APK (see SigningInfo). */
  signing?: SigningInfo;
  icon?: IconInfo;
  /** Things a user should know that did not stop extraction (e.g. appName fell back to a locale). */
  warnings: string[];
}

export interface ProvisioningInfo {
  name: string;
  teamId?: string;
  teamName?: string;
  expiresAt?: string;
  provisionedDevices: number;
  kind: "development" | "ad-hoc" | "enterprise" | "app-store";
  /** The profile's UUID, as Xcode and the developer portal show it. */
  uuid?: string;
  /** SHA-256 (lowercase hex) of each developer certificate the profile lets sign the app. */
  developerCertificateSha256: string[];
  /**
   * The entitlement keys the profile grants (`aps-environment`, `com.apple.developer.associated-domains`, …),
   * sorted: what release safety compares between builds. Keys only: values can name the team's
   * domains and groups, which a public share page has no business showing.
   */
  entitlements?: string[];
}

/**
 * An APK's signer identity, as `apksigner verify --print-certs` reports it: the newest scheme
 * the APK is signed with and the SHA-256 (lowercase hex) of its signers' certificates. Android
 * installs an update only when its signer matches the installed app's. Read, not verified.
 */
export interface SigningInfo {
  /** v3.1, v3 or v2 (APK Signing Block), v1 (JAR signing only); null when unsigned or unreadable. */
  scheme: "v3.1" | "v3" | "v2" | "v1" | null;
  /** One for v3/v3.1 (the signer newer devices check), every signer's for v2 and v1; empty when scheme is null. */
  certificateSha256: string[];
}

export interface IconInfo {
  /** Path of the icon inside the package. */
  path: string;
  /** Standard PNG bytes (Apple CgBI already converted). */
  data: Buffer;
  width?: number;
  height?: number;
}

export type InspectErrorCode =
  | "not_a_zip"
  | "zip_corrupt"
  | "not_an_apk"
  | "not_an_ipa"
  | "unsupported_bundle"
  | "manifest_unreadable"
  | "plist_unreadable"
  | "too_large"
  | "timeout"
  | "read_failed";

/** Every failure of extraction is one of these, with a stable code a program can branch on. */
export class InspectError extends Error {
  constructor(
    readonly code: InspectErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "InspectError";
  }
}

/** The text of whatever was thrown, for wrapping it into an InspectError or a warning. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface InspectLimits {
  /** Largest uncompressed size of one entry we will inflate. */
  maxEntryBytes: number;
  /** Largest uncompressed/compressed ratio accepted for a deflated entry (zip bombs). */
  maxCompressionRatio: number;
  /** Wall-clock budget for one package. */
  timeBudgetMs: number;
  /** Bound on reference chains and any recursion. */
  maxDepth: number;
}

export const defaultLimits: InspectLimits = {
  maxEntryBytes: 64 * 1024 * 1024,
  maxCompressionRatio: 1000,
  timeBudgetMs: 20_000,
  maxDepth: 16,
};
