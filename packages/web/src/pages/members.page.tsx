import { ROLES } from "@hangar/core/roles";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Invitation, Member, Role, Workspace } from "../api/workspaces.api";
import {
  invitationsQuery,
  membersQuery,
  useChangeRole,
  useInvite,
  useRemoveMember,
  useResendInvitation,
  useRevokeInvitation,
  useTransferOwnership,
} from "../api/workspaces.queries";
import { formatDateTime, formatRelative } from "../app/format";
import { useNavigate } from "../app/router";
import { useAccount } from "../app/session";
import { describeTeamError, inTeamWords, memberLabel, memberName, roleAbilities, roleLabel, useWorkspace, type CurrentWorkspace } from "../app/workspace";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { InWorkspace, ItemList, ResourceList } from "../components/data";
import { emailError, EmailField, fieldId } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card, EmptyState } from "../components/layouts";
import { useForm } from "../components/use-form";
import "../styles/teams.css";

/**
 * Settings → Members: who is in the workspace with their role and last activity; for the roles
 * the policy allows, inviting (with the pending invitations: re-send, revoke), changing roles,
 * removing, and transferring ownership; leaving for everyone. What a role may do comes from the
 * workspace answer's `permissions`; the API refuses the rest all the same.
 */
export function MembersPage() {
  const current = useWorkspace();
  return (
    <AppShell title="Members" description="The people in this workspace, their roles, and invitations.">
      <InWorkspace current={current}>{(workspace) => <Members key={workspace.workspaceId} workspace={workspace} can={current.can} />}</InWorkspace>
    </AppShell>
  );
}

function Members({ workspace, can }: { workspace: Workspace; can: CurrentWorkspace["can"] }) {
  const members = useQuery(membersQuery(workspace.workspaceId));
  // Roles this caller may give: owner only with owners.manage (an admin cannot make owners).
  const grantable = ROLES.filter((role) => role !== "owner" || can("owners.manage"));
  const others = members.data?.filter((m) => !m.you) ?? [];
  return (
    <div className="stack">
      {can("members.manage") && (
        <Card title="Invite people" id="invite" description="They get an e-mail with a link that works for 7 days, for an existing account or a new one.">
          <InviteForm workspaceId={workspace.workspaceId} roles={grantable} />
        </Card>
      )}
      <section aria-labelledby="members-heading" className="section">
        <div className="section-header">
          <h2 id="members-heading" className="section-title">
            Members
          </h2>
          {members.data && <span className="section-count">{members.data.length}</span>}
        </div>
        <ResourceList query={members} label="the members" items={(items) => items} empty={<EmptyState title="No members" headingLevel={3} />}>
          {(items) => (
            <ItemList items={items} itemKey={(m) => m.userId} className="key-list" itemClassName="key-row member-row" testId="members">
              {(member) => <MemberRow member={member} workspace={workspace} can={can} grantable={grantable} />}
            </ItemList>
          )}
        </ResourceList>
      </section>
      {can("members.manage") && <PendingInvitations workspaceId={workspace.workspaceId} />}
      {can("owners.manage") && others.length > 0 && <TransferOwnership workspace={workspace} members={others} />}
      {!workspace.personal && <LeaveWorkspace workspace={workspace} />}
    </div>
  );
}

