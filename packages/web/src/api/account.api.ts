import { apiRequest } from "./api-client";
import type { ProfileInput as Profile } from "@hangar/core/account-input-schema";
import type { AccountView as Account, SessionView as SessionInfo } from "@hangar/core/account-views";

// What the accounts API answers is defined once, in core, and shared as types (no code reaches the bundle).
export type { AccountView as Account, SessionView as SessionInfo } from "@hangar/core/account-views";

/** The profile form's request, as the API parses it. */
export type { ProfileInput as Profile } from "@hangar/core/account-input-schema";

/** Typed calls for the accounts API (issue: accounts and the dashboard shell). */
export const accountApi = {
  signUp: (email: string, password: string) =>
    apiRequest<{ message?: string }>("POST", "/api/account/sign-up", { email, password }),
  verifyEmail: (token: string) => apiRequest<unknown>("POST", "/api/account/verify-email", { token }),
  resendVerification: (email: string) => apiRequest<unknown>("POST", "/api/account/resend-verification", { email }),

  signIn: (email: string, password: string) =>
    apiRequest<{ account: Account }>("POST", "/api/session", { email, password }, { expectSignedOut: true }),
  signOut: () => apiRequest<void>("DELETE", "/api/session", undefined, { expectSignedOut: true }),
  current: () => apiRequest<Account>("GET", "/api/account", undefined, { expectSignedOut: true }),

  updateProfile: (profile: Profile) => apiRequest<Account>("PUT", "/api/account/profile", profile),
  changePassword: (currentPassword: string, newPassword: string) =>
    apiRequest<void>("POST", "/api/account/password", { currentPassword, newPassword }),

  requestPasswordReset: (email: string) => apiRequest<unknown>("POST", "/api/account/password-reset", { email }),
  confirmPasswordReset: (token: string, newPassword: string) =>
    apiRequest<void>("POST", "/api/account/password-reset/confirm", { token, newPassword }),

  sessions: () => apiRequest<{ items: SessionInfo[] }>("GET", "/api/account/sessions"),
  endSession: (sessionId: string) => apiRequest<void>("DELETE", `/api/account/sessions/${encodeURIComponent(sessionId)}`),
  endOtherSessions: () => apiRequest<void>("DELETE", "/api/account/sessions"),
};
