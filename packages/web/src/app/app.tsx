import { useEffect, type ReactNode } from "react";
import { restoreDraft } from "./form-drafts";
import { Button } from "../components/button";
import { AuthLayout } from "../components/layouts";
import { ErrorSummary } from "../components/alerts";
import { AccountPage } from "../pages/account.page";
import { CheckEmailPage } from "../pages/check-email.page";
import { DashboardPage } from "../pages/dashboard.page";
import { DeveloperSettingsPage } from "../pages/developer-settings.page";
import { ForgotPasswordPage } from "../pages/forgot-password.page";
import { LoginPage } from "../pages/login.page";
import { NotFoundPage } from "../pages/not-found.page";
import { ProfilePage } from "../pages/profile.page";
import { NewProjectPage, ProjectsPage } from "../pages/projects.page";
import { ProjectPage } from "../pages/project.page";
import { FilePage } from "../pages/file.page";
import { KeyUsagePage } from "../pages/key-usage.page";
import { ResetPasswordPage } from "../pages/reset-password.page";
import { SignUpPage } from "../pages/sign-up.page";
import { VerifyEmailPage } from "../pages/verify-email.page";
import { matchPath, Redirect, safeNextPath, useLocation, useSearchParam } from "./router";
import { homeFor, useSession } from "./session";

/**
 * Who may see a page:
 * - "account": signed in (and with a profile, except the profile page itself);
 * - "guest": signed out (signed-in people go to their dashboard);
 * - "any": both (links from mails work whoever opens them).
 */
type Access = "account" | "guest" | "any";

interface Route {
  path: string;
  access: Access;
  render(params: Record<string, string>): ReactNode;
}

/** The client routes. The local server and CloudFront answer index.html for each of them. */
export const ROUTES: Route[] = [
  { path: "/sign-up", access: "guest", render: () => <SignUpPage /> },
  { path: "/login", access: "guest", render: () => <LoginPage /> },
  { path: "/forgot-password", access: "guest", render: () => <ForgotPasswordPage /> },
  { path: "/check-email", access: "any", render: () => <CheckEmailPage /> },
  { path: "/verify-email", access: "any", render: () => <VerifyEmailPage /> },
  { path: "/reset-password", access: "any", render: () => <ResetPasswordPage /> },
  { path: "/profile", access: "account", render: () => <ProfilePage /> },
  { path: "/dashboard", access: "account", render: () => <DashboardPage /> },
  { path: "/projects", access: "account", render: () => <ProjectsPage /> },
  { path: "/projects/new", access: "account", render: () => <NewProjectPage /> },
  { path: "/projects/:projectId", access: "account", render: (p) => <ProjectPage projectId={p.projectId!} /> },
  { path: "/files/:fileId", access: "account", render: (p) => <FilePage fileId={p.fileId!} /> },
  { path: "/security/developer-settings", access: "account", render: () => <DeveloperSettingsPage /> },
  { path: "/security/developer-settings/keys/:clientId", access: "account", render: (p) => <KeyUsagePage clientId={p.clientId!} /> },
  { path: "/account", access: "account", render: () => <AccountPage /> },
];

/** Old or short addresses people may type. */
const ALIASES: Record<string, string> = { "/settings": "/account", "/security": "/security/developer-settings", "/signup": "/sign-up", "/register": "/sign-up", "/signin": "/login" };

export function App() {
  const { pathname, search } = useLocation();
  const { state } = useSession();
  const next = useSearchParam("next");
  // Back on a page after a sign-in that followed an ended session: put back what its form held.
  useEffect(() => (state.status === "signedIn" ? restoreDraft(pathname + search) : undefined), [state.status, pathname, search]);

  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const alias = ALIASES[normalized];
  if (alias) return <Redirect to={alias + search} />;

  // Nothing until we know who is there: no flash of the login form or of the dashboard frame.
  if (state.status === "loading") return <div className="boot" aria-busy="true" />;
  if (state.status === "unavailable") return <Unavailable message={state.error.message} />;

  if (normalized === "/") return <Redirect to={state.status === "signedIn" ? homeFor(state.account) : "/login"} />;

  for (const route of ROUTES) {
    const params = matchPath(route.path, normalized);
    if (!params) continue;
    if (route.access === "account") {
      if (state.status !== "signedIn") {
        const here = pathname + search;
        return (
          <Redirect
            to={here === "/dashboard" ? "/login" : `/login?next=${encodeURIComponent(here)}`}
            state={state.status === "signedOut" && state.ended ? { notice: "session-ended" } : undefined}
          />
        );
      }
      if (!state.account.displayName && route.path !== "/profile") {
        return <Redirect to={`/profile?next=${encodeURIComponent(pathname + search)}`} />;
      }
    }
    if (route.access === "guest" && state.status === "signedIn") {
      return <Redirect to={state.account.displayName ? safeNextPath(next, "/dashboard") : homeFor(state.account)} />;
    }
    return <>{route.render(params)}</>;
  }
  return <NotFoundPage />;
}

function Unavailable({ message }: { message: string }) {
  const { refresh } = useSession();
  return (
    <AuthLayout title="Hangar is not reachable right now">
      <ErrorSummary message={message} />
      <Button block onClick={() => void refresh()}>
        Try again
      </Button>
    </AuthLayout>
  );
}
