/**
 * Wire shapes of the upload API (spec: shared/spec/upload-service.md, service schema in
 * packages/core/src/upload/upload.schema.ts). Declared here, not imported, so the CLI stays free
 * of the service's dependencies.
 */

export const APK_MEDIA_TYPE = "application/vnd.android.package-archive";
export const GENERIC_MEDIA_TYPE = "application/octet-stream";

export interface PresignRequest {
  fileName: string;
  fileSize: number;
  fileType: string;
}

export interface PresignResponse {
  fileId: string;
  key: string;
  uploadUrl: string;
  /** ISO 8601 UTC. */
  expireAt: string;
}

/** Optional context complete stores with the build and shows on its share page. */
export interface BuildContext {
  /** At most 5,000 characters. */
  releaseNotes?: string;
  branch?: string;
  commit?: string;
  /** The CI run that built it (http or https). */
  ciUrl?: string;
  /**
   * Hangar's extension: send the completed build to tester groups (ids or names) and addresses,
   * with a message (README "Send the build to testers"). A service that predates it ignores it.
   */
  distribute?: { groups?: string[]; testers?: string[]; message?: string; notify?: boolean };
}

export interface CompleteRequest extends PresignRequest, BuildContext {
  key: string;
}

export interface PackageMetadata {
  appName: string;
  bundleId: string;
  version: string;
  [extra: string]: unknown;
}

export interface CompleteResponse {
  message: string;
  fileId: string;
  userKey: string;
  downloadUrl: string;
  shareUrl: string;
  metadata: PackageMetadata;
  /**
   * Hangar's extension: what changed since the previous build of the same app (build-changes.ts),
   * null for a first build; absent from a service that predates it.
   */
  diff?: unknown;
  [extra: string]: unknown;
}

/** Wall time of each step, retries and waits included (a re-presign for an expired address counts as presign). */
export interface UploadTimings {
  presignMs: number;
  putMs: number;
  completeMs: number;
  totalMs: number;
}

export interface UploadResult extends CompleteResponse {
  /** Whether testers can install the build from its link (the service's `metadata.installable`); absent when it does not say. */
  installable?: boolean;
  /** Why not, as the service's stable code (`app_store_signed`, `profile_expired`, `no_devices`, `no_profile`). */
  reason?: string;
  timings: UploadTimings;
}

/** The service's error body, `{"error":{"code","message","requestId",...}}`. */
export interface ErrorBody {
  error: { code: string; message: string; requestId?: string; [detail: string]: unknown };
}

/** The media type we declare for a file name; undefined for anything but .apk / .ipa. */
export function mediaTypeFor(fileName: string): string | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".apk")) return APK_MEDIA_TYPE;
  if (lower.endsWith(".ipa")) return GENERIC_MEDIA_TYPE;
  return undefined;
}
