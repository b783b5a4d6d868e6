import { MAX_LINK_PASSWORD, ShareSettings } from "@hangar/core/link-schema";
import { useState, type FormEvent } from "react";
import { describeError } from "../api/api-client";
import type { FileDetail, ShareLinkView, ShareSettingsInput } from "../api/dashboard.api";
import { useRegenerateShare, useUpdateShare } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { ErrorSummary, Notice } from "./alerts";
import { Button, DangerActions } from "./button";
import { CopyField } from "./data";
import { DailyBarChart } from "./daily-chart";
import { Disclosure } from "./disclosure";
import { fieldId, PasswordField, TextField } from "./field";
import { FormScaffold } from "./form-scaffold";
import { Card } from "./layouts";
import { schemaErrors, useForm } from "./use-form";
import "../styles/share-settings.css";

const FIELDS = ["enabled", "expiresAt", "password", "maxDownloads"] as const;
const LABELS = { enabled: "Link enabled", expiresAt: "Expires", password: "Password", maxDownloads: "Download limit" };

const STATE: Record<ShareLinkView["state"], { label: string; badge: string; help: string }> = {
  open: { label: "Active", badge: "badge-success", help: "Testers with the link can open it and install." },
  disabled: { label: "Disabled", badge: "badge-muted", help: "The link answers that it is turned off; nothing can be downloaded." },
  expired: { label: "Expired", badge: "badge-danger", help: "The expiry has passed; change or clear it to open the link again." },
  capped: { label: "Limit reached", badge: "badge-danger", help: "The download limit is reached; raise or clear it to open the link again." },
};

const pad = (n: number) => String(n).padStart(2, "0");

/** A limit the browser read as no number (`1e`, `abc`) or one out of range: one sentence for both. */
const maxDownloadsMessage = () => "Enter a whole number from 1 to 1,000,000, or leave it empty for no limit.";

/** One-click expiries, counted from the moment the button is pressed. */
const EXPIRY_PRESETS = [1, 7, 30] as const;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** An ISO instant as a `datetime-local` value in the browser's zone (the input has no zone). */
function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The share link's state, counts and owner controls (issue 11 items 5 and 6). A save or a new
 * link goes into the file's cache entry, which redraws this card with the server's values. The
 * controls are offered only to roles that may change links (`canManage`); others see the link.
 */
export function ShareLinkSettings({ file, share, canManage }: { file: FileDetail; share: ShareLinkView; canManage: boolean }) {
  const state = STATE[share.state];
  // Kept here: the form below starts afresh after each save, and the confirmation must outlive it.
  const [saved, setSaved] = useState(false);
  return (
    <Card title="Sharing" id="share-link" description="Who can open the link testers install from, until when, and how often.">
      <div className="share-status">
        <span className={`badge ${state.badge}`} data-testid="share-state">
          {state.label}
        </span>
        {share.hasPassword && <span className="badge badge-accent">Protected</span>}
        <span className="muted">{share.state === "open" && share.hasPassword ? "Testers with the link and the password can open it and install." : state.help}</span>
      </div>
      <dl className="stat-grid share-stats">
        <div className="stat">
          <dt>Downloads</dt>
          <dd data-testid="share-downloads">
            {share.downloads}
            {share.maxDownloads !== null && <span className="stat-of"> of {share.maxDownloads}</span>}
          </dd>
        </div>
        <div className="stat">
          <dt>iOS install requests</dt>
          <dd data-testid="share-installs">{share.installs}</dd>
        </div>
        <div className="stat">
          <dt>Expires</dt>
          <dd className="stat-text">{share.expiresAt ? formatDateTime(share.expiresAt) : "Never"}</dd>
        </div>
      </dl>
      <Disclosure summary={<h3 className="subheading">Per day, last 30 days (UTC)</h3>}>
        <DailyBarChart
          days={share.daily}
          stacked={false}
          testId="share-chart"
          caption="Downloads and iOS install requests per day, last 30 days"
          series={[
            { value: (d) => d.downloads, label: "Downloads", className: "chart-downloads", data: "downloads" },
            { value: (d) => d.installs, label: "iOS install requests", className: "chart-installs", data: "installs" },
          ]}
          columns={[
            { label: "Downloads", cell: (d) => d.downloads },
            { label: "iOS install requests", cell: (d) => d.installs },
          ]}
        />
      </Disclosure>
      <CopyField id="share-url" label="Share link" value={share.shareUrl} />
      {/* Keyed by the link: after a save or a regenerate the form starts again from the server's values. */}
      {saved && <Notice title="Link settings saved." />}
      {canManage && (
        <Disclosure summary={<h3 className="subheading">Link settings</h3>}>
          <SettingsForm
            key={`${share.userKey}:${share.enabled}:${share.expiresAt}:${share.hasPassword}:${share.maxDownloads}`}
            file={file}
            share={share}
            onSubmitting={() => setSaved(false)}
            onSaved={() => setSaved(true)}
          />
          <Regenerate file={file} />
        </Disclosure>
      )}
    </Card>
  );
}

