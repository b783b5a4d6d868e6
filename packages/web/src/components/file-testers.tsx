import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { FileDetail } from "../api/dashboard.api";
import type { DistributeAnswer, Distribution, DistributionsAnswer, FileInstall } from "../api/testers.api";
import { distributionsQuery, fileInstallsQuery, groupsQuery, useDistribute } from "../api/testers.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { inTesterWords, MAX_ADDRESSES, parseAddresses, RECIPIENT_STATUS } from "../app/testers";
import { Notice } from "./alerts";
import { Button } from "./button";
import { Loaded } from "./data";
import { Dialog } from "./dialog";
import { Disclosure } from "./disclosure";
import { InstallTable } from "./install-table";
import { fieldId } from "./field";
import { FormScaffold } from "./form-scaffold";
import { Card } from "./layouts";
import { useForm } from "./use-form";
import "../styles/testers.css";

/**
 * A build's testers (issue 20): who it was sent to (each distribution, and each recipient with
 * what became of their mail), who installed it through their personal link or the portal, and
 * for `builds.distribute` the "Send to testers" dialog.
 */
export function FileTesters({ file, workspaceId, canDistribute }: { file: FileDetail; workspaceId: string; canDistribute: boolean }) {
  const distributions = useQuery(distributionsQuery(file.fileId));
  const installs = useQuery(fileInstallsQuery(file.fileId));
  const [open, setOpen] = useState(false);
  const sendable = file.status === "completed";
  return (
    <Card title="Testers" id="testers" description="Who this build was sent to, what became of each mail, and who installed it through their personal link.">
      <div className="stack-tight">
        {canDistribute && sendable && (
          <div>
            <Button onClick={() => setOpen(true)}>Send to testers…</Button>
          </div>
        )}
        <Dialog
          id="distribute"
          open={open}
          onClose={() => setOpen(false)}
          title="Send to testers"
          description="Each tester gets one mail per build with their personal install link; anyone who had this build already gets no second mail."
        >
          <DistributeForm file={file} workspaceId={workspaceId} onClose={() => setOpen(false)} />
        </Dialog>
        <h3 className="subheading">Sent to</h3>
        <Loaded query={distributions} label="who this build was sent to">
          {(answer) => <Recipients answer={answer} workspaceId={workspaceId} canDistribute={canDistribute && sendable} />}
        </Loaded>
        <Disclosure summary={<h3 className="subheading">Installs</h3>}>
          <Loaded query={installs} label="the installs">
            {(items) => <Installs items={items} workspaceId={workspaceId} />}
          </Loaded>
        </Disclosure>
      </div>
    </Card>
  );
}

