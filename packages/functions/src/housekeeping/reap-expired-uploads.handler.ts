import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { parseObjectKey, sealUpload } from "@hangar/core";
import { reaperDeps } from "../composition/housekeeping";
import { logger } from "../observability/logger";

/**
 * Housekeeping triggered by the table's stream, not an HTTP route: when DynamoDB's TTL deletes a
 * file record that was never completed, delete the object its presigned URL may have created
 * (and an icon, if one was written). The event source filter in stacks/storage-stack.ts already
 * restricts it to TTL deletions of pending records; the checks below repeat that, so a
 * misconfigured trigger cannot delete completed packages, and only keys this service issues
 * (core's parseObjectKey) are ever deleted. The IAM policy limits deletes to `uploads/*` too.
 *
 * The bucket is versioned: a delete leaves the bytes as a noncurrent version, which the bucket's
 * lifecycle rule expires (stacks/storage-stack.ts), so storage is freed after that delay.
 *
 * It also seals completed uploads: when the TTL of a `seal` item fires (the upload URL is dead
 * by then), every version of the package's key but the one complete pinned is destroyed, so a
 * write through a leaked upload URL can neither be served nor push the build out by expiry.
 */

/** Object keys to delete for one stream record; empty when the record is not an expired upload. */
export function expiredObjectKeys(record: DynamoDBRecord): string[] {
  if (!removedByTtl(record)) return [];
  const image = record.dynamodb?.OldImage;
  if (image?.type?.S !== "file") return [];
  const status = image.status?.S;
  if (status !== "pending" && status !== "rejected") return [];
  return [image.key?.S, image.iconKey?.S].filter(
    (key): key is string => typeof key === "string" && parseObjectKey(key) !== undefined,
  );
}

/** True for a deletion made by DynamoDB's TTL process, never by a person or a function. */
function removedByTtl(record: DynamoDBRecord): boolean {
  if (record.eventName !== "REMOVE") return false;
  const identity = record.userIdentity as { type?: string; principalId?: string } | undefined;
  return identity?.type === "Service" && identity.principalId === "dynamodb.amazonaws.com";
}

/** The pinned object to seal for one stream record; undefined when the record is not an expired seal. */
export function sealTarget(record: DynamoDBRecord): { key: string; versionId: string } | undefined {
  if (!removedByTtl(record)) return undefined;
  const image = record.dynamodb?.OldImage;
  if (image?.type?.S !== "seal") return undefined;
  const key = image.key?.S;
  const versionId = image.versionId?.S;
  if (!key || !versionId || parseObjectKey(key) === undefined) return undefined;
  return { key, versionId };
}

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const { storage } = reaperDeps();
  const batchItemFailures: DynamoDBBatchResponse["batchItemFailures"] = [];
  let deleted = 0;
  let sealed = 0;
  for (const record of event.Records) {
    try {
      for (const key of expiredObjectKeys(record)) {
        // Deleting a key that was never uploaded succeeds too: nothing to special-case.
        await storage.delete(key);
        deleted += 1;
      }
      const seal = sealTarget(record);
      if (seal) {
        const { removed } = await sealUpload({ storage }, seal);
        sealed += 1;
        // An overwrite after complete is someone using a leaked upload URL: worth a trace.
        if (removed > 0) logger.warn("sealed a completed upload: removed other versions of its key", { key: seal.key, removed });
      }
    } catch (error) {
      logger.error("could not delete or seal the object of an upload", { error, eventID: record.eventID });
      const sequence = record.dynamodb?.SequenceNumber;
      if (sequence) batchItemFailures.push({ itemIdentifier: sequence });
    }
  }
  logger.info("expired uploads reaped", { records: event.Records.length, deleted, sealed, failed: batchItemFailures.length });
  return { batchItemFailures };
}
