import { apiRequest } from "./api-client";

/** The signed-in person, as `GET /api/account` answers it. */
export interface Account {
  userId: string;
  email: string;
  emailVerified: boolean;
  displayName?: string;
  organization?: string;
  createdAt: string;
  /** SES reported the address as bouncing (or a complaint) on `since`: Hangar mails it no more. */
  mailSuppressed?: { reason: "bounce" | "complaint"; since: string };
}

export interface SessionInfo {
  sessionId: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  userAgent?: string;
  ip?: string;
}

export interface Profile {
  displayName: string;
  organization?: string;
}

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
