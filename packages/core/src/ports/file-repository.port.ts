import type { BuildDiff, ChangeSeverity } from "../releases/build-diff";
import type { PackageMetadata } from "./package-inspector.port";

export type FileStatus = "pending" | "completed" | "rejected";

/** Optional context complete was given: release notes and where CI built it (all validated text). */
export interface BuildContext {
  releaseNotes?: string;
  branch?: string;
  commit?: string;
  ciUrl?: string;
}

export interface FileRecord {
  fileId: string;
  /** Object key in the uploads bucket; contains the file id. */
  key: string;
  projectId: string;
  /**
   * The workspace of the project, written at presign so the dashboard's access check needs no
   * lookup of the project first. Absent on records written before workspaces (then looked up).
   */
  workspaceId?: string;
  clientId: string;
  fileName: string;
  fileType: string;
  fileSize: number;
  status: FileStatus;
  createdAt: string;
  /** Epoch seconds after which a pending record is dead (DynamoDB TTL also deletes it). */
  expiresAt?: number;
  /** Multipart uploads only: S3's upload id, which complete and the part URLs must name. */
  uploadId?: string;
  /** Multipart uploads only: bytes per part (the last part holds the rest). */
  partSize?: number;
  /** Multipart uploads only: the parts' checksum when not CRC32C (absent on every earlier record). */
  checksumAlgorithm?: "CRC32";
  completedAt?: string;
  userKey?: string;
  /**
   * The object version complete inspected; downloads are signed for it, so what was inspected is the
   * only thing ever served. Absent on records completed before bucket versioning (served unpinned).
   */
  versionId?: string;
  metadata?: PackageMetadata;
  iconKey?: string;
  /** Version of the icon complete wrote. */
  iconVersionId?: string;
  rejection?: { reason: string; message: string };
  buildContext?: BuildContext;
  /** Kept whatever the project's retention policy says (issue 24); absent means not pinned. */
  pinned?: boolean;
  /**
   * The UDIDs an ad-hoc or development profile lists (uppercase, bounded: docs/devices.md), kept
   * for the devices' included/missing lists and the share page's verdict; never in an answer.
   * Absent on App Store, enterprise and Android builds and on builds completed before it was kept.
   */
  provisionedUdids?: string[];
  /**
   * What changed from the previous build of the same app, decided at complete (null: a first
   * build) and kept so a repeated complete, the webhook and the CLI's gate all say the same thing.
   * Absent on builds completed before diffs were stored.
   */
  diff?: BuildDiff | null;
  /** The most severe change of `diff` (null: none), which file lists mark without reading every change. */
  diffSeverity?: ChangeSeverity | null;
}

export interface CompletedFile extends FileRecord {
  status: "completed";
  userKey: string;
  metadata: PackageMetadata;
  completedAt: string;
  /**
   * Epoch seconds after which no presigned PUT to this key can succeed any more. Written as a
   * `seal` item that TTL deletes then; the reaper, on that deletion, removes every version of the
   * key but the pinned one (see sealUpload). Not kept on the file record.
   */
  sealAt?: number;
}

/** What a share key resolves to: enough to render the share page and redirect a download. */
export interface SharedFile {
  userKey: string;
  fileId: string;
  projectId: string;
  key: string;
  /** See FileRecord.versionId. */
  versionId?: string;
  fileName: string;
  fileSize: number;
  metadata: PackageMetadata;
  iconKey?: string;
  iconVersionId?: string;
  completedAt: string;
  buildContext?: BuildContext;
  /** The record's workspace (see FileRecord.workspaceId), for the share page's verdict to record a device in. */
  workspaceId?: string;
  /**
   * The profile's UDIDs (FileRecord.provisionedUdids), copied at complete so the share page's iOS
   * verdict needs no read of the file item; never in an answer. Absent on share items written
   * before they were copied: the verdict then reads the file item (build-verdicts.ts).
   */
  provisionedUdids?: string[];
}

/** Where complete counts an upload: the project's workspace, and the API key whose usage it is (none for a dashboard upload, or with usage counting off). */
export interface UploadCounts {
  workspaceId: string;
  clientId?: string;
}

export interface FileRepository {
  createPending(record: FileRecord): Promise<void>;
  get(fileId: string): Promise<FileRecord | undefined>;
  /**
   * pending → completed, the share key and the seal, and with `counts` the upload counted on its
   * project and (given a clientId) on that key's day of usage: one transaction, so a counter never
   * misses nor doubles a build, and no round trip after it (docs/data-model.md "Complete's round
   * trips"). A project deleted meanwhile is not counted. Returns false (writes nothing) if the
   * record is no longer pending, e.g. a concurrent complete won.
   */
  complete(file: CompletedFile, counts?: UploadCounts): Promise<boolean>;
  /** pending → rejected; returns false if the record is no longer pending. */
  reject(fileId: string, rejection: { reason: string; message: string }, at: string): Promise<boolean>;
  getShared(userKey: string): Promise<SharedFile | undefined>;
  /** Removes a pending record (an aborted multipart upload); false if it is no longer pending. */
  deletePending(fileId: string): Promise<boolean>;
}
