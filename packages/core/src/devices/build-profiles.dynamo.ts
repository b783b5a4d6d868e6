import { getItem } from "../adapters/dynamo/dynamo-errors";
import { keys } from "../adapters/dynamo/table-keys";
import type { BuildProfile, BuildProfiles } from "./build-verdicts";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/** The stored UDIDs as a list, whether written as a list or a string set. */
function udidsOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((u): u is string => typeof u === "string");
  if (value instanceof Set) return [...value].filter((u): u is string => typeof u === "string");
  return undefined;
}

/**
 * The verdict's read of a build on the table: the file item's workspace and the profile's UDIDs
 * (complete stores them, docs/data-model.md). The device it records goes through DynamoDevices'
 * `record`, the one writer of device items.
 */
export class DynamoBuildProfiles implements BuildProfiles {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async profileOf(fileId: string): Promise<BuildProfile | undefined> {
    const item = await getItem(this.db, this.tableName, keys.file(fileId), "file profile");
    if (!item) return undefined;
    const udids = udidsOf(item.provisionedUdids);
    return { ...(typeof item.workspaceId === "string" ? { workspaceId: item.workspaceId } : {}), ...(udids ? { provisionedUdids: udids } : {}) };
  }
}
