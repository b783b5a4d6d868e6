import { NotFoundError } from "../errors/domain-errors";
import type { FileRepository, SharedFile, UrlSigner } from "../ports";

export interface ShareDeps {
  files: FileRepository;
  storage: UrlSigner;
}

// Share keys are 12 base62 characters; anything else is unknown without a lookup.
const USER_KEY = /^[A-Za-z0-9]{6,32}$/;

export async function resolveShare(deps: Pick<ShareDeps, "files">, userKey: string | undefined): Promise<SharedFile> {
  const shared = userKey && USER_KEY.test(userKey) ? await deps.files.getShared(userKey) : undefined;
  if (!shared) throw new NotFoundError("file_not_found", "No file is shared under this link");
  return shared;
}

/** A short-lived presigned GET that makes browsers save the file under its original name. */
export async function downloadLocation(
  deps: ShareDeps,
  userKey: string | undefined,
  expiresInSeconds: number,
): Promise<string> {
  return packageLocation(deps, await resolveShare(deps, userKey), expiresInSeconds);
}

/** The package of a link already resolved (the share functions' gate read it), as a short-lived GET. */
export function packageLocation(deps: Pick<ShareDeps, "storage">, shared: SharedFile, expiresInSeconds: number): Promise<string> {
  // Signed for the version complete inspected; records from before versioning have none and serve the current one.
  return deps.storage.presignGet({
    key: shared.key,
    downloadName: shared.fileName,
    expiresInSeconds,
    ...(shared.versionId ? { versionId: shared.versionId } : {}),
  });
}

/** The icon stored beside the package at complete, as a short-lived GET (undefined without one). */
export async function iconLocation(
  deps: ShareDeps,
  shared: SharedFile,
  expiresInSeconds: number,
): Promise<string | undefined> {
  if (!shared.iconKey) return undefined;
  return deps.storage.presignGet({
    key: shared.iconKey,
    downloadName: "icon.png",
    expiresInSeconds,
    inline: true,
    ...(shared.iconVersionId ? { versionId: shared.iconVersionId } : {}),
  });
}
