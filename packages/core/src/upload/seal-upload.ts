import type { ObjectStore } from "../ports";

export interface SealDeps {
  storage: Pick<ObjectStore, "listVersions" | "delete">;
}

/**
 * Makes the version complete pinned the only version of its key, once no presigned PUT can
 * write the key any more (the reaper runs this when the `seal` item's TTL fires). Versions
 * written after complete (an overwrite through a leaked upload URL) and before it (earlier PUT
 * attempts) are destroyed, so the pinned version is current again: the bucket's rule that
 * expires noncurrent versions can then never take a completed build away.
 */
export async function sealUpload(deps: SealDeps, target: { key: string; versionId: string }): Promise<{ removed: number }> {
  const others = (await deps.storage.listVersions(target.key)).filter((v) => v.versionId !== target.versionId);
  for (const version of others) await deps.storage.delete(target.key, version.versionId);
  return { removed: others.length };
}
