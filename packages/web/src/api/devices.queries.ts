import { queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { devicesApi } from "./devices.api";
import { queryKeys } from "./query-keys";

/**
 * Devices' server state (issue 22), in the dashboard's shape: one `queryOptions` per resource, one
 * hook per change. A rename, a removal or a registration with Apple shows in the workspace's list
 * and in every build's included/missing lists alike, so each change invalidates the whole subtree.
 */

export const devicesQuery = (workspaceId: string) => queryOptions({ queryKey: queryKeys.devices.list(workspaceId), queryFn: () => devicesApi.list(workspaceId) });
export const fileDevicesQuery = (fileId: string) => queryOptions({ queryKey: queryKeys.devices.ofFile(fileId), queryFn: () => devicesApi.ofFile(fileId) });

const devicesChanged = (client: QueryClient) => client.invalidateQueries({ queryKey: queryKeys.devices.all });

export function useRenameDevice() {
  const client = useQueryClient();
  return useMutation({ mutationFn: ({ deviceId, name }: { deviceId: string; name: string }) => devicesApi.rename(deviceId, name), onSuccess: () => devicesChanged(client) });
}

export function useRemoveDevice() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (deviceId: string) => devicesApi.remove(deviceId), onSuccess: () => devicesChanged(client) });
}

export function useRegisterWithApple(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (deviceIds: string[]) => devicesApi.registerWithApple(workspaceId, deviceIds), onSuccess: () => devicesChanged(client) });
}
