import { PayloadTooLargeError, UnsupportedMediaTypeError } from "../errors/domain-errors";
import type { IdSource } from "../ids/random-ids";
import { keyWorkspaceId, type Clock, type FileRecord, type FileRepository, type UrlSigner } from "../ports";
import { objectKey } from "./object-key";
import { APK_MEDIA_TYPE, GENERIC_MEDIA_TYPE, type Presign, type PresignResult } from "./upload.schema";
import type { UploadSettings } from "./upload-settings";
import type { Uploader } from "./uploader";

export interface PresignDeps {
  files: FileRepository;
  /** Named as in MultipartDeps and DashboardDeps: `storage` is the ObjectStore of complete and seal. */
  signer: UrlSigner;
  clock: Clock;
  ids: IdSource;
  settings: UploadSettings;
}

/** The declared type must fit the name: the APK media type on an .ipa is a client bug. */
export function assertFileType(fileName: string, fileType: string): void {
  const isApk = fileName.toLowerCase().endsWith(".apk");
  if (fileType === GENERIC_MEDIA_TYPE || (fileType === APK_MEDIA_TYPE && isApk)) return;
  throw new UnsupportedMediaTypeError(
    "unsupported_file_type",
    isApk
      ? `fileType must be ${APK_MEDIA_TYPE} or ${GENERIC_MEDIA_TYPE}`
      : `fileType must be ${GENERIC_MEDIA_TYPE} for an .ipa`,
  );
}

/**
 * The record of an upload not completed yet, as presign and a multipart start write it: it expires
 * (DynamoDB TTL, then the reaper deletes its object) unless complete comes first.
 */
export function pendingRecord(
  caller: Pick<Uploader, "projectId" | "clientId" | "userId" | "workspaceId">,
  input: Pick<Presign, "fileName" | "fileType" | "fileSize">,
  ids: { fileId: string; key: string },
  now: Date,
  settings: Pick<UploadSettings, "pendingTtlSeconds">,
): FileRecord {
  return {
    ...ids,
    projectId: caller.projectId,
    workspaceId: keyWorkspaceId(caller),
    clientId: caller.clientId,
    fileName: input.fileName,
    fileType: input.fileType,
    fileSize: input.fileSize,
    status: "pending",
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + settings.pendingTtlSeconds,
  };
}

export async function presignUpload(deps: PresignDeps, caller: Uploader, input: Presign): Promise<PresignResult> {
  assertFileType(input.fileName, input.fileType);
  if (input.fileSize > deps.settings.maxFileSize) {
    // The declared size is not echoed: 5 GiB + 1 and 1e300 get the same message, not "1e+300".
    throw new PayloadTooLargeError(
      "file_too_large",
      `fileSize exceeds the maximum of ${deps.settings.maxFileSize} bytes`,
      { maxFileSize: deps.settings.maxFileSize },
    );
  }

  const now = deps.clock.now();
  const fileId = deps.ids.fileId();
  const key = objectKey(caller.projectId, fileId, input.fileName);

  // Record first: a URL handed out without a record could be uploaded to but never completed.
  await deps.files.createPending(pendingRecord(caller, input, { fileId, key }, now, deps.settings));
  const uploadUrl = await deps.signer.presignPut({
    key,
    size: input.fileSize,
    // The spec's PUT always sends application/octet-stream, whatever fileType was declared.
    contentType: GENERIC_MEDIA_TYPE,
    expiresInSeconds: deps.settings.presignExpiresSeconds,
  });

  return {
    fileId,
    key,
    uploadUrl,
    expireAt: new Date(now.getTime() + deps.settings.presignExpiresSeconds * 1000).toISOString(),
  };
}
