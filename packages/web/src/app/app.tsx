import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { restoreDraft } from "./form-drafts";
import { Button } from "../components/button";
import { AuthLayout } from "../components/layouts";
import { ErrorSummary } from "../components/alerts";
import { NotFoundPage } from "../pages/not-found.page";
import { paths, ROUTE_PATTERNS, type ParamsOf, type RoutePath, type RoutePattern } from "./paths";
import { matchPath, Redirect, useLocation, useSearchParam } from "./router";
import { homeFor, useSession } from "./session";

/**
 * Every page but "not found" is its own chunk (with its stylesheet), loaded when first shown, so
 * the first page loads the frame and itself, not the whole dashboard. Once a page has rendered,
 * the others are fetched while the browser is idle, so moving between pages does not wait.
 */
const pageLoaders: (() => Promise<unknown>)[] = [];
/** A page module's component by its export name (a page is a function component). */
type PageExport<C> = C extends (props: infer P) => ReactNode ? (props: P) => ReactNode : never;

function lazyPage<M, N extends keyof M>(load: () => Promise<M>, name: N) {
  pageLoaders.push(load);
  return lazy(async () => ({ default: (await load())[name] as PageExport<M[N]> }));
}

const AcceptInvitationPage = lazyPage(() => import("../pages/accept-invitation.page"), "AcceptInvitationPage");
const AccountPage = lazyPage(() => import("../pages/account.page"), "AccountPage");
const AuditLogPage = lazyPage(() => import("../pages/audit-log.page"), "AuditLogPage");
const MembersPage = lazyPage(() => import("../pages/members.page"), "MembersPage");
const WebhooksPage = lazyPage(() => import("../pages/webhooks.page"), "WebhooksPage");
const NewWorkspacePage = lazyPage(() => import("../pages/new-workspace.page"), "NewWorkspacePage");
const WorkspaceSettingsPage = lazyPage(() => import("../pages/workspace-settings.page"), "WorkspaceSettingsPage");
const CheckEmailPage = lazyPage(() => import("../pages/check-email.page"), "CheckEmailPage");
const DashboardPage = lazyPage(() => import("../pages/dashboard.page"), "DashboardPage");
const DeveloperSettingsPage = lazyPage(() => import("../pages/developer-settings.page"), "DeveloperSettingsPage");
const ForgotPasswordPage = lazyPage(() => import("../pages/forgot-password.page"), "ForgotPasswordPage");
const LoginPage = lazyPage(() => import("../pages/login.page"), "LoginPage");
const ProfilePage = lazyPage(() => import("../pages/profile.page"), "ProfilePage");
const NewProjectPage = lazyPage(() => import("../pages/projects.page"), "NewProjectPage");
const ProjectsPage = lazyPage(() => import("../pages/projects.page"), "ProjectsPage");
const ProjectPage = lazyPage(() => import("../pages/project.page"), "ProjectPage");
const FilePage = lazyPage(() => import("../pages/file.page"), "FilePage");
const TesterGroupPage = lazyPage(() => import("../pages/tester-group.page"), "TesterGroupPage");
const TesterPage = lazyPage(() => import("../pages/tester.page"), "TesterPage");
const TestersPage = lazyPage(() => import("../pages/testers.page"), "TestersPage");
const DevicesPage = lazyPage(() => import("../pages/devices.page"), "DevicesPage");
const KeyUsagePage = lazyPage(() => import("../pages/key-usage.page"), "KeyUsagePage");
const ResetPasswordPage = lazyPage(() => import("../pages/reset-password.page"), "ResetPasswordPage");
const SignUpPage = lazyPage(() => import("../pages/sign-up.page"), "SignUpPage");
const VerifyEmailPage = lazyPage(() => import("../pages/verify-email.page"), "VerifyEmailPage");
const JoinPage = lazyPage(() => import("../pages/join.page"), "JoinPage");
const TesterAppPage = lazyPage(() => import("../pages/tester-app.page"), "TesterAppPage");
const TesterAppsPage = lazyPage(() => import("../pages/tester-apps.page"), "TesterAppsPage");
const TesterSignInPage = lazyPage(() => import("../pages/tester-sign-in.page"), "TesterSignInPage");

let prefetched = false;
function prefetchPages() {
  if (prefetched) return;
  prefetched = true;
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  // Only warms the browser's cache: a failure here is ignored, and the page's own load says so.
  idle(() => void Promise.allSettled(pageLoaders.map((load) => load())));
}

/** Committed with the page it follows, once that page's chunk has loaded. */
function PrefetchPages() {
  useEffect(prefetchPages, []);
  return null;
}

/** A page, with the frame's empty placeholder while its chunk loads (the first time only). */
function Page({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<div className="boot" aria-busy="true" />}>
      {children}
      <PrefetchPages />
    </Suspense>
  );
}

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
  if (route?.access === "tester") return <Page>{route.page}</Page>;

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
  return <Page>{route.page}</Page>;
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
