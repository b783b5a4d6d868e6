import { ChangePassword } from "@hangar/core/account-input-schema";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { sessionsQuery, useChangePassword, useEndSession } from "../api/account.queries";
import { dashboardApi } from "../api/dashboard.api";
import { describeError } from "../api/api-client";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { ItemList, ResourceList } from "../components/data";
import { newPasswordMessage, PASSWORD_RULES, PasswordField } from "../components/field";
import { FormScaffold } from "../components/form-scaffold";
import { AppShell, Card } from "../components/layouts";
import { ProfileForm } from "../components/profile-form";
import { schemaErrors, useForm, whenEmpty } from "../components/use-form";
import { describeDevice, formatDateTime, formatRelative } from "../app/format";
import { useAccount, useSession } from "../app/session";

export function AccountPage() {
  const account = useAccount();
  const { signOut } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <AppShell title="Account" description="Your profile, password and the devices signed in to Hangar.">
      <div className="stack">
        <Card title="Profile" id="profile">
          <dl className="facts">
            <div>
              <dt>E-mail address</dt>
              <dd className="break-anywhere">{account.email}</dd>
            </div>
            <div>
              <dt>Member since</dt>
              <dd>{formatDateTime(account.createdAt, { dateOnly: true })}</dd>
            </div>
          </dl>
          {account.mailSuppressed && <MailSuppressedNotice {...account.mailSuppressed} />}
          <ProfileForm account={account} submitLabel="Save profile" />
        </Card>
        <Card title="Password" id="password" description="Changing it signs out every other device.">
          <ChangePasswordForm />
        </Card>
        <SessionsCard />
        <Card title="Sign out" id="sign-out" description="Sign out of Hangar in this browser.">
          <Button
            variant="secondary"
            busy={signingOut}
            busyLabel="Signing out…"
            onClick={() => {
              setSigningOut(true);
              void signOut();
            }}
          >
            Sign out
          </Button>
        </Card>
        <DeleteAccountCard />
      </div>
    </AppShell>
  );
}

/**
 * Hangar cannot change an account's address, so the way out is named: fix the mailbox and ask
 * the operator to lift the block (docs/accounts.md), or use another address.
 */
function MailSuppressedNotice({ reason, since }: { reason: "bounce" | "complaint"; since: string }) {
  const what = reason === "bounce" ? "bounced" : "was reported as spam";
  return (
    <Notice kind="info" title="We stopped sending mail to this address">
      Mail to this address {what} on {formatDateTime(since, { dateOnly: true })}: we stopped sending, password-reset mail included. Fix the
      address (the mailbox must exist and accept our mail), then ask whoever runs this Hangar to lift the block; or contact them to move
      your projects to an account with another address.
    </Notice>
  );
}

const PASSWORD_FIELDS = ["currentPassword", "newPassword"] as const;
const PASSWORD_LABELS = { currentPassword: "Current password", newPassword: "New password" };
const PASSWORD_MESSAGES = { currentPassword: whenEmpty("Enter your current password."), newPassword: newPasswordMessage };

