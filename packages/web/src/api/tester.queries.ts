import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "./api-client";
import { queryKeys } from "./query-keys";
import { testerApi, type TesterSession } from "./tester.api";

/** A tester's session as the cache holds it: a 401 is an answer ("not signed in"), not an error. */
export type TesterSessionData = { status: "signedIn"; session: TesterSession } | { status: "signedOut" };

export const testerSessionQuery = () =>
  queryOptions({
    queryKey: queryKeys.tester.session,
    queryFn: async (): Promise<TesterSessionData> => {
      try {
        return { status: "signedIn", session: await testerApi.session() };
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return { status: "signedOut" };
        throw error;
      }
    },
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** Every app sent to the tester, the most recent first (the API's order). */
export const testerAppsQuery = () => queryOptions({ queryKey: queryKeys.tester.apps, queryFn: () => testerApi.apps() });

export const testerAppQuery = (projectId: string) => queryOptions({ queryKey: queryKeys.tester.app(projectId), queryFn: () => testerApi.app(projectId) });

/** The link's preview; not retried: a gone link (410) is the answer, not a glitch. */
export const joinPreviewQuery = (token: string) =>
  queryOptions({ queryKey: queryKeys.joinPreview(token), queryFn: () => testerApi.joinPreview(token), refetchOnWindowFocus: false });

/** A tester call answered 401: the tester session ended (expired, signed out in another tab). */
export const isSignedOutError = (error: unknown) => error instanceof ApiError && error.status === 401;

/** Lands a magic link: the session goes into the cache, and whatever a previous tester left goes out. */
export function useTesterSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => testerApi.signIn(token),
    onSuccess: ({ email, expiresAt }) => {
      client.removeQueries({ queryKey: queryKeys.tester.all });
      const signedIn: TesterSessionData = { status: "signedIn", session: { email, expiresAt } };
      client.setQueryData(testerSessionQuery().queryKey, signedIn);
    },
  });
}

export function useTesterSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => testerApi.signOut(),
    onSettled: () => {
      client.removeQueries({ queryKey: queryKeys.tester.all });
      const signedOut: TesterSessionData = { status: "signedOut" };
      client.setQueryData(testerSessionQuery().queryKey, signedOut);
    },
  });
}

/**
 * The device cookie handed over from a share host apart from this one (docs/devices.md): its
 * enroll result page sends the tester back to `/apps#device=<hand-off>`. Once signed in, the
 * hand-off is taken out of the address (history, bookmarks and screenshots never keep it) and
 * posted same-origin, before the page asks for the apps, so their first answer already has this
 * iPhone's verdicts. True while that is under way. A used or expired hand-off changes nothing: the
 * page keeps offering "Check this iPhone".
 */
export function useDeviceHandoff(signedIn: boolean): boolean {
  const client = useQueryClient();
  const [handoff] = useState(() => /^#device=([A-Za-z0-9._-]{1,512})$/.exec(window.location.hash)?.[1]);
  const [pending, setPending] = useState(handoff !== undefined);
  const posted = useRef(false);
  useEffect(() => {
    if (!signedIn || !handoff || posted.current) return;
    posted.current = true;
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}`);
    void testerApi
      .redeemDevice(handoff)
      .catch(() => undefined)
      .then(() => client.invalidateQueries({ queryKey: queryKeys.tester.apps }))
      .finally(() => setPending(false));
  }, [signedIn, handoff, client]);
  return signedIn && pending;
}
