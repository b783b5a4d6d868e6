import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, isBadLink } from "../api/api-client";
import { testerApi, type JoinPreview } from "../api/tester.api";
import { joinPreviewQuery } from "../api/tester.queries";
import { formatDateTime } from "../app/format";
import { Link } from "../app/router";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button } from "../components/button";
import { Loaded } from "../components/data";
import { emailError, EmailField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { TesterCardLayout } from "../components/tester-layout";
import { useForm } from "../components/use-form";
import "../styles/tester-portal.css";

const FIELDS = ["email"] as const;
const LABELS = { email: "E-mail address" };

const people = (
  <svg viewBox="0 0 48 48" focusable="false">
    <circle cx="18" cy="17" r="6" />
    <path d="M7 38a11 11 0 0 1 22 0" />
    <path d="M31 12.5a6 6 0 0 1 0 11M35 27.5a11 11 0 0 1 6 10.5" />
  </svg>
);

/** A link that takes nobody any more: revoked, expired or full (410), or one that never was (a mangled link). */
const isGone = (error: unknown) => isBadLink(error) || (error instanceof ApiError && (error.status === 404 || error.status === 410 || error.code === "join_link_gone"));

/**
 * `/join/<token>`: a group's self-service invite link. It shows which group of which workspace it
 * joins; the person enters their address and confirms by the magic link mailed to it (the link's
 * landing on `/tester/sign-in` adds them to the group). Opening the page changes nothing.
 */
export function JoinPage({ token }: { token: string }) {
  const preview = useQuery(joinPreviewQuery(token));
  if (preview.isError && isGone(preview.error)) {
    return (
      <TesterCardLayout title="This invite link no longer works">
        <ErrorSummary message="The link was turned off, has expired, or its group is full." />
        <p className="muted">Ask the person who sent it for a new one. If you joined already, your apps are a sign-in away.</p>
        <Link to="/tester/sign-in" className="button button-secondary button-block">
          Sign in to your apps
        </Link>
      </TesterCardLayout>
    );
  }
  return (
    <TesterCardLayout title={preview.data ? `Join “${preview.data.groupName}”` : "Join a tester group"} icon={people}>
      <Loaded query={preview} label="the invite link">
        {(link) => <JoinForm token={token} link={link} />}
      </Loaded>
    </TesterCardLayout>
  );
}

function JoinForm({ token, link }: { token: string; link: JoinPreview }) {
  const form = useForm(FIELDS, LABELS);
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit({ email: emailError(email) }, async () => {
      await testerApi.join(token, email.trim());
      setSentTo(email.trim());
    });
  };

  const intro = (
    <p className="lead">
      <strong className="break-anywhere">{link.workspaceName}</strong> invites you to test their apps in the group{" "}
      <strong className="break-anywhere">{link.groupName}</strong>. You get an e-mail with an Install button whenever they send the group a new build. No account or password
      needed.
    </p>
  );
  if (!link.open) {
    return (
      <>
        {intro}
        <ErrorSummary message="This invite link is not taking new testers right now." />
        <p className="muted">Ask the person who sent it for a new one.</p>
      </>
    );
  }
  if (sentTo) {
    return (
      <>
        <Notice kind="success" title="Check your mail.">
          We sent a link to <strong className="break-anywhere">{sentTo}</strong>. Open it within 15 minutes to join {link.groupName}.
        </Notice>
        <p className="muted">Nothing there after a few minutes? Check your spam folder, or send it again.</p>
        <Button variant="secondary" block onClick={() => setSentTo(undefined)}>
          Use another address
        </Button>
      </>
    );
  }
  return (
    <>
      {intro}
      {link.expiresAt && <p className="muted">This link works until {formatDateTime(link.expiresAt)}.</p>}
      <FormScaffold form={form} labels={LABELS} onSubmit={onSubmit} submit={{ label: "Join the group", busyLabel: "Sending…", block: true }}>
        <EmailField label={LABELS.email} hint="We send a link to confirm it is yours." {...form.bind("email", email, setEmail)} />
      </FormScaffold>
    </>
  );
}