/** A row action's state: busy while it runs, its refusal in team words until the next try. */
function useRowAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<unknown>, after?: () => void) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      after?.();
    } catch (e) {
      setError(describeTeamError(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

function RoleBadge({ role }: { role: Role }) {
  return <span className={`badge ${role === "owner" ? "badge-accent" : role === "viewer" ? "badge-muted" : "badge-success"}`}>{roleLabel(role)}</span>;
}

function MemberRow({ member, workspace, can, grantable }: { member: Member; workspace: Workspace; can: CurrentWorkspace["can"]; grantable: readonly Role[] }) {
  const changeRole = useChangeRole(workspace.workspaceId);
  const removeMember = useRemoveMember(workspace.workspaceId);
  const action = useRowAction();
  const [role, setRole] = useState<Role>(member.role);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const name = memberName(member);
  // Owners are managed only with owners.manage; everyone else with members.manage. One's own
  // role changes through a transfer (or another owner), and one leaves rather than removes oneself.
  const manageable = !member.you && can("members.manage") && (member.role !== "owner" || can("owners.manage"));
  const selectId = fieldId(`role-${member.userId}`);
  return (
    <>
      <div className="key-head">
        <h3 className="key-name break-anywhere">{name}</h3>
        <RoleBadge role={member.role} />
        {member.you && <span className="badge badge-muted">You</span>}
      </div>
      <dl className="key-facts">
        <div>
          <dt>E-mail address</dt>
          <dd className="break-anywhere">{member.email ?? "—"}</dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatDateTime(member.joinedAt, { dateOnly: true })}</dd>
        </div>
        <div>
          <dt>Last active</dt>
          <dd>{member.lastActiveAt ? <time dateTime={member.lastActiveAt} title={formatDateTime(member.lastActiveAt)}>{formatRelative(member.lastActiveAt)}</time> : "Not yet"}</dd>
        </div>
      </dl>
      {action.error && <ErrorSummary message={action.error} />}
      {manageable &&
        (confirmRemove ? (
          <div className="confirm" role="group" aria-label={`Confirm removing ${name}`}>
            <p>Remove {name} from “{workspace.name}”? They lose access at once. The API keys they created keep working: they belong to the workspace.</p>
            <DangerActions
              label="Remove member"
              busyLabel="Removing…"
              busy={action.busy}
              onConfirm={() => void action.run(() => removeMember.mutateAsync(member.userId))}
              onCancel={() => setConfirmRemove(false)}
            />
          </div>
        ) : (
          <div className="form-actions-row member-actions">
            <label className="visually-hidden" htmlFor={selectId}>
              Role of {name}
            </label>
            <select id={selectId} className="input select select-small" value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {(grantable.includes(member.role) ? grantable : [member.role, ...grantable]).map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r)}
                </option>
              ))}
            </select>
            <Button
              variant="secondary"
              className="button-small"
              disabled={role === member.role}
              busy={action.busy}
              busyLabel="Saving…"
              onClick={() => void action.run(() => changeRole.mutateAsync({ userId: member.userId, role }))}
            >
              Change role<span className="visually-hidden"> of {name}</span>
            </Button>
            <Button variant="secondary" className="button-small" onClick={() => setConfirmRemove(true)}>
              Remove<span className="visually-hidden"> {name}</span>
            </Button>
          </div>
        ))}
    </>
  );
}

const INVITE_FIELDS = ["email", "role"] as const;
const INVITE_LABELS = { email: "E-mail address", role: "Role" };

