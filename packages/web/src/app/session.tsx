import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { accountApi, type Account } from "../api/account.api";
import { ApiError, setSessionLostHandler } from "../api/api-client";
import { saveDraft } from "./form-drafts";
import { useNavigate } from "./router";

/**
 * Who is signed in. Until `GET /api/account` settles the state is "loading" and guarded pages
 * render nothing, so a signed-in person never sees the login form flash by (and a signed-out
 * one never sees the dashboard's frame).
 */
export type SessionState =
  | { status: "loading" }
  /** `ended`: the session ran out (or was ended elsewhere) while this tab was signed in. */
  | { status: "signedOut"; ended?: boolean }
  | { status: "signedIn"; account: Account }
  /** The API could not be asked (network, 5xx): neither signed in nor out. */
  | { status: "unavailable"; error: ApiError };

interface SessionValue {
  state: SessionState;
  /** The account after a sign-in or a profile change. */
  setAccount(account: Account): void;
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: "loading" });
  const navigate = useNavigate();
  // Read by the 401 handler, which is registered once: whether this tab was signed in until now.
  const signedIn = useRef(false);
  useEffect(() => {
    signedIn.current = state.status === "signedIn";
  }, [state.status]);

  const refresh = useCallback(async () => {
    try {
      const account = await accountApi.current();
      setState({ status: "signedIn", account });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) setState({ status: "signedOut" });
      else setState({ status: "unavailable", error: error instanceof ApiError ? error : new ApiError(0, "unexpected", String(error)) });
    }
  }, []);

  useEffect(() => {
    void refresh();
    // A 401 on any signed-in request means the session ended (expired, signed out elsewhere). Said
    // as such on the login page, and what the page's forms held is kept for after the sign-in.
    setSessionLostHandler((error) => {
      // Only the first 401 of a signed-in page keeps a draft: later ones (requests that were in
      // flight) may arrive when the login form is already showing.
      const ended = signedIn.current && error.code === "not_signed_in";
      signedIn.current = false;
      if (ended) saveDraft(window.location.pathname + window.location.search);
      setState((current) => (current.status === "signedOut" && (current.ended || !ended) ? current : { status: "signedOut", ...(ended ? { ended } : {}) }));
    });
    return () => setSessionLostHandler(undefined);
  }, [refresh]);

  const signOut = useCallback(async () => {
    try {
      await accountApi.signOut();
    } finally {
      // Navigate in the same batch as the state change, so the signed-in page does not first
      // redirect to a login form that would send the person back to it.
      navigate("/login", { replace: true, state: { notice: "signed-out" } });
      setState({ status: "signedOut" });
    }
  }, [navigate]);

  const setAccount = useCallback((account: Account) => setState({ status: "signedIn", account }), []);
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

/** Where a signed-in person belongs: the profile form until it has a display name. */
export const homeFor = (account: Account) => (account.displayName ? "/dashboard" : "/profile");
