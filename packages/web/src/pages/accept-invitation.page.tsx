import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, BAD_LINK_MESSAGE, isBadLink } from "../api/api-client";
import type { InvitationPreview } from "../api/workspaces.api";
import { invitationPreviewQuery, useAcceptInvitation } from "../api/workspaces.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link, useLocation, useNavigate, useSearchParam } from "../app/router";
import { useSession } from "../app/session";
import { describeTeamError, roleAbilities, roleLabel } from "../app/workspace";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button } from "../components/button";
import { Loaded } from "../components/data";
import { AuthLayout } from "../components/layouts";

const envelope = (
  <svg viewBox="0 0 48 48" focusable="false">
    <rect x="6" y="11" width="36" height="26" rx="4" />
    <path d="m8 14 16 12 16-12" />
  </svg>
);

/** An invitation that can no longer be used (revoked, expired, accepted, or a mangled link). */
const isGone = (error: unknown) =>
  isBadLink(error) || (error instanceof ApiError && (error.code === "invitation_gone" || error.status === 400 || error.status === 404 || error.status === 410));

/**
 * The invitation mail links here with `?token=`. Opening the page changes nothing (mail scanners
 * prefetch links): it asks who invited whom (`POST /api/invitations/preview`), then
 * - signed in with the invited address: "Accept", then the workspace's dashboard;
 * - signed in as someone else: says so, with a sign-out that comes back here;
 * - signed out: "Log in" or "Create account", both of which come back here afterwards (through
 *   sign-up, the verification mail and the profile form; `?next=`, same-origin paths only).
 */
export function AcceptInvitationPage() {
  const token = useSearchParam("token");
  if (!token) {
    return (
      <AuthLayout title="This link is incomplete">
        <p className="lead">The invitation link is missing its code. Open the link from the e-mail again, or ask the person who invited you to re-send it.</p>
      </AuthLayout>
    );
  }
  return <Invitation token={token} />;
}

function Invitation({ token }: { token: string }) {
  const preview = useQuery(invitationPreviewQuery(token));
  if (preview.isError && isGone(preview.error)) {
    return (
      <AuthLayout title="This invitation cannot be used">
        <ErrorSummary message={BAD_LINK_MESSAGE} />
        <p className="muted">Invitations work once and for 7 days, and can be revoked. Ask the person who invited you to send a new one.</p>
        <Link to="/" className="button button-secondary button-block">
          Go to Hangar
        </Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={preview.data ? `Join “${preview.data.workspaceName}”` : "Invitation"} icon={envelope}>
      <Loaded query={preview} label="the invitation">
        {(invitation) => <InvitationDetails token={token} invitation={invitation} />}
      </Loaded>
    </AuthLayout>
  );
}

function InvitationDetails({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const { state, signOut } = useSession();
  const { pathname, search } = useLocation();
  const here = pathname + search;
  const inviter = invitation.invitedBy.displayName ?? invitation.invitedBy.email ?? "A member";
  return (
    <>
      <p className="lead">
        <strong className="break-anywhere">{inviter}</strong> invited <strong className="break-anywhere">{invitation.email}</strong> to the workspace{" "}
        <strong className="break-anywhere">“{invitation.workspaceName}”</strong> as {/^[aeiou]/i.test(invitation.role) ? "an" : "a"} <strong>{roleLabel(invitation.role).toLowerCase()}</strong>.
      </p>
      <p className="muted">
        {roleAbilities(invitation.role)} The invitation expires on {formatDateTime(invitation.expiresAt)}.
      </p>
      {state.status === "signedIn" ? (
        sameAddress(state.account.email, invitation.email) ? (
          <Accept token={token} />
        ) : (
          <>
            <Notice kind="info" title="This invitation is for another account.">
              You are signed in as <strong className="break-anywhere">{state.account.email}</strong>. Sign out, then sign in (or create an account) with{" "}
              <strong className="break-anywhere">{invitation.email}</strong> to accept it.
            </Notice>
            <Button block variant="secondary" onClick={() => void signOut(here)}>
              Sign out
            </Button>
          </>
        )
      ) : (
        <div className="stack-buttons">
          <Link to={paths.withNext("/login", here)} className="button button-primary button-block">
            Log in to accept
          </Link>
          <Link to={paths.withNext("/sign-up", here)} state={{ email: invitation.email }} className="button button-secondary button-block">
            Create account
          </Link>
        </div>
      )}
    </>
  );
}

/** Addresses compare as the API normalizes them for sign-in: trimmed, without case. */
const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function Accept({ token }: { token: string }) {
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const onAccept = async () => {
    setError(undefined);
    try {
      const { workspaceId } = await accept.mutateAsync(token);
      navigate(paths.inWorkspace("/dashboard", workspaceId), { replace: true });
    } catch (e) {
      setError(
        isGone(e)
          ? BAD_LINK_MESSAGE
          : e instanceof ApiError && e.code === "already_member"
            ? "You are a member of this workspace already: choose it in the workspace menu."
            : describeTeamError(e),
      );
    }
  };
  return (
    <>
      <ErrorSummary message={error} />
      <Button block busy={accept.isPending} busyLabel="Joining…" onClick={() => void onAccept()}>
        Accept invitation
      </Button>
    </>
  );
}
