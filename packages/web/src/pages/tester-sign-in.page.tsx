import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { ApiError, BAD_LINK_MESSAGE, describeError, isBadLink } from "../api/api-client";
import { testerApi, type TesterSignedIn } from "../api/tester.api";
import { testerSessionQuery, useTesterSignIn } from "../api/tester.queries";
import { Link, Redirect, useLocation, useNavigate, useSearchParam } from "../app/router";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button } from "../components/button";
import { emailError, EmailField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { TesterCardLayout, type TesterNotice } from "../components/tester-layout";
import { useForm } from "../components/use-form";
import "../styles/tester-portal.css";

const FIELDS = ["email"] as const;
const LABELS = { email: "E-mail address" };

const check = (
  <svg viewBox="0 0 48 48" focusable="false">
    <circle cx="24" cy="24" r="17" />
    <path d="m16.5 24.5 5 5 10-11" />
  </svg>
);

/**
 * `/tester/sign-in`: a tester asks for a magic link (no password, no account), and the link's
 * `?token=` lands here. Opening the page changes nothing on the server (mail scanners prefetch
 * links): the page posts the token itself, once.
 */
export function TesterSignInPage() {
  const token = useSearchParam("token");
  return token ? <LandLink token={token} /> : <AskForLink />;
}

type Landing = { kind: "landing" } | { kind: "joined"; joined: NonNullable<TesterSignedIn["joined"]> } | { kind: "failed"; error: unknown };

function LandLink({ token }: { token: string }) {
  const signIn = useTesterSignIn();
  const navigate = useNavigate();
  const [landing, setLanding] = useState<Landing>({ kind: "landing" });
  const posted = useRef<string | null>(null);
  const { mutateAsync } = signIn;

  useEffect(() => {
    // Once per token: React's development double-run of effects must not spend it twice.
    if (posted.current === token) return;
    posted.current = token;
    mutateAsync(token)
      .then(({ joined }) => (joined ? setLanding({ kind: "joined", joined }) : navigate("/apps", { replace: true })))
      .catch((error: unknown) => setLanding({ kind: "failed", error }));
  }, [token, mutateAsync, navigate]);

  if (landing.kind === "landing") {
    return (
      <TesterCardLayout title="Signing you in">
        <p className="lead loading-line" role="status">
          <span className="spinner spinner-dark" aria-hidden="true" />
          One moment…
        </p>
      </TesterCardLayout>
    );
  }
  if (landing.kind === "joined") {
    const { groupName, workspaceName } = landing.joined;
    return (
      <TesterCardLayout title="You're in" icon={check}>
        <p className="lead" data-testid="joined">
          You joined <strong className="break-anywhere">{groupName}</strong> of <strong className="break-anywhere">{workspaceName}</strong>. When they send the group a
          build, you get an e-mail with an Install button, and the build appears in your apps.
        </p>
        <Link to="/apps" className="button button-primary button-block">
          See your apps
        </Link>
      </TesterCardLayout>
    );
  }
  const rateLimited = landing.error instanceof ApiError && landing.error.status === 429;
  return (
    <TesterCardLayout title="This sign-in link cannot be used">
      <ErrorSummary message={isBadLink(landing.error) ? BAD_LINK_MESSAGE : describeError(landing.error)} />
      <p className="muted">
        {rateLimited ? "Wait a moment, then reload this page." : "Sign-in links work once and for 15 minutes. Enter your address to get a new one."}
      </p>
      {!rateLimited && <SignInForm />}
    </TesterCardLayout>
  );
}

function AskForLink() {
  const session = useQuery(testerSessionQuery());
  const { state } = useLocation();
  const notice = (state as { notice?: TesterNotice } | null)?.notice;
  // Signed in already (a bookmark of this page): the apps are what they came for.
  if (session.data?.status === "signedIn") return <Redirect to="/apps" />;
  return (
    <TesterCardLayout title="Sign in to see your apps" subtitle="Testers sign in with their e-mail address: no password, no account.">
      {notice === "signed-out" && <Notice kind="info">You are signed out.</Notice>}
      <SignInForm />
    </TesterCardLayout>
  );
}

/** The address form, and after it "check your mail", said the same whatever the address. */
function SignInForm() {
  const form = useForm(FIELDS, LABELS);
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit({ email: emailError(email) }, async () => {
      await testerApi.requestSignIn(email.trim());
      setSentTo(email.trim());
    });
  };

  if (sentTo) {
    return (
      <div className="tester-sent" data-testid="sign-in-sent">
        <Notice kind="success" title="Check your mail.">
          If <strong className="break-anywhere">{sentTo}</strong> receives builds through Hangar, a sign-in link is on its way. It works once, for 15 minutes.
        </Notice>
        <p className="muted">Nothing there after a few minutes? Check your spam folder. Builds are only sent to the address a team added to its testers.</p>
        <Button variant="secondary" block onClick={() => setSentTo(undefined)}>
          Use another address
        </Button>
      </div>
    );
  }
  return (
    <FormScaffold form={form} labels={LABELS} onSubmit={onSubmit} submit={{ label: "Email me a sign-in link", busyLabel: "Sending…", block: true }}>
      <EmailField label={LABELS.email} hint="The address your builds are sent to." {...form.bind("email", email, setEmail)} />
    </FormScaffold>
  );
}
