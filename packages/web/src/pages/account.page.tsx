import { useCallback, useEffect, useState, type FormEvent } from "react";
import { accountApi, type SessionInfo } from "../api/account.api";
import { dashboardApi } from "../api/dashboard.api";
import { describeError } from "../api/api-client";
import { ErrorSummary, Notice } from "../components/alerts";
import { Button, DangerActions } from "../components/button";
import { PASSWORD_RULES, passwordLengthError, PasswordField } from "../components/field";
import { AppShell, Card } from "../components/layouts";
import { ProfileForm } from "../components/profile-form";
import { useForm } from "../components/use-form";
import { describeDevice, formatDateTime, formatRelative } from "../app/format";
import { useAccount, useSession } from "../app/session";

export function AccountPage() {
  const account = useAccount();
  const { setAccount, signOut } = useSession();
  const [sessionsVersion, setSessionsVersion] = useState(0);
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
          <ProfileForm account={account} submitLabel="Save profile" onSaved={setAccount} />
        </Card>
        <Card title="Password" id="password" description="Changing it signs out every other device.">
          <ChangePasswordForm onChanged={() => setSessionsVersion((v) => v + 1)} />
        </Card>
        <SessionsCard version={sessionsVersion} />
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

function ChangePasswordForm({ onChanged }: { onChanged(): void }) {
  const { email } = useAccount();
  const form = useForm(PASSWORD_FIELDS, PASSWORD_LABELS);
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const [done, setDone] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const clientErrors = {
      currentPassword: currentPassword ? undefined : "Enter your current password.",
      newPassword: passwordLengthError(newPassword) ?? (newPassword === currentPassword ? "Choose a password different from the current one." : undefined),
    };
    void form.submit(clientErrors, async () => {
      await accountApi.changePassword(currentPassword, newPassword);
      setCurrent("");
      setNew("");
      setDone(true);
      onChanged();
    });
  };

  return (
    <>
      <ErrorSummary message={form.formError} fieldErrors={form.fieldErrors} labels={PASSWORD_LABELS} summaryRef={form.summaryRef} />
      {done && <Notice>Password changed. Every other device was signed out.</Notice>}
      <form className="form" noValidate onSubmit={onSubmit}>
        {/* Lets password managers pair the new password with the account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          name="currentPassword"
          label={PASSWORD_LABELS.currentPassword}
          autoComplete="current-password"
          value={currentPassword}
          onValueChange={(v) => {
            setCurrent(v);
            form.clearFieldError("currentPassword");
          }}
          error={form.fieldErrors.currentPassword}
        />
        <PasswordField
          name="newPassword"
          label={PASSWORD_LABELS.newPassword}
          autoComplete="new-password"
          hint={PASSWORD_RULES}
          value={newPassword}
          onValueChange={(v) => {
            setNew(v);
            form.clearFieldError("newPassword");
          }}
          error={form.fieldErrors.newPassword}
        />
        <div className="form-actions">
          <Button type="submit" busy={form.busy} busyLabel="Changing password…">
            Change password
          </Button>
        </div>
      </form>
    </>
  );
}

type Load = { status: "loading" } | { status: "failed"; error: string } | { status: "loaded"; items: SessionInfo[] };

function SessionsCard({ version }: { version: number }) {
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [ending, setEnding] = useState<string | "others">();
  const [message, setMessage] = useState<{ kind: "success" | "error"; text: string }>();

  const reload = useCallback(async () => {
    try {
      const { items } = await accountApi.sessions();
      // This device first, then the most recently active.
      items.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
      setLoad({ status: "loaded", items });
    } catch (error) {
      setLoad({ status: "failed", error: describeError(error) });
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload, version]);

  const end = async (target: string | "others") => {
    setEnding(target);
    setMessage(undefined);
    try {
      if (target === "others") await accountApi.endOtherSessions();
      else await accountApi.endSession(target);
      setMessage({ kind: "success", text: target === "others" ? "Every other device was signed out." : "That device was signed out." });
      await reload();
    } catch (error) {
      setMessage({ kind: "error", text: describeError(error) });
    } finally {
      setEnding(undefined);
    }
  };

  const others = load.status === "loaded" ? load.items.filter((s) => !s.current).length : 0;

  return (
    <Card title="Sessions" id="sessions" description="Devices and browsers signed in to your account.">
      {message?.kind === "error" ? <ErrorSummary message={message.text} /> : message && <Notice>{message.text}</Notice>}
      {load.status === "loading" && (
        <p className="muted loading-line" role="status">
          <span className="spinner spinner-dark" aria-hidden="true" />
          Loading sessions…
        </p>
      )}
      {load.status === "failed" && (
        <ErrorSummary message={load.error}>
          <Button variant="secondary" className="button-small" onClick={() => void reload()}>
            Try again
          </Button>
        </ErrorSummary>
      )}
      {load.status === "loaded" && (
        <>
          <ul className="session-list">
            {load.items.map((session) => (
              <li key={session.sessionId} className="session">
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
                    onClick={() => void end(session.sessionId)}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <div className="card-footer">
            <p className="muted">{others === 0 ? "No other device is signed in." : `${others} other ${others === 1 ? "device is" : "devices are"} signed in.`}</p>
            <Button variant="danger" busy={ending === "others"} busyLabel="Signing out…" disabled={others === 0 || ending !== undefined} onClick={() => void end("others")}>
              Sign out everywhere else
            </Button>
          </div>
        </>
      )}
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
    <Card title="Delete account" id="delete-account" description="Deletes your account, every project, API key and build in it, and signs you out everywhere. This cannot be undone.">
      {deleting && <Notice kind="info">Your account is being deleted; the rest finishes in the background.</Notice>}
      {open ? (
        <>
          <ErrorSummary message={form.formError} fieldErrors={form.fieldErrors} labels={DELETE_LABELS} summaryRef={form.summaryRef} />
          <form className="form" noValidate onSubmit={onSubmit}>
            <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
            <PasswordField
              name="password"
              label="Your password"
              autoComplete="current-password"
              value={password}
              onValueChange={(v) => {
                setPassword(v);
                form.clearFieldError("password");
              }}
              error={form.fieldErrors.password}
            />
            <DangerActions label="Delete my account" busyLabel="Deleting account…" busy={form.busy} onCancel={() => setOpen(false)} />
          </form>
        </>
      ) : (
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete account…
        </Button>
      )}
    </Card>
  );
}
