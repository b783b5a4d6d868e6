import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";
import { webhooksApi, type WebhookChange, type WebhookEventType, type WebhookInput } from "./webhooks.api";

/**
 * Webhooks' server state (dashboard.queries.ts's shape): the workspace's endpoints, and each
 * endpoint's delivery log a page at a time. A delivery still pending (a retry waiting, a test on
 * its way) makes the log ask again every few seconds, so the page shows its outcome arrive.
 */

export const webhooksQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: queryKeys.webhooks.list(workspaceId),
    queryFn: async () => (await webhooksApi.list(workspaceId)).items,
  });

export const deliveriesQuery = (webhookId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.webhooks.deliveries(webhookId),
    queryFn: ({ pageParam }) => webhooksApi.deliveries(webhookId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.items.some((d) => d.state === "pending")) ? 2_000 : false),
  });

const webhooksChanged = (client: QueryClient) => client.invalidateQueries({ queryKey: queryKeys.webhooks.all });

export function useCreateWebhook(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (input: WebhookInput) => webhooksApi.create(workspaceId, input), onSuccess: () => webhooksChanged(client) });
}

export function useUpdateWebhook(webhookId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (change: WebhookChange) => webhooksApi.update(webhookId, change), onSuccess: () => webhooksChanged(client) });
}

export function useDeleteWebhook(webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => webhooksApi.remove(webhookId),
    onSuccess: () => {
      // Its log is gone with it: never refetched.
      client.removeQueries({ queryKey: queryKeys.webhooks.deliveries(webhookId) });
      return webhooksChanged(client);
    },
  });
}

export function useRotateWebhookSecret(webhookId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => webhooksApi.rotateSecret(webhookId), onSuccess: () => webhooksChanged(client) });
}

/** A test event and a redelivery land in the log (and may change the endpoint's failure count). */
export function useSendTestEvent(webhookId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (event: WebhookEventType) => webhooksApi.test(webhookId, event), onSuccess: () => webhooksChanged(client) });
}

export function useRedeliver(webhookId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (deliveryId: string) => webhooksApi.redeliver(webhookId, deliveryId), onSuccess: () => webhooksChanged(client) });
}
