import { ChangePassword, EmailOnly, ProfileInput, ResetConfirm, SessionRef, SignIn, SignUp, TokenOnly } from "@hangar/core/accounts";
import { SessionNotFoundError } from "@hangar/core/account-errors";
import type { RouteKeyOf } from "../routes";
import { dashboard, type RouteInput } from "./rows";

/** The accounts function's routes (routes.ts). */
export const input = {
  "POST /api/account/sign-up": dashboard({ body: SignUp }),
  "POST /api/account/verify-email": dashboard({ body: TokenOnly }),
  "POST /api/account/resend-verification": dashboard({ body: EmailOnly }),
  "POST /api/session": dashboard({ body: SignIn }),
  "DELETE /api/session": dashboard({}),
  "GET /api/account": dashboard({}),
  "PUT /api/account/profile": dashboard({ body: ProfileInput }),
  "POST /api/account/password": dashboard({ body: ChangePassword }),
  "POST /api/account/password-reset": dashboard({ body: EmailOnly }),
  "POST /api/account/password-reset/confirm": dashboard({ body: ResetConfirm }),
  "GET /api/account/sessions": dashboard({}),
  "DELETE /api/account/sessions": dashboard({}),
  "DELETE /api/account/sessions/{sessionId}": dashboard({ params: SessionRef, notFound: () => new SessionNotFoundError() }),
} as const satisfies Record<RouteKeyOf<"accounts">, RouteInput>;
