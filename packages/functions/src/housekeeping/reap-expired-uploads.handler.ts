import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { parseObjectKey } from "@hangar/core";
import { getHousekeeping } from "../composition/housekeeping";
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
 */

/** Object keys to delete for one stream record; empty when the record is not an expired upload. */
export function expiredObjectKeys(record: DynamoDBRecord): string[] {
  if (record.eventName !== "REMOVE") return [];
  const identity = record.userIdentity as { type?: string; principalId?: string } | undefined;
  if (identity?.type !== "Service" || identity.principalId !== "dynamodb.amazonaws.com") return [];
  const image = record.dynamodb?.OldImage;
  if (image?.type?.S !== "file") return [];
  const status = image.status?.S;
  if (status !== "pending" && status !== "rejected") return [];
  return [image.key?.S, image.iconKey?.S].filter(
    (key): key is string => typeof key === "string" && parseObjectKey(key) !== undefined,
  );
}

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const { storage } = getHousekeeping();
  const batchItemFailures: DynamoDBBatchResponse["batchItemFailures"] = [];
  let deleted = 0;
  for (const record of event.Records) {
    try {
      for (const key of expiredObjectKeys(record)) {
        // Deleting a key that was never uploaded succeeds too: nothing to special-case.
        await storage.delete(key);
        deleted += 1;
      }
    } catch (error) {
      logger.error("could not delete the object of an expired upload", { error, eventID: record.eventID });
      const sequence = record.dynamodb?.SequenceNumber;
      if (sequence) batchItemFailures.push({ itemIdentifier: sequence });
    }
  }
  logger.info("expired uploads reaped", { records: event.Records.length, deleted, failed: batchItemFailures.length });
  return { batchItemFailures };
}
