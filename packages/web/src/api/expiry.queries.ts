import { queryOptions } from "@tanstack/react-query";
import { expiryApi } from "./expiry.api";
import { queryKeys } from "./query-keys";

/**
 * The workspace's latest builds whose profile or share link expires soon: the dashboard's banner.
 * Days change slowly: kept fresh for five minutes, refetched when a build or link changes (its key
 * sits under `files`).
 */
export const expiringQuery = (workspaceId: string) =>
  queryOptions({ queryKey: queryKeys.files.expiring(workspaceId), queryFn: () => expiryApi.expiring(workspaceId), staleTime: 5 * 60_000 });