function Recipients({ answer, workspaceId, canDistribute }: { answer: DistributionsAnswer; workspaceId: string; canDistribute: boolean }) {
  if (answer.items.length === 0) {
    return (
      <p className="muted" data-testid="no-distributions">
        {canDistribute
          ? "Not sent to any tester yet. Send it to a group above, or name default groups in the project’s settings so every upload goes out on its own."
          : "Not sent to any tester yet."}
      </p>
    );
  }
  return (
    <>
      <ul className="plain-list distribution-list" data-testid="distributions">
        {answer.items.map((d) => (
          <li key={d.distributionId}>
            <DistributionLine distribution={d} />
          </li>
        ))}
      </ul>
      <div className="table-panel">
        <table className="table" data-testid="recipients">
          <caption className="visually-hidden">Recipients and their mail</caption>
          <thead>
            <tr>
              <th scope="col">Tester</th>
              <th scope="col">Mail</th>
              <th scope="col">Sent</th>
            </tr>
          </thead>
          <tbody>
            {answer.recipients.map((r) => {
              const status = RECIPIENT_STATUS[r.status] ?? { label: r.status, badge: "badge-muted", hint: "" };
              return (
                <tr key={r.email}>
                  <th scope="row" className="break-anywhere">
                    <Link to={paths.tester(r.email, workspaceId)}>{r.email}</Link>
                  </th>
                  <td data-label="Mail">
                    <span className={`badge ${status.badge}`} title={status.hint}>
                      {status.label}
                    </span>
                    <span className="visually-hidden">: {status.hint}</span>
                  </td>
                  <td data-label="Sent">{r.sentAt ? formatDateTime(r.sentAt) : <span className="muted">—</span>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function DistributionLine({ distribution: d }: { distribution: Distribution }) {
  const by = "clientId" in d.createdBy ? `CI (key ${d.createdBy.clientId})` : (d.createdBy.email ?? "a workspace member");
  const to = [...d.groups.map((g) => `“${g.name}”`), ...(d.testers.length ? [`${d.testers.length} ${d.testers.length === 1 ? "address" : "addresses"}`] : [])].join(", ");
  return (
    <>
      <span>
        {formatDateTime(d.createdAt)}: <strong>{to || "nobody"}</strong> by <span className="break-anywhere">{by}</span> · {d.recipients} {d.recipients === 1 ? "recipient" : "recipients"}
        {!d.notify && " · without mail"}
      </span>
      {d.message && <q className="distribution-message">{d.message}</q>}
    </>
  );
}

function Installs({ items, workspaceId }: { items: readonly FileInstall[]; workspaceId: string }) {
  if (items.length === 0) {
    return (
      <p className="muted" data-testid="no-installs">
        Nobody installed it through a personal link yet. Downloads from the share link are counted above, without names.
      </p>
    );
  }
  return (
    <InstallTable
      items={items}
      itemKey={(i) => i.email}
      rowHeader={{ label: "Tester", className: "break-anywhere", cell: (i) => <Link to={paths.tester(i.email, workspaceId)}>{i.email}</Link> }}
      columns={[
        {
          label: "When",
          cell: (i) => (
            <>
              {formatDateTime(i.lastAt)}
              {i.firstAt !== i.lastAt && <span className="muted"> (first {formatDateTime(i.firstAt)})</span>}
            </>
          ),
        },
      ]}
      caption="Testers who installed this build"
      testId="file-installs"
    />
  );
}

const FIELDS = ["groups", "testers", "message"] as const;
const LABELS = { groups: "Groups", testers: "Other addresses", message: "Message to testers" };
const MAX_MESSAGE = 1000;

function DistributeForm({ file, workspaceId, onClose }: { file: FileDetail; workspaceId: string; onClose(): void }) {
  const groups = useQuery(groupsQuery(workspaceId));
  const distribute = useDistribute(file.fileId);
  const form = useForm(FIELDS, LABELS);
  const [chosen, setChosen] = useState<string[]>([]);
  const [testers, setTesters] = useState("");
  const [message, setMessage] = useState("");
  const [notify, setNotify] = useState(true);
  const [sent, setSent] = useState<DistributeAnswer>();
  const addresses = parseAddresses(testers);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      groups: chosen.length === 0 && addresses.length === 0 ? "Choose a group or enter an address." : undefined,
      testers: addresses.length > MAX_ADDRESSES ? `Enter at most ${MAX_ADDRESSES.toLocaleString("en-US")} addresses.` : undefined,
      message: message.length > MAX_MESSAGE ? `Use at most ${MAX_MESSAGE.toLocaleString("en-US")} characters (this one has ${message.length.toLocaleString("en-US")}).` : undefined,
    };
    void form.submit(errors, async () => {
      const input = {
        ...(chosen.length ? { groups: chosen } : {}),
        ...(addresses.length ? { testers: addresses } : {}),
        ...(message.trim() ? { message: message.trim() } : {}),
        notify,
      };
      setSent(await inTesterWords(distribute.mutateAsync(input)));
    });
  };
  if (sent) {
    const others = sent.recipients - sent.queued - sent.capped;
    return (
      <div className="stack-tight">
        <Notice title={`Sent to ${sent.recipients} ${sent.recipients === 1 ? "tester" : "testers"}.`}>
          <p data-testid="distribute-result">
            {notify
              ? `${sent.queued} new ${sent.queued === 1 ? "mail is" : "mails are"} on the way.${others > 0 ? ` ${others} got none: they had this build already, unsubscribed, or their address bounced before.` : ""}`
              : "No mail was sent: the build is in their tester portal."}{" "}
            {sent.capped > 0 && `${sent.capped} got no mail because the workspace reached its daily mail cap; the build is in their portal. `}
            Each tester’s mail status is listed under “Sent to”.
          </p>
        </Notice>
        <div className="form-actions">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    );
  }
  const groupsId = fieldId("groups");
  const testersId = fieldId("testers");
  const messageId = fieldId("message");
  return (
    <FormScaffold
      form={form}
      labels={LABELS}
      onSubmit={onSubmit}
      aria-label="Send to testers"
      submit={{ label: "Send", busyLabel: "Sending…" }}
      actions={
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      }
    >
      <fieldset className={`field fieldset${form.fieldErrors.groups ? " field-invalid" : ""}`} aria-describedby={form.fieldErrors.groups ? `${groupsId}-error` : undefined}>
        <legend className="field-label">{LABELS.groups}</legend>
        <Loaded query={groups} label="the groups">
          {(items) =>
            items.length === 0 ? (
              <p className="field-hint">
                This workspace has no tester groups yet: <Link to={paths.inWorkspace("/testers", workspaceId)}>create one on the Testers page</Link>, or enter addresses below.
              </p>
            ) : (
              <ul className="check-list" id={groupsId} tabIndex={-1}>
                {items.map((g) => (
                  <li key={g.groupId}>
                    <label className="checkbox">
                      <input
                        type="checkbox"
                        checked={chosen.includes(g.groupId)}
                        onChange={(e) => {
                          setChosen((current) => (e.target.checked ? [...current, g.groupId] : current.filter((c) => c !== g.groupId)));
                          form.clearFieldError("groups");
                        }}
                      />
                      <span>
                        {g.name} <span className="muted">({g.testerCount} {g.testerCount === 1 ? "tester" : "testers"})</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
        {form.fieldErrors.groups && (
          <p id={`${groupsId}-error`} className="field-error">
            {form.fieldErrors.groups}
          </p>
        )}
      </fieldset>
      <div className={`field${form.fieldErrors.testers ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={testersId}>
          {LABELS.testers}
          <span className="field-optional"> (optional)</span>
        </label>
        <p className="field-hint" id={`${testersId}-hint`}>
          People outside the groups, separated by commas or new lines.
        </p>
        <textarea
          id={testersId}
          className="input textarea"
          rows={2}
          spellCheck={false}
          autoCapitalize="none"
          value={testers}
          aria-describedby={`${testersId}-hint`}
          onChange={(e) => {
            setTesters(e.target.value);
            form.clearFieldError("testers");
            form.clearFieldError("groups");
          }}
        />
        {form.fieldErrors.testers && <p className="field-error">{form.fieldErrors.testers}</p>}
      </div>
      <div className={`field${form.fieldErrors.message ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={messageId}>
          {LABELS.message}
          <span className="field-optional"> (optional)</span>
        </label>
        <p className="field-hint" id={`${messageId}-hint`}>
          Shown in the mail above the release notes: what to test, what changed.
        </p>
        <textarea
          id={messageId}
          className="input textarea"
          rows={3}
          value={message}
          aria-describedby={`${messageId}-hint`}
          onChange={(e) => {
            setMessage(e.target.value);
            form.clearFieldError("message");
          }}
        />
        {form.fieldErrors.message && <p className="field-error">{form.fieldErrors.message}</p>}
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} />
        <span>Send an e-mail (off: the build only appears in their tester portal)</span>
      </label>
    </FormScaffold>
  );
}
