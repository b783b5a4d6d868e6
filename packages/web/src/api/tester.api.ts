import { apiRequest } from "./api-client";
import type { JoinPreview, TesterApp, TesterAppDetail, TesterSession, TesterSignedIn } from "./tester.types";

export type { JoinPreview, TesterApp, TesterAppDetail, TesterBuild, TesterSession, TesterSignedIn } from "./tester.types";

/*
 * The tester side of issue 20: testers are e-mail addresses with their own session cookie
 * (`hangar_tester`), not dashboard accounts. Every call says `expectSignedOut`, so a 401 here never
 * reaches the dashboard's session handler (which would call a signed-in owner signed out): the
 * tester pages read the tester session themselves.
 */
const tester = { expectSignedOut: true } as const;

export const testerApi = {
  /** 202 whatever the address: a mail goes out only to known testers. */
  requestSignIn: (email: string) => apiRequest<{ status: "sent" }>("POST", "/api/tester/sign-in", { email }, tester),
  /** Lands a magic link: sets the tester cookie. */
  signIn: (token: string) => apiRequest<TesterSignedIn>("POST", "/api/tester/session", { token }, tester),
  session: () => apiRequest<TesterSession>("GET", "/api/tester/session", undefined, tester),
  signOut: () => apiRequest<void>("DELETE", "/api/tester/session", undefined, tester),

  apps: () => apiRequest<{ items: TesterApp[] }>("GET", "/api/tester/apps", undefined, tester),
  app: (projectId: string) => apiRequest<TesterAppDetail>("GET", `/api/tester/apps/${encodeURIComponent(projectId)}`, undefined, tester),

  joinPreview: (token: string) => apiRequest<JoinPreview>("POST", "/api/join/preview", { token }, tester),
  /** 202 always: the confirmation mail is a `tester_join` magic link. */
  join: (token: string, email: string) => apiRequest<unknown>("POST", "/api/join", { token, email }, tester),
};
