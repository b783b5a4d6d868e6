import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { accountApi, type Account, type Profile } from "./account.api";
import { ApiError } from "./api-client";
import { queryKeys } from "./query-keys";

/**
 * Who is signed in, as the cache holds it. `ended`: the session ran out (or was ended elsewhere)
 * while this tab was signed in, which the login page says. A pending query is "not known yet"
 * and a failed one "the API could not be asked" (session.tsx names those states).
 */
export type SessionData = { status: "signedIn"; account: Account } | { status: "signedOut"; ended?: boolean };

export const signedIn = (account: Account): SessionData => ({ status: "signedIn", account });

export const sessionQuery = () =>
  queryOptions({
    queryKey: queryKeys.session,
    queryFn: async (): Promise<SessionData> => {
      try {
        return signedIn(await accountApi.current());
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return { status: "signedOut" };
        throw error;
      }
    },
    // Asked once; after that a sign-in, a profile change or a 401 anywhere writes it.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** The devices signed in to the account, this one first, then the most recently active. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.sessions,
    queryFn: async () => {
      const { items } = await accountApi.sessions();
      return items.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
    },
  });

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (profile: Profile) => accountApi.updateProfile(profile),
    onSuccess: (account) => client.setQueryData(sessionQuery().queryKey, signedIn(account)),
  });
}

/** Changing the password signs out every other device: the session list changes with it. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) => accountApi.changePassword(currentPassword, newPassword),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

/** Signs out one other device, or (`"others"`) every other one. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (target: string) => (target === "others" ? accountApi.endOtherSessions() : accountApi.endSession(target)),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}
