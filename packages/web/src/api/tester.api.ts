import { apiRequest } from "./api-client";
import type { JoinPreview, TesterAppDetail, TesterApps, TesterMailAnswer, TesterSessionAnswer, TesterSessionView } from "@hangar/core/tester-access-schema";

// The answers are core's (browser-safe types, no code reaches the bundle), named as the pages read them.
export type {
  JoinPreview,
  TesterAppDetail,
  TesterAppSummary as TesterApp,
  TesterBuild,
  TesterSessionView as TesterSession,
  TesterSessionAnswer as TesterSignedIn,
} from "@hangar/core/tester-access-schema";

/*
 * The tester side of issue 20: testers are e-mail addresses with their own session cookie
 * (`hangar_tester`), not dashboard accounts. Every call says `expectSignedOut`, so a 401 here never
 * reaches the dashboard's session handler (which would call a signed-in owner signed out): the
 * tester pages read the tester session themselves.
 */
const tester = { expectSignedOut: true } as const;

export const testerApi = {
  /** 202 whatever the address: a mail goes out only to known testers. */
  requestSignIn: (email: string) => apiRequest<TesterMailAnswer>("POST", "/api/tester/sign-in", { email }, tester),
  /** Lands a magic link: sets the tester cookie. */
  signIn: (token: string) => apiRequest<TesterSessionAnswer>("POST", "/api/tester/session", { token }, tester),
  session: () => apiRequest<TesterSessionView>("GET", "/api/tester/session", undefined, tester),
  signOut: () => apiRequest<void>("DELETE", "/api/tester/session", undefined, tester),

  apps: () => apiRequest<TesterApps>("GET", "/api/tester/apps", undefined, tester),
  app: (projectId: string) => apiRequest<TesterAppDetail>("GET", `/api/tester/apps/${encodeURIComponent(projectId)}`, undefined, tester),
  /** The enroll result page's hand-off (a share host apart from this one): sets the device cookie here. */
  redeemDevice: (handoff: string) => apiRequest<void>("POST", "/api/tester/device", { handoff }, tester),

  joinPreview: (token: string) => apiRequest<JoinPreview>("POST", "/api/join/preview", { token }, tester),
  /** 202 always: the confirmation mail is a `tester_join` magic link. */
  join: (token: string, email: string) => apiRequest<TesterMailAnswer>("POST", "/api/join", { token, email }, tester),
};
