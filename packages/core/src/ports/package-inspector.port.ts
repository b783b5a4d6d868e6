/**
 * The spec's three fields are always strings; everything else extraction finds rides along.
 * Kept open (`[extra: string]: unknown`) so new extractor fields reach clients without a core change.
 */
export interface PackageMetadata {
  appName: string;
  bundleId: string;
  version: string;
  platform?: "android" | "ios";
  buildNumber?: string;
  minOs?: string;
  [extra: string]: unknown;
}

export interface InspectedPackage {
  metadata: PackageMetadata;
  /** Standard PNG bytes of the app's best icon, when it has one. */
  icon?: Uint8Array;
  /** The UDIDs an ad-hoc or development profile lists (docs/devices.md): stored on the file, not in the metadata. */
  provisionedUdids?: string[];
}

export interface StoredPackage {
  key: string;
  size: number;
  fileName: string;
  /** The version complete's HEAD saw: every range is read from it, so later writes to the key cannot mix in. */
  versionId?: string;
  /** That HEAD's ETag: without a version id, a package replaced mid-read fails instead of mixing two files. */
  etag?: string;
  /** The whole object, already read in the request that saw that version: nothing more is fetched. */
  bytes?: Uint8Array;
}

export interface PackageInspector {
  /**
   * Reads the package where it lies. Throws InvalidPackageError for anything unreadable, and
   * ConflictError("object_changed") when the object named by versionId/etag is no longer there.
   */
  inspect(pkg: StoredPackage): Promise<InspectedPackage>;
}
