import { QueryClient } from "@tanstack/react-query";

/**
 * The dashboard's cache of server state. Cached data is shown at once when a page comes back
 * and refreshed behind it (`staleTime` 0: what CI uploaded meanwhile appears without a reload).
 * No automatic retries: a failed load says so with a "Try again" button, as it always has, and a
 * 401 must reach the session handler once, not three times.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: 0, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
