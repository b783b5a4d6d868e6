import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { testerSessionQuery, useDeviceHandoff, useTesterSignOut } from "../api/tester.queries";
import type { TesterSession } from "../api/tester.api";
import { Redirect, Link, useNavigate } from "../app/router";
import { ErrorSummary } from "./alerts";
import { Button } from "./button";
import { Loaded } from "./data";
import { AuthLayout, useFocusOnNavigate, usePageTitle } from "./layouts";
import { Logo } from "./logo";
import "../styles/tester-portal.css";

/** Notes the tester sign-in page shows when another page sends a tester there (history state, not the URL). */
export type TesterNotice = "signed-out";

/** The tester side's cards (sign-in, join): the signed-out layout, whose logo leads to the tester's apps. */
export function TesterCardLayout(props: Omit<Parameters<typeof AuthLayout>[0], "home">) {
  return <AuthLayout {...props} home="/apps" />;
}

/**
 * The tester portal's frame: simpler than the dashboard's (a tester has one thing to do: install),
 * a bar with the logo, the address signed in and Sign out, and one column that reads well on a
 * phone. Only for a signed-in tester: without the `hangar_tester` session the page goes to the
 * sign-in form, which says why.
 */
export function TesterLayout({ title, description, back, children }: { title: string; description?: ReactNode; back?: ReactNode; children(session: TesterSession): ReactNode }) {
  const session = useQuery(testerSessionQuery());
  const handingOff = useDeviceHandoff(session.data?.status === "signedIn");
  // Never signed in here, signed out, or the 30 days ran out: the sign-in page says what to do either way.
  if (session.data?.status === "signedOut") return <Redirect to="/tester/sign-in" />;
  if (session.isError) {
    return (
      <TesterCardLayout title="Hangar is not reachable right now">
        <Loaded query={session} label="your session">
          {() => null}
        </Loaded>
      </TesterCardLayout>
    );
  }
  if (session.data?.status !== "signedIn" || handingOff) return <div className="boot" aria-busy="true" />;
  return (
    <Frame title={title} description={description} back={back} email={session.data.session.email}>
      {children(session.data.session)}
    </Frame>
  );
}

function Frame({ title, description, back, email, children }: { title: string; description?: ReactNode; back?: ReactNode; email: string; children: ReactNode }) {
  usePageTitle(title);
  const headingRef = useFocusOnNavigate();
  const signOut = useTesterSignOut();
  const navigate = useNavigate();
  return (
    <div className="tester-page">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="tester-bar">
        <Link to="/apps" className="tester-logo" aria-label="Hangar: your apps">
          <Logo />
        </Link>
        <div className="tester-account">
          <span className="tester-email" title={email}>
            {email}
          </span>
          <Button
            variant="secondary"
            className="button-small"
            busy={signOut.isPending}
            busyLabel="Signing out…"
            onClick={() => signOut.mutate(undefined, { onSettled: () => navigate("/tester/sign-in", { replace: true, state: { notice: "signed-out" satisfies TesterNotice } }) })}
          >
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className="tester-main" tabIndex={-1}>
        {back && <div className="tester-back">{back}</div>}
        <h1 className="page-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        {description && <p className="page-description">{description}</p>}
        {signOut.isError && <ErrorSummary message="Could not sign out. Please try again." />}
        {children}
      </main>
    </div>
  );
}