/** Changing the password signs out every other device; the session list below refreshes itself. */
function ChangePasswordForm() {
  const { email } = useAccount();
  const form = useForm(PASSWORD_FIELDS, PASSWORD_LABELS);
  const change = useChangePassword();
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const [done, setDone] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const input = { currentPassword, newPassword };
    const clientErrors = schemaErrors(ChangePassword, input, PASSWORD_LABELS, PASSWORD_MESSAGES);
    if (!clientErrors.newPassword && newPassword === currentPassword) clientErrors.newPassword = "Choose a password different from the current one.";
    void form.submit(clientErrors, async () => {
      await change.mutateAsync(input);
      setCurrent("");
      setNew("");
      setDone(true);
    });
  };

  return (
    <FormScaffold
      form={form}
      labels={PASSWORD_LABELS}
      onSubmit={onSubmit}
      notice={done && <Notice>Password changed. Every other device was signed out.</Notice>}
      submit={{ label: "Change password", busyLabel: "Changing password…" }}
    >
      {/* Lets password managers pair the new password with the account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordField
        name="currentPassword"
        label={PASSWORD_LABELS.currentPassword}
        autoComplete="current-password"
        {...form.bind("currentPassword", currentPassword, setCurrent)}
      />
      <PasswordField
        name="newPassword"
        label={PASSWORD_LABELS.newPassword}
        autoComplete="new-password"
        hint={PASSWORD_RULES}
        {...form.bind("newPassword", newPassword, setNew)}
      />
    </FormScaffold>
  );
}

function SessionsCard() {
  const sessions = useQuery(sessionsQuery());
  const end = useEndSession();
  const [ending, setEnding] = useState<string | "others">();
  const [message, setMessage] = useState<{ kind: "success" | "error"; text: string }>();

  const signOutDevice = async (target: string | "others") => {
    setEnding(target);
    setMessage(undefined);
    try {
      // Settles once the list is asked for again (the mutation invalidates it).
      await end.mutateAsync(target);
      setMessage({ kind: "success", text: target === "others" ? "Every other device was signed out." : "That device was signed out." });
    } catch (error) {
      setMessage({ kind: "error", text: describeError(error) });
    } finally {
      setEnding(undefined);
    }
  };

  return (
    <Card title="Sessions" id="sessions" description="Devices and browsers signed in to your account.">
      {message?.kind === "error" ? <ErrorSummary message={message.text} /> : message && <Notice>{message.text}</Notice>}
      <ResourceList
        query={sessions}
        label="sessions"
        items={(items) => items}
        empty={<p className="muted">No device is signed in.</p>}
        footer={(items) => {
          const others = items.filter((s) => !s.current).length;
          return (
            <div className="card-footer">
              <p className="muted">{others === 0 ? "No other device is signed in." : `${others} other ${others === 1 ? "device is" : "devices are"} signed in.`}</p>
              <Button variant="danger" busy={ending === "others"} busyLabel="Signing out…" disabled={others === 0 || ending !== undefined} onClick={() => void signOutDevice("others")}>
                Sign out everywhere else
              </Button>
            </div>
          );
        }}
      >
        {(items) => (
          <ItemList items={items} itemKey={(session) => session.sessionId} className="session-list" itemClassName="session">
            {(session) => (
              <>
                <div className="session-icon" aria-hidden="true">
                  <svg viewBox="0 0 20 20" focusable="false">
                    <path d="M3 5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2h-4v1.5h2a.75.75 0 0 1 0 1.5H7a.75.75 0 0 1 0-1.5h2V14H5a2 2 0 0 1-2-2V5Z" />
                  </svg>
                </div>
                <div className="session-text">
                  <p className="session-device">
                    {describeDevice(session.userAgent)}
                    {session.current && <span className="badge badge-accent">This device</span>}
                  </p>
                  <p className="session-meta">
                    {session.ip ? `${session.ip} · ` : ""}
                    Active {formatRelative(session.lastSeenAt)} · Signed in {formatDateTime(session.createdAt)}
                  </p>
                </div>
                {!session.current && (
                  <Button
                    variant="secondary"
                    className="button-small"
                    busy={ending === session.sessionId}
                    busyLabel="Signing out…"
                    disabled={ending !== undefined}
                    aria-label={`Sign out ${describeDevice(session.userAgent)}, active ${formatRelative(session.lastSeenAt)}`}
                    onClick={() => void signOutDevice(session.sessionId)}
                  >
                    Sign out
                  </Button>
                )}
              </>
            )}
          </ItemList>
        )}
      </ResourceList>
    </Card>
  );
}

const DELETE_FIELDS = ["password"] as const;
const DELETE_LABELS = { password: "Password" };

/** Deletes the account with its projects, keys and builds; the password proves it is the owner. */
function DeleteAccountCard() {
  const { email } = useAccount();
  const { refresh } = useSession();
  const form = useForm(DELETE_FIELDS, DELETE_LABELS);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [deleting, setDeleting] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit({ password: password ? undefined : "Enter your password." }, async () => {
      const { status } = await dashboardApi.deleteAccount(password);
      setPassword("");
      if (status === "deleting") setDeleting(true);
      // The session is gone either way; refreshing sends the app to the sign-in page.
      await refresh();
    });
  };

  return (
    <Card title="Delete account" id="delete-account" description="Deletes your account, your personal workspace with every project, API key and build in it, and the workspaces you alone own, and signs you out everywhere. Workspaces with other owners keep their projects, builds and keys. This cannot be undone.">
      {deleting && <Notice kind="info">Your account is being deleted; the rest finishes in the background.</Notice>}
      {open ? (
        <FormScaffold
          form={form}
          labels={DELETE_LABELS}
          onSubmit={onSubmit}
          actions={<DangerActions label="Delete my account" busyLabel="Deleting account…" busy={form.busy} onCancel={() => setOpen(false)} />}
        >
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <PasswordField
            name="password"
            label="Your password"
            autoComplete="current-password"
            {...form.bind("password", password, setPassword)}
          />
        </FormScaffold>
      ) : (
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete account…
        </Button>
      )}
    </Card>
  );
}
