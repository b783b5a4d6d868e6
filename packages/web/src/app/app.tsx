import { useEffect, type ReactNode } from "react";
import { restoreDraft } from "./form-drafts";
import { Button } from "../components/button";
import { AuthLayout } from "../components/layouts";
import { ErrorSummary } from "../components/alerts";
import { AcceptInvitationPage } from "../pages/accept-invitation.page";
import { AccountPage } from "../pages/account.page";
import { AuditLogPage } from "../pages/audit-log.page";
import { MembersPage } from "../pages/members.page";
import { WebhooksPage } from "../pages/webhooks.page";
import { NewWorkspacePage } from "../pages/new-workspace.page";
import { WorkspaceSettingsPage } from "../pages/workspace-settings.page";
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
import { TesterGroupPage } from "../pages/tester-group.page";
import { TesterPage } from "../pages/tester.page";
import { TestersPage } from "../pages/testers.page";
import { DevicesPage } from "../pages/devices.page";
import { KeyUsagePage } from "../pages/key-usage.page";
import { ResetPasswordPage } from "../pages/reset-password.page";
import { SignUpPage } from "../pages/sign-up.page";
import { VerifyEmailPage } from "../pages/verify-email.page";
import { JoinPage } from "../pages/join.page";
import { TesterAppPage } from "../pages/tester-app.page";
import { TesterAppsPage } from "../pages/tester-apps.page";
import { TesterSignInPage } from "../pages/tester-sign-in.page";
import { paths, ROUTE_PATTERNS, type ParamsOf, type RoutePath, type RoutePattern } from "./paths";
import { matchPath, Redirect, useLocation, useSearchParam } from "./router";
import { homeFor, useSession } from "./session";

/**
 * Who may see a page:
 * - "account": signed in (and with a profile, except the profile page itself);
 * - "guest": signed out (signed-in people go to their dashboard);
 * - "any": both (links from mails work whoever opens them);
 * - "tester": the tester side (issue 20), which the dashboard session has nothing to do with: shown
 *   without waiting for it, each page reading the tester session (`hangar_tester`) itself.
 */
type Access = "account" | "guest" | "any" | "tester";

interface Route<P extends RoutePattern> {
  access: Access;
  render(params: ParamsOf<P>): ReactNode;
}

/**
 * The client routes, one row per pattern of `ROUTE_PATTERNS` (a missing or unknown one fails to
 * compile), each page given its parameters by name. The local server and CloudFront answer
 * index.html for each of them.
 */
export const ROUTES: { [P in RoutePattern]: Route<P> } = {
  "/sign-up": { access: "guest", render: () => <SignUpPage /> },
  "/login": { access: "guest", render: () => <LoginPage /> },
  "/forgot-password": { access: "guest", render: () => <ForgotPasswordPage /> },
  "/check-email": { access: "any", render: () => <CheckEmailPage /> },
  "/verify-email": { access: "any", render: () => <VerifyEmailPage /> },
  "/reset-password": { access: "any", render: () => <ResetPasswordPage /> },
  "/profile": { access: "account", render: () => <ProfilePage /> },
  "/dashboard": { access: "account", render: () => <DashboardPage /> },
  "/projects": { access: "account", render: () => <ProjectsPage /> },
  "/projects/new": { access: "account", render: () => <NewProjectPage /> },
  "/projects/:projectId": { access: "account", render: (p) => <ProjectPage projectId={p.projectId} /> },
  "/files/:fileId": { access: "account", render: (p) => <FilePage fileId={p.fileId} /> },
  "/testers": { access: "account", render: () => <TestersPage /> },
  "/testers/groups/:groupId": { access: "account", render: (p) => <TesterGroupPage groupId={p.groupId} /> },
  "/testers/people": { access: "account", render: () => <TesterPage /> },
  "/testers/devices": { access: "account", render: () => <DevicesPage /> },
  "/security/developer-settings": { access: "account", render: () => <DeveloperSettingsPage /> },
  "/security/developer-settings/keys/:clientId": { access: "account", render: (p) => <KeyUsagePage clientId={p.clientId} /> },
  "/account": { access: "account", render: () => <AccountPage /> },
  "/workspaces/new": { access: "account", render: () => <NewWorkspacePage /> },
  "/settings/workspace": { access: "account", render: () => <WorkspaceSettingsPage /> },
  "/settings/members": { access: "account", render: () => <MembersPage /> },
  "/settings/audit": { access: "account", render: () => <AuditLogPage /> },
  "/settings/webhooks": { access: "account", render: () => <WebhooksPage /> },
  // Signed in or not: the page itself says what to do (accept, switch accounts, sign in or up).
  "/invitations/accept": { access: "any", render: () => <AcceptInvitationPage /> },
  "/tester/sign-in": { access: "tester", render: () => <TesterSignInPage /> },
  "/apps": { access: "tester", render: () => <TesterAppsPage /> },
  "/tester/apps/:projectId": { access: "tester", render: (p) => <TesterAppPage projectId={p.projectId} /> },
  "/join/:token": { access: "tester", render: (p) => <JoinPage token={p.token} /> },
};

/** The first route (in `ROUTE_PATTERNS` order: `/projects/new` before `/projects/:projectId`) a path matches. */
function findRoute(pathname: string): { pattern: RoutePattern; access: Access; page: ReactNode } | undefined {
  for (const pattern of ROUTE_PATTERNS) {
    const params = matchPath(pattern, pathname);
    if (!params) continue;
    const route = ROUTES[pattern] as Route<RoutePattern>;
    // matchPath names the params after the pattern's own `:segments`, which is what ParamsOf reads.
    return { pattern, access: route.access, page: route.render(params as ParamsOf<RoutePattern>) };
  }
  return undefined;
}

/** Old or short addresses people may type. */
const ALIASES: Record<string, RoutePath> = { "/settings": "/account", "/security": "/security/developer-settings", "/signup": "/sign-up", "/register": "/sign-up", "/signin": "/login" };

export function App() {
  const { pathname, search } = useLocation();
  const { state } = useSession();
  const next = useSearchParam("next");
  // Back on a page after a sign-in that followed an ended session: put back what its form held.
  useEffect(() => (state.status === "signedIn" ? restoreDraft(pathname + search) : undefined), [state.status, pathname, search]);

  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const alias = ALIASES[normalized];
  if (alias) return <Redirect to={search ? `${alias}?${search.slice(1)}` : alias} />;

  // A tester's page does not wait for (or depend on) the dashboard's session.
  const route = findRoute(normalized);
  if (route?.access === "tester") return <>{route.page}</>;

  // Nothing until we know who is there: no flash of the login form or of the dashboard frame.
  if (state.status === "loading") return <div className="boot" aria-busy="true" />;
  if (state.status === "unavailable") return <Unavailable message={state.error.message} />;

  if (normalized === "/") return <Redirect to={state.status === "signedIn" ? homeFor(state.account) : "/login"} />;

  if (!route) return <NotFoundPage />;
  const here = pathname + search;
  if (route.access === "account") {
    if (state.status !== "signedIn") {
      return (
        <Redirect
          to={here === "/dashboard" ? "/login" : paths.withNext("/login", here)}
          state={state.status === "signedOut" && state.ended ? { notice: "session-ended" } : undefined}
        />
      );
    }
    if (!state.account.displayName && route.pattern !== "/profile") return <Redirect to={paths.withNext("/profile", here)} />;
  }
  if (route.access === "guest" && state.status === "signedIn") {
    return <Redirect to={homeFor(state.account, next)} />;
  }
  return <>{route.page}</>;
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
