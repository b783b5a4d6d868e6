import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from "react";
import { accountApi, type Account } from "../api/account.api";
import { sessionQuery, signedIn, type SessionData } from "../api/account.queries";
import { ApiError, setSessionLostHandler } from "../api/api-client";
import { queryKeys } from "../api/query-keys";
import { saveDraft } from "./form-drafts";
import { paths, type AppPath } from "./paths";
import { safeNextPath, useNavigate } from "./router";

/**
 * Who is signed in. Until `GET /api/account` settles the state is "loading" and guarded pages
 * render nothing, so a signed-in person never sees the login form flash by (and a signed-out
 * one never sees the dashboard's frame). The answer lives in the query cache (`sessionQuery`),
 * beside the server state it guards; sign-in, profile changes and a 401 anywhere write it there.
 */
export type SessionState =
  | { status: "loading" }
  | SessionData
  /** The API could not be asked (network, 5xx): neither signed in nor out. */
  | { status: "unavailable"; error: ApiError };

interface SessionValue {
  state: SessionState;
  /** The account after a sign-in. */
  setAccount(account: Account): void;
  /** Asks the API again who is signed in (after a reset, a verification, an account deletion). */
  refresh(): Promise<void>;
  /** Signs out; with `next`, the login page brings the next person back there (an invitation meant for another account). */
  signOut(next?: string): Promise<void>;
}

const SessionContext = createContext<SessionValue | undefined>(undefined);

const SESSION_KEY = sessionQuery().queryKey;

/**
 * Everything cached but the session itself and what a signed-out page reads (an invitation's
 * preview, which belongs to the link, not to an account): one account's data never shows to the next.
 * The tester side (its own session cookie, and a join link's preview) is no account's data either.
 */
const KEPT_ON_SIGN_OUT: readonly unknown[] = [queryKeys.session[0], queryKeys.invitationPreview("")[0], queryKeys.tester.all[0], queryKeys.joinPreview("")[0]];
const notSession = { predicate: (query: { queryKey: readonly unknown[] }) => !KEPT_ON_SIGN_OUT.includes(query.queryKey[0]) };

export function SessionProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const query = useQuery(sessionQuery());
  const navigate = useNavigate();

  const state: SessionState = query.isPending
    ? { status: "loading" }
    : query.isError
      ? { status: "unavailable", error: query.error instanceof ApiError ? query.error : new ApiError(0, "unexpected", String(query.error)) }
      : query.data;

  useEffect(() => {
    // A 401 on any signed-in request means the session ended (expired, signed out elsewhere). Said
    // as such on the login page, and what the page's forms held is kept for after the sign-in.
    setSessionLostHandler((error) => {
      const current = client.getQueryData(SESSION_KEY);
      // Only the first 401 of a signed-in page keeps a draft: later ones (requests that were in
      // flight) may arrive when the login form is already showing.
      const ended = current?.status === "signedIn" && error.code === "not_signed_in";
      if (ended) saveDraft(window.location.pathname + window.location.search);
      if (current?.status === "signedOut" && (current.ended || !ended)) return;
      client.setQueryData(SESSION_KEY, { status: "signedOut", ...(ended ? { ended } : {}) });
    });
    return () => setSessionLostHandler(undefined);
  }, [client]);

  // Signed out (by choice, by a 401, by deleting the account): the account's data leaves the
  // cache. Run after the guarded page has gone, so nothing still mounted fetches it again.
  const signedOut = state.status === "signedOut";
  useEffect(() => {
    if (signedOut) client.removeQueries(notSession);
  }, [client, signedOut]);

  const refresh = useCallback(async () => {
    await client.refetchQueries({ queryKey: SESSION_KEY });
  }, [client]);

  const signOut = useCallback(async (next?: string) => {
    try {
      await accountApi.signOut();
    } finally {
      // Navigate in the same batch as the state change, so the signed-in page does not first
      // redirect to a login form that would send the person back to it.
      const back = next ? safeNextPath(next, "/login") : "/login";
      navigate(back === "/login" ? "/login" : paths.withNext("/login", back), { replace: true, state: { notice: "signed-out" } });
      client.setQueryData(SESSION_KEY, { status: "signedOut" });
    }
  }, [client, navigate]);

  const setAccount = useCallback(
    (account: Account) => {
      // Whatever another account left in this tab goes before this one's pages ask.
      client.removeQueries(notSession);
      client.setQueryData(SESSION_KEY, signedIn(account));
    },
    [client],
  );
  const value = useMemo(() => ({ state, setAccount, refresh, signOut }), [state, setAccount, refresh, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside SessionProvider");
  return session;
}

/** The signed-in account; only for pages behind RequireAccount. */
export function useAccount(): Account {
  const { state } = useSession();
  if (state.status !== "signedIn") throw new Error("useAccount on a page that does not require an account");
  return state.account;
}

/**
 * Where a signed-in person belongs: `next` (a same-origin path only) or the dashboard; the
 * profile form first until the account has a display name, which then goes on to `next`.
 */
export function homeFor(account: Account, next?: string | null): AppPath {
  const destination = safeNextPath(next, "/dashboard");
  if (account.displayName) return destination;
  return destination === "/dashboard" ? "/profile" : paths.withNext("/profile", destination);
}
