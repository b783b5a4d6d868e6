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
}

export interface StoredPackage {
  key: string;
  size: number;
  fileName: string;
}

export interface PackageInspector {
  /** Reads the package where it lies. Throws InvalidPackageError for anything unreadable. */
  inspect(pkg: StoredPackage): Promise<InspectedPackage>;
}
