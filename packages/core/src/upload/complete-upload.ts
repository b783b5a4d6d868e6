import { ConflictError, InvalidPackageError, NotFoundError } from "../errors/domain-errors";
import type { IdSource } from "../ids/random-ids";
import { keyWorkspaceId, type BuildContext, type Clock, type CompletedFile, type FileCatalog, type FilePage, type FileRecord, type FileRepository, type ObjectHead, type ObjectStore, type PackageInspector, type UploadCounts } from "../ports";
import { diffBuilds, diffSeverity } from "../releases/build-diff";
import { PREVIOUS_BUILD_SCAN, previousBuildOf } from "../releases/compare-builds";
import { installability } from "./installability";
import { iconKeyFor, parseObjectKey } from "./object-key";
import { assertFileType } from "./presign-upload";
import type { Complete, CompleteResult } from "./upload.schema";
import type { LinkBases, UploadSettings } from "./upload-settings";
import { isDashboardUpload, type Uploader } from "./uploader";

export interface CompleteDeps {
  files: FileRepository;
  storage: ObjectStore;
  inspector: PackageInspector;
  clock: Clock;
  ids: IdSource;
  settings: UploadSettings;
  /**
   * The project's files newest first, where complete finds the previous build of the same app to
   * diff against (docs/release-safety.md). Without it no diff is computed (the answer's `diff` is null).
   */
  history?: Pick<FileCatalog, "page"> | undefined;
  /**
   * Whether a CI upload counts on its key's day of usage (HANGAR_USAGE_COUNTING; on unless false).
   * The count, like the project's, is written by the completing transaction itself (FileRepository.complete).
   */
  countUsage?: boolean;
  /** Told about each upload this call completed (audit log, webhooks); never fails the complete. */
  onCompleted?: ((file: CompletedFile, caller: Uploader, links: LinkBases) => Promise<void>) | undefined;
  /** Told about each upload this call rejected (webhooks' build.rejected); never fails the complete. */
  onRejected?: ((file: FileRecord, caller: Uploader) => Promise<void>) | undefined;
}

const notFound = () =>
  new NotFoundError("upload_not_found", "No pending upload with this key for this API key's project");

/** The answer to a completed upload, rebuilt from its record so a repeated complete is identical. */
export function completeResult(file: CompletedFile, links: LinkBases): CompleteResult {
  return {
    message: "Upload completed",
    fileId: file.fileId,
    userKey: file.userKey,
    downloadUrl: `${links.publicBaseUrl}/download/${file.userKey}`,
    shareUrl: `${links.shareBaseUrl}/share/${file.userKey}`,
    metadata: file.metadata,
    // What complete decided then, so a repeated complete answers the same (null: a first build,
    // or one completed before diffs were stored).
    diff: file.diff ?? null,
  };
}

/** The optional context fields both kinds of complete take. */
export type BuildContextInput = Pick<Complete, "releaseNotes" | "branch" | "commit" | "ciUrl">;

/** The optional context fields complete was given, without empty ones. */
function buildContextOf(input: BuildContextInput): { buildContext?: BuildContext } {
  const context: BuildContext = {};
  for (const field of ["releaseNotes", "branch", "commit", "ciUrl"] as const) {
    const value = input[field]?.trim();
    if (value) context[field] = value;
  }
  return Object.keys(context).length > 0 ? { buildContext: context } : {};
}

function rejectedError(file: FileRecord): InvalidPackageError {
  const rejection = file.rejection ?? { reason: "invalid_package", message: "The package could not be read" };
  return new InvalidPackageError(rejection.reason, rejection.message);
}

/** Settles a record someone else finalized first: same answer as theirs. */
export function outcomeOf(file: FileRecord | undefined, links: LinkBases): CompleteResult {
  if (file?.status === "completed") return completeResult(file as CompletedFile, links);
  if (file?.status === "rejected") throw rejectedError(file);
  throw notFound();
}

/** Where a completed upload is counted: on its project always, on its key's usage for a CI upload. */
function uploadCounts(deps: Pick<CompleteDeps, "countUsage">, caller: Uploader): UploadCounts {
  const counted = deps.countUsage !== false && !isDashboardUpload(caller);
  return { workspaceId: keyWorkspaceId(caller), ...(counted ? { clientId: caller.clientId } : {}) };
}