function InviteForm({ workspaceId, roles }: { workspaceId: string; roles: readonly Role[] }) {
  const form = useForm(INVITE_FIELDS, INVITE_LABELS);
  const invite = useInvite(workspaceId);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("developer");
  const [sent, setSent] = useState<Invitation>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSent(undefined);
    void form.submit({ email: emailError(email) }, async () => {
      const invitation = await inTeamWords(invite.mutateAsync({ email: email.trim(), role }));
      setEmail("");
      setSent(invitation);
    });
  };
  const roleId = fieldId("role");
  return (
    <FormScaffold
      form={form}
      labels={INVITE_LABELS}
      onSubmit={onSubmit}
      notice={sent && <InvitationMailNotice invitation={sent} />}
      submit={{ label: "Send invitation", busyLabel: "Sending…" }}
    >
      <EmailField label={INVITE_LABELS.email} autoComplete="off" {...form.bind("email", email, setEmail)} />
      <div className={`field${form.fieldErrors.role ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={roleId}>
          {INVITE_LABELS.role}
        </label>
        <p className="field-hint" id={`${roleId}-hint`}>
          {roleAbilities(role)}
        </p>
        <select id={roleId} name="role" className="input select" value={role} aria-describedby={`${roleId}-hint`} onChange={(e) => setRole(e.target.value as Role)}>
          {roles.map((r) => (
            <option key={r} value={r}>
              {roleLabel(r)}
            </option>
          ))}
        </select>
        {form.fieldErrors.role && (
          <p id={`${roleId}-error`} className="field-error">
            {form.fieldErrors.role}
          </p>
        )}
      </div>
    </FormScaffold>
  );
}

/** What became of the invitation's mail: the invitation stands either way. */
function InvitationMailNotice({ invitation }: { invitation: Invitation }) {
  if (invitation.mail === "failed") {
    return (
      <Notice kind="info" title={`Invitation to ${invitation.email} created, but the mail could not be sent.`}>
        Re-send it under “Pending invitations” in a moment.
      </Notice>
    );
  }
  if (invitation.mail === "suppressed") {
    return (
      <Notice kind="info" title={`Invitation to ${invitation.email} created, but no mail was sent.`}>
        Mail to this address bounced or was reported as spam before, so Hangar sends it none. Check the address.
      </Notice>
    );
  }
  return <Notice title={`Invitation sent to ${invitation.email}.`}>It is listed under “Pending invitations” until it is accepted.</Notice>;
}

function PendingInvitations({ workspaceId }: { workspaceId: string }) {
  const invitations = useQuery(invitationsQuery(workspaceId));
  return (
    <section aria-labelledby="invitations-heading" className="section">
      <div className="section-header">
        <h2 id="invitations-heading" className="section-title">
          Pending invitations
        </h2>
        {invitations.data && <span className="section-count">{invitations.data.length}</span>}
      </div>
      <ResourceList
        query={invitations}
        label="the invitations"
        items={(items) => items}
        empty={
          <EmptyState title="No pending invitations" headingLevel={3}>
            <p>Invitations you send wait here until they are accepted, revoked or expire.</p>
          </EmptyState>
        }
      >
        {(items) => (
          <ItemList items={items} itemKey={(i) => i.invitationId} className="key-list" itemClassName="key-row" testId="invitations">
            {(invitation) => <InvitationRow workspaceId={workspaceId} invitation={invitation} />}
          </ItemList>
        )}
      </ResourceList>
    </section>
  );
}

function InvitationRow({ workspaceId, invitation }: { workspaceId: string; invitation: Invitation }) {
  const revoke = useRevokeInvitation(workspaceId);
  const resend = useResendInvitation(workspaceId);
  const action = useRowAction();
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const [resent, setResent] = useState<Invitation["mail"]>();
  return (
    <>
      <div className="key-head">
        <h3 className="key-name break-anywhere">{invitation.email}</h3>
        <RoleBadge role={invitation.role} />
      </div>
      <dl className="key-facts">
        <div>
          <dt>Invited by</dt>
          <dd className="break-anywhere">{invitation.invitedBy.email ?? "a former member"}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>{formatDateTime(invitation.createdAt)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{formatDateTime(invitation.expiresAt)}</dd>
        </div>
      </dl>
      {action.error && <ErrorSummary message={action.error} />}
      {resent === "sent" && <Notice title="Sent again.">A new link is on its way; the earlier one no longer works.</Notice>}
      {resent === "failed" && <Notice kind="info" title="A new link was made, but the mail could not be sent.">Try re-sending in a moment; the earlier link no longer works.</Notice>}
      {resent === "suppressed" && <Notice kind="info" title="A new link was made, but no mail was sent.">Mail to this address bounced or was reported as spam before. Check the address.</Notice>}
      {confirmRevoke ? (
        <div className="confirm" role="group" aria-label={`Confirm revoking the invitation of ${invitation.email}`}>
          <p>Revoke the invitation of {invitation.email}? Its link stops working at once.</p>
          <DangerActions label="Revoke invitation" busyLabel="Revoking…" busy={action.busy} onConfirm={() => void action.run(() => revoke.mutateAsync(invitation.invitationId))} onCancel={() => setConfirmRevoke(false)} />
        </div>
      ) : (
        <div className="form-actions-row">
          <Button
            variant="secondary"
            className="button-small"
            busy={action.busy}
            busyLabel="Sending…"
            onClick={() => {
              setResent(undefined);
              void action.run(async () => setResent((await resend.mutateAsync(invitation.invitationId)).mail ?? "sent"));
            }}
          >
            Re-send<span className="visually-hidden"> the invitation of {invitation.email}</span>
          </Button>
          <Button variant="secondary" className="button-small" onClick={() => setConfirmRevoke(true)}>
            Revoke<span className="visually-hidden"> the invitation of {invitation.email}</span>
          </Button>
        </div>
      )}
    </>
  );
}

function TransferOwnership({ workspace, members }: { workspace: Workspace; members: readonly Member[] }) {
  const transfer = useTransferOwnership(workspace.workspaceId);
  const action = useRowAction();
  const [userId, setUserId] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const target = members.find((m) => m.userId === userId);
  const selectId = fieldId("transfer-to");
  return (
    <Card title="Transfer ownership" id="transfer" description="The member you choose becomes an owner and you become an admin, in one step.">
      {action.error && <ErrorSummary message={action.error} />}
      {done && <Notice title="Ownership transferred.">You are now an admin of this workspace.</Notice>}
      {confirming && target ? (
        <div className="confirm" role="group" aria-label="Confirm transfer">
          <p>
            Make {memberName(target)} an owner of “{workspace.name}”? You become an admin and can no longer delete the workspace or manage owners.
          </p>
          <DangerActions
            label="Transfer ownership"
            busyLabel="Transferring…"
            busy={action.busy}
            onConfirm={() => void action.run(() => transfer.mutateAsync(target.userId), () => setDone(true))}
            onCancel={() => setConfirming(false)}
          />
        </div>
      ) : (
        <div className="form-actions-row">
          <label className="visually-hidden" htmlFor={selectId}>
            New owner
          </label>
          <select id={selectId} className="input select select-small" value={userId} onChange={(e) => setUserId(e.target.value)}>
            <option value="">Choose a member</option>
            {members.map((m) => (
              <option key={m.userId} value={m.userId}>
                {memberLabel(m)}
              </option>
            ))}
          </select>
          <Button variant="secondary" disabled={!target} onClick={() => setConfirming(true)}>
            Transfer ownership…
          </Button>
        </div>
      )}
    </Card>
  );
}

function LeaveWorkspace({ workspace }: { workspace: Workspace }) {
  const account = useAccount();
  const navigate = useNavigate();
  const leave = useRemoveMember(workspace.workspaceId);
  const action = useRowAction();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card title="Leave workspace" id="leave" description="You lose access to its projects, builds and keys at once; the keys you created keep working for the team.">
      {action.error && <ErrorSummary message={action.error} />}
      {confirming ? (
        <div className="confirm" role="group" aria-label="Confirm leaving">
          <p>Leave “{workspace.name}”? To come back, someone has to invite you again.</p>
          <DangerActions
            label="Leave workspace"
            busyLabel="Leaving…"
            busy={action.busy}
            // Leaving is removing one's own membership; afterwards the list no longer has the
            // workspace, and the dashboard falls back to the personal one.
            onConfirm={() => void action.run(() => leave.mutateAsync(account.userId), () => navigate("/dashboard", { replace: true }))}
            onCancel={() => setConfirming(false)}
          />
        </div>
      ) : (
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Leave workspace…
        </Button>
      )}
    </Card>
  );
}