function SettingsForm({ file, share, onSubmitting, onSaved }: { file: FileDetail; share: ShareLinkView; onSubmitting(): void; onSaved(): void }) {
  const form = useForm(FIELDS, LABELS);
  const update = useUpdateShare(file.fileId);
  const [enabled, setEnabled] = useState(share.enabled);
  const [expiresAt, setExpiresAt] = useState(toLocalInput(share.expiresAt));
  const [password, setPassword] = useState("");
  const [removePassword, setRemovePassword] = useState(false);
  const [maxDownloads, setMaxDownloads] = useState(share.maxDownloads === null ? "" : String(share.maxDownloads));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmitting();
    const expiry = expiresAt ? new Date(expiresAt) : null;
    const validExpiry = expiry && !Number.isNaN(expiry.getTime()) ? expiry : null;
    const cap = maxDownloads.trim();
    const capNumber = cap === "" ? null : Number(cap);
    // Only what changed is sent: an untouched field keeps whatever the server has.
    const input: ShareSettingsInput = {};
    if (enabled !== share.enabled) input.enabled = enabled;
    if (expiresAt !== toLocalInput(share.expiresAt)) input.expiresAt = validExpiry ? validExpiry.toISOString() : null;
    if (password) input.password = password;
    else if (removePassword) input.password = null;
    if (capNumber !== share.maxDownloads) input.maxDownloads = capNumber;
    // The API's own rules (ShareSettings), and two only a form has: a value the browser could not
    // read as a date, and a new expiry already past (an unchanged one that has since passed is
    // what the link shows as expired).
    const clientErrors = {
      ...schemaErrors(ShareSettings, input, LABELS, { maxDownloads: maxDownloadsMessage }),
      ...(expiry && !validExpiry ? { expiresAt: "Enter a date and time." } : {}),
      ...(validExpiry && input.expiresAt !== undefined && validExpiry.getTime() <= Date.now()
        ? { expiresAt: "Choose a time in the future, or turn the link off to stop it now." }
        : {}),
    };
    void form.submit(clientErrors, async () => {
      if (Object.keys(input).length) await update.mutateAsync(input);
      onSaved();
    });
  };

  return (
    <FormScaffold
      form={form}
      labels={LABELS}
      onSubmit={onSubmit}
      className="share-form"
      aria-label="Share link settings"
      submit={{ label: "Save link settings", busyLabel: "Saving…" }}
    >
      <div className={`field${form.fieldErrors.enabled ? " field-invalid" : ""}`}>
        <label className="switch" htmlFor={fieldId("enabled")}>
          <input
            id={fieldId("enabled")}
            name="enabled"
            type="checkbox"
            role="switch"
            className="switch-input"
            checked={enabled}
            aria-describedby={`${fieldId("enabled")}-hint`}
            onChange={(e) => {
              setEnabled(e.target.checked);
              form.clearFieldError("enabled");
            }}
          />
          <span className="switch-track" aria-hidden="true" />
          <span className="field-label">{LABELS.enabled}</span>
        </label>
        <div id={`${fieldId("enabled")}-hint`} className="field-hint">
          Turned off, the link answers that it is disabled and nothing can be downloaded. Turn it on again at any time.
        </div>
        {form.fieldErrors.enabled && <p className="field-error">{form.fieldErrors.enabled}</p>}
      </div>
      <div className="share-expiry">
        <TextField
          name="expiresAt"
          label={LABELS.expiresAt}
          type="datetime-local"
          optional
          value={expiresAt}
          hint="Your local time. Empty: the link never expires."
          onValueChange={(v) => {
            setExpiresAt(v);
            form.clearFieldError("expiresAt");
          }}
          error={form.fieldErrors.expiresAt}
        />
        {expiresAt && (
          <Button variant="secondary" className="button-small" onClick={() => setExpiresAt("")}>
            Clear expiry
          </Button>
        )}
      </div>
      <div className="expiry-presets" role="group" aria-labelledby="expiry-presets-label">
        <span id="expiry-presets-label" className="field-hint">
          Expire in
        </span>
        {EXPIRY_PRESETS.map((days) => (
          <Button
            key={days}
            variant="secondary"
            className="button-small"
            onClick={() => {
              setExpiresAt(toLocalInput(inDays(days)));
              form.clearFieldError("expiresAt");
            }}
          >
            {days === 1 ? "1 day" : `${days} days`}
          </Button>
        ))}
      </div>
      <PasswordField
        name="password"
        label={share.hasPassword ? "New password" : LABELS.password}
        optional
        autoComplete="new-password"
        value={password}
        maxLength={MAX_LINK_PASSWORD}
        disabled={removePassword}
        hint={
          share.hasPassword
            ? "The link is protected. Type a new password to change it; the current one is never shown. Testers already let in must enter the new one."
            : "Testers must type it before they see the build. At least 4 characters; share it by other means than the link."
        }
        onValueChange={(v) => {
          setPassword(v);
          form.clearFieldError("password");
        }}
        error={form.fieldErrors.password}
      />
      {share.hasPassword && (
        <label className="checkbox" htmlFor="share-remove-password">
          <input
            id="share-remove-password"
            type="checkbox"
            checked={removePassword}
            onChange={(e) => {
              setRemovePassword(e.target.checked);
              if (e.target.checked) setPassword("");
            }}
          />
          <span>Remove the password</span>
        </label>
      )}
      <TextField
        name="maxDownloads"
        label={LABELS.maxDownloads}
        type="number"
        inputMode="numeric"
        min={1}
        max={1_000_000}
        step={1}
        optional
        value={maxDownloads}
        hint={`After this many downloads the link says the limit is reached (${share.downloads} so far). Empty: no limit.`}
        onValueChange={(v) => {
          setMaxDownloads(v);
          form.clearFieldError("maxDownloads");
        }}
        error={form.fieldErrors.maxDownloads}
      />
    </FormScaffold>
  );
}

function Regenerate({ file }: { file: FileDetail }) {
  const regenerateShare = useRegenerateShare(file.fileId);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const regenerate = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await regenerateShare.mutateAsync();
      setConfirming(false);
      setDone(true);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="share-regenerate">
      <h3 className="subheading">New link</h3>
      {error && <ErrorSummary message={error} />}
      {done && <Notice title="New link created.">The old link no longer works; send the new one above to your testers.</Notice>}
      {confirming ? (
        <div className="confirm" role="group" aria-label="Confirm new link">
          <p>Create a new link? The current link stops working at once, for everyone who has it.</p>
          <DangerActions label="Create new link" busyLabel="Creating…" busy={busy} onConfirm={() => void regenerate()} onCancel={() => setConfirming(false)} />
        </div>
      ) : (
        <Button
          variant="secondary"
          onClick={() => {
            setDone(false);
            setConfirming(true);
          }}
        >
          Regenerate link…
        </Button>
      )}
    </div>
  );
}