/** Clock skew between us and storage, and requests already in flight when the URL expires. */
export const SEAL_MARGIN_SECONDS = 300;

/**
 * When the presigned PUT of this upload is dead for sure: its signing time (presign wrote the
 * record in the same request) plus its life plus a margin. Until then anyone holding the URL can
 * still write the key; what they write is never served (the version is pinned), but it would
 * push the pinned version to noncurrent, which the bucket's lifecycle rule expires.
 */
export function sealTime(file: FileRecord, settings: UploadSettings): number {
  return Math.floor(Date.parse(file.createdAt) / 1000) + settings.presignExpiresSeconds + SEAL_MARGIN_SECONDS;
}

export async function completeUpload(
  deps: CompleteDeps,
  caller: Uploader,
  input: Complete,
  links: LinkBases,
): Promise<CompleteResult> {
  const parsed = parseObjectKey(input.key);
  // Another project's key answers exactly like an unknown key: never reveal it exists.
  if (!parsed || parsed.projectId !== caller.projectId) throw notFound();
  // A small package is read whole beside the record (the key and the size are the ones declared,
  // which must be the record's to go on): one round trip for both instead of record, HEAD and
  // ranged GETs one after another. What the record's checks refuse is never looked at.
  const stored = input.fileSize <= WHOLE_READ_BYTES ? settled(deps.storage.read(input.key, WHOLE_READ_BYTES)) : undefined;
  // Likewise the project's newest files, where the diff finds the previous build (one small Query;
  // wasted only on a complete that is refused or repeated).
  const newest = deps.history ? settled(deps.history.page(parsed.projectId, PREVIOUS_BUILD_SCAN.first)) : undefined;
  const file = await deps.files.get(parsed.fileId);
  if (!file || file.key !== input.key || file.projectId !== caller.projectId) throw notFound();

  const now = deps.clock.now();
  if (file.status === "pending" && file.expiresAt !== undefined && file.expiresAt <= now.getTime() / 1000) {
    // DynamoDB TTL deletes lazily (up to days later); an expired record is already dead to us.
    throw notFound();
  }

  assertFileType(input.fileName, input.fileType);
  const mismatched = (["fileName", "fileType", "fileSize"] as const).filter((f) => file[f] !== input[f]);
  if (mismatched.length > 0) {
    throw new ConflictError(
      "upload_mismatch",
      `Does not match the presigned upload: ${mismatched.join(", ")}`,
      { fields: mismatched.map((field) => ({ field, message: "differs from the presigned upload" })) },
    );
  }

  if (file.status !== "pending") return outcomeOf(file, links);
  return finishUpload(deps, caller, file, input, links, now, stored, newest);
}

/**
 * Packages up to this size are read in one GET and inspected from memory; larger ones in place by
 * ranged GETs (docs/extraction.md). 1 MiB is a few ranged reads' worth of bytes, and small in a
 * function's memory.
 */
export const WHOLE_READ_BYTES = 1024 * 1024;

type StoredObject = (ObjectHead & { body?: Uint8Array }) | undefined;

/** A promise that never rejects on its own: its failure is thrown where its value is taken, if ever. */
function settled<T>(promise: Promise<T>): Promise<() => T> {
  return promise.then(
    (value) => () => value,
    (error: unknown) => () => {
      throw error;
    },
  );
}

/** HEAD, or for a small package the whole object in one GET (ObjectStore.read). */
function storedObject(deps: Pick<CompleteDeps, "storage">, file: FileRecord): Promise<() => StoredObject> {
  return settled(file.fileSize <= WHOLE_READ_BYTES ? deps.storage.read(file.key, WHOLE_READ_BYTES) : deps.storage.head(file.key));
}

/**
 * The stored object of a pending record becomes a build: HEAD (or GET), inspect exactly that version, store
 * the icon, then the conditional pending → completed write. Both flows end here (a single PUT, or
 * a multipart upload once CompleteMultipartUpload assembled it), so they cannot drift apart.
 */
export async function finishUpload(
  deps: CompleteDeps,
  caller: Uploader,
  file: FileRecord,
  input: BuildContextInput,
  links: LinkBases,
  now: Date,
  /** The object as complete already started reading it (storedObject's answer), if it did. */
  stored: Promise<() => StoredObject> = storedObject(deps, file),
  /**
   * The project's newest files as complete already started reading them: read beside the package
   * (the diff needs the app's bundle id, which only inspection tells), so the diff adds no round trip.
   */
  newest: Promise<() => FilePage> | undefined = deps.history ? settled(deps.history.page(file.projectId, PREVIOUS_BUILD_SCAN.first)) : undefined,
): Promise<CompleteResult> {
  const history = deps.history;
  const head = (await stored)();
  if (!head) throw new ConflictError("object_missing", "Nothing was uploaded to this key yet; PUT the file first");
  if (head.size !== file.fileSize) {
    throw new ConflictError(
      "size_mismatch",
      `Stored object is ${head.size} bytes but ${file.fileSize} were declared`,
      { storedSize: head.size, declaredSize: file.fileSize },
    );
  }

  // Pin what HEAD saw: extraction reads that version and downloads are signed for it, so bytes written to the
  // key later (the presigned PUT stays valid for its whole lifetime) are never inspected nor served.
  const pinned = { ...(head.versionId ? { versionId: head.versionId } : {}), ...(head.etag ? { etag: head.etag } : {}) };
  let inspected;
  try {
    inspected = await deps.inspector.inspect({ key: file.key, size: head.size, fileName: file.fileName, ...pinned, ...(head.body ? { bytes: head.body } : {}) });
  } catch (error) {
    if (!(error instanceof InvalidPackageError)) throw error;
    const rejection = { reason: error.reason, message: error.message };
    // The object is kept (the user may want it back); only the record changes state.
    if (await deps.files.reject(file.fileId, rejection, now.toISOString())) {
      await deps.onRejected?.({ ...file, ...buildContextOf(input), status: "rejected", rejection }, caller);
      throw error;
    }
    return outcomeOf(await deps.files.get(file.fileId), links);
  }

  let iconKey: string | undefined;
  let iconVersionId: string | undefined;
  if (inspected.icon) {
    iconKey = iconKeyFor(file.key);
    ({ versionId: iconVersionId } = await deps.storage.put(iconKey, inspected.icon, "image/png"));
  }

  const completed: CompletedFile = {
    ...file,
    status: "completed",
    userKey: deps.ids.userKey(),
    // Said at upload, decided at the complete time: CI learns of a build no tester can install
    // (`installable: false` with a reason code) before anyone taps its link.
    metadata: { ...inspected.metadata, ...installability(inspected.metadata, now) },
    completedAt: now.toISOString(),
    ...(head.versionId ? { versionId: head.versionId, sealAt: sealTime(file, deps.settings) } : {}),
    ...(iconKey ? { iconKey } : {}),
    ...(iconVersionId ? { iconVersionId } : {}),
    ...buildContextOf(input),
    // The profile's UDIDs (docs/devices.md): the devices' included/missing lists read them; no answer carries them.
    ...(inspected.provisionedUdids ? { provisionedUdids: inspected.provisionedUdids } : {}),
  };
  delete completed.expiresAt;
  if (history && newest) {
    // A failed read fails the complete (storage errors answer 503 and the complete can be repeated)
    // rather than answer `diff: null`, which a CI gate would take for "nothing changed".
    const firstPage: Promise<FilePage> = newest.then((take) => take());
    const previous = await previousBuildOf(history, completed, firstPage);
    completed.diff = previous ? diffBuilds(previous, completed) : null;
    completed.diffSeverity = diffSeverity(completed.diff);
  }
  if (await deps.files.complete(completed, uploadCounts(deps, caller))) {
    await deps.onCompleted?.(completed, caller, links);
    return completeResult(completed, links);
  }
  // A concurrent complete won the conditional write: answer with its record. Our icon write may have
  // become the key's current version, leaving the winner's pinned icon noncurrent (which the bucket's
  // lifecycle rule expires): remove ours so the winner's is current again. Best effort: the answer is
  // the winner's either way.
  if (iconKey && iconVersionId) await deps.storage.delete(iconKey, iconVersionId).catch(() => undefined);
  return outcomeOf(await deps.files.get(file.fileId), links);
}
