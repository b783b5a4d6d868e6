import { formatBytes } from "@hangar/core/format-bytes";
import { INSTALL_BLOCKER_TEXT, installability } from "@hangar/core/installability";
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type DragEvent } from "react";
import { ApiError, describeError } from "../api/api-client";
import { queryKeys } from "../api/query-keys";
import { uploadApi, type CompleteResult } from "../api/upload.api";
import { paths } from "../app/paths";
import { Link } from "../app/router";
// Types only: the engine (and its CRC32C tables) is loaded on the first upload, not with the dashboard.
import type { BrowserUpload, UploadProgress } from "../upload/browser-upload";
import { declaredFile } from "../upload/declared-file";
import { forgetUpload, loadSavedUpload, mismatchOf, storedBytes, type SavedUpload } from "../upload/saved-upload";
import type { PackagePreview } from "@hangar/inspect/browser";
import { ErrorSummary, Notice } from "./alerts";
import { Button } from "./button";
import { Card } from "./layouts";
import "../styles/upload.css";

type State =
  | { step: "idle" }
  | { step: "reading"; file: File }
  | { step: "uploading"; file: File; preview?: PackagePreview; progress?: UploadProgress }
  | { step: "stopped"; file: File; message: string; retryable: boolean }
  | { step: "done"; file: File; preview?: PackagePreview; result: CompleteResult };

function seconds(total: number): string {
  if (total < 60) return `${total} s`;
  const m = Math.floor(total / 60);
  return m < 60 ? `${m} min ${total % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function progressLine(p: UploadProgress): string {
  if (p.phase === "completing") return `${formatBytes(p.total)} sent. Reading the package…`;
  const rate = p.bytesPerSecond > 0 ? ` · ${formatBytes(p.bytesPerSecond)}/s` : "";
  const eta = p.etaSeconds !== undefined ? ` · about ${seconds(p.etaSeconds)} left` : "";
  return `${formatBytes(p.sent)} of ${formatBytes(p.total)}${rate}${eta}`;
}

/**
 * The package's name, version, bundle id and platform, read in the browser by the extractor
 * (@hangar/inspect/browser, loaded on the first file: the dashboard's first load does not carry
 * it). A package the extractor refuses is refused here with its reason; a read the browser could
 * not do (a read failure, the time budget) only leaves the preview out: complete decides.
 */
async function readPreview(file: File): Promise<{ preview?: PackagePreview; problem?: string }> {
  try {
    const { inspectBlob } = await import("@hangar/inspect/browser");
    return { preview: await inspectBlob(file, file.name) };
  } catch (error) {
    const { name, code, message } = error as { name?: string; code?: string; message?: string };
    if (name === "InspectError" && code !== "read_failed" && code !== "timeout") return { problem: `${file.name} cannot be uploaded: ${message}` };
    return {};
  }
}

function Preview({ preview }: { preview: PackagePreview }) {
  return (
    <p className="upload-preview" data-testid="upload-preview">
      <strong>{preview.appName}</strong> {preview.version}
      {preview.buildNumber ? ` (${preview.buildNumber})` : ""} · <span className="mono break-anywhere">{preview.bundleId}</span> ·{" "}
      {preview.platform === "android" ? "Android" : "iOS"}
    </p>
  );
}

/**
 * Upload a build from the browser (issue 23 item 5): drop an APK or IPA on the zone or choose one
 * with the button (a real button, so the keyboard reaches it), then progress with rate and time
 * left, cancel, retry of what failed, and the new build with its links. The project's lists are
 * refreshed through the query cache. A multipart upload interrupted by a reload (or a closed tab)
 * is offered again: the same file, picked or dropped, sends only the parts not stored yet.
 */
export function UploadPanel({ projectId }: { projectId: string }) {
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<BrowserUpload | undefined>(undefined);
  const preview = useRef<PackagePreview | undefined>(undefined);
  const resumeInput = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ step: "idle" });
  const [dragging, setDragging] = useState(false);
  /** An interrupted upload kept in localStorage, offered while nothing else runs. */
  const [saved, setSaved] = useState<SavedUpload | undefined>(() => loadSavedUpload(projectId));
  const [resumeProblem, setResumeProblem] = useState<string | undefined>(undefined);
  const busy = state.step === "uploading" || state.step === "reading";

  /** Aborts the kept upload (its stored parts are dropped at once) and forgets it. */
  const discard = async (kept: SavedUpload) => {
    setSaved(undefined);
    setResumeProblem(undefined);
    forgetUpload(projectId);
    // Gone already (404) or unreachable: the bucket's lifecycle rule aborts it after a day.
    await uploadApi.abortMultipart(projectId, kept).catch(() => undefined);
  };

  const run = async (file: File, current: BrowserUpload) => {
    setState({ step: "uploading", file, ...(preview.current ? { preview: preview.current } : {}) });
    try {
      const result = await current.run();
      setSaved(undefined);
      setState({ step: "done", file, ...(preview.current ? { preview: preview.current } : {}), result });
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.projects.all }),
        client.invalidateQueries({ queryKey: queryKeys.files.all }),
      ]);
    } catch (error) {
      if (upload.current !== current) return;
      const stopped = error instanceof Error && error.name === "UploadStopped" ? (error as Error & { retryable: boolean }) : undefined;
      const retryable = stopped ? stopped.retryable : error instanceof ApiError && (error.status === 0 || error.status >= 500 || error.status === 429);
      setState({ step: "stopped", file, message: stopped ? stopped.message : describeError(error), retryable });
    }
  };

  /** `resuming`: picked through the offer's Resume, so only the kept upload's file is taken. */
  const start = async (file: File | undefined, resuming = false) => {
    if (!file || busy) return;
    const kept = saved && mismatchOf(saved, file) === undefined ? saved : undefined;
    if (resuming && saved && !kept) {
      setResumeProblem(mismatchOf(saved, file));
      return;
    }
    const declared = declaredFile(file);
    if ("problem" in declared) {
      setState({ step: "stopped", file, message: declared.problem, retryable: false });
      return;
    }
    setResumeProblem(undefined);
    setState({ step: "reading", file });
    let engine: typeof import("../upload/browser-upload");
    let read: Awaited<ReturnType<typeof readPreview>>;
    try {
      [engine, read] = await Promise.all([import("../upload/browser-upload"), readPreview(file)]);
    } catch {
      setState({ step: "stopped", file, message: "The uploader could not be loaded. Check your connection and try again.", retryable: false });
      return;
    }
    if (read.problem) {
      setState({ step: "stopped", file, message: read.problem, retryable: false });
      return;
    }
    // Another file, and one that goes: the interrupted upload is given up (one upload per project is kept).
    if (saved && !kept) void discard(saved);
    preview.current = read.preview;
    const current: BrowserUpload = new engine.BrowserUpload(
      projectId,
      file,
      (progress) => setState((s) => (s.step === "uploading" && upload.current === current ? { ...s, progress } : s)),
      engine.multipartThreshold(),
      kept,
    );
    // Offered again after a reload from what the upload keeps, not from this (now stale) copy.
    setSaved(undefined);
    upload.current = current;
    void run(file, current);
  };

  const cancel = async () => {
    const current = upload.current;
    if (!current || state.step !== "uploading") return;
    upload.current = undefined;
    await current.cancel();
    setSaved(undefined);
    setState({ step: "stopped", file: state.file, message: "The upload was cancelled.", retryable: false });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void start(event.dataTransfer.files[0]);
  };

  return (
    <Card title="Upload a build" id="upload" description="An APK or IPA from your computer. Large builds go in parallel parts; CI uploads with the CLI and an API key.">
      <div
        className={`drop-zone${dragging ? " drop-zone-active" : ""}`}
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          if (!busy) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p className="drop-zone-text">Drop an APK or IPA here, or</p>
        <Button variant="secondary" disabled={busy} onClick={() => input.current?.click()}>
          Choose a file…
        </Button>
        <input
          ref={input}
          type="file"
          accept=".apk,.ipa"
          hidden
          data-testid="upload-input"
          onChange={(event) => {
            void start(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
      </div>

      {saved && !busy && !upload.current && (
        <div className="alert alert-info" role="region" aria-label="Interrupted upload" data-testid="resume-offer">
          <div className="alert-body">
            <p className="alert-title">An upload was interrupted: {saved.fileName}</p>
            <p>
              {formatBytes(storedBytes(saved))} of {formatBytes(saved.fileSize)} stored. Choose the same file to send the rest; uploading another file
              discards it.
            </p>
            {resumeProblem && (
              <p className="field-error" role="alert">
                {resumeProblem}
              </p>
            )}
            <div className="form-actions-row">
              <Button variant="primary" className="button-small" onClick={() => resumeInput.current?.click()}>
                Resume…
              </Button>
              <Button variant="secondary" className="button-small" onClick={() => void discard(saved)}>
                Discard
              </Button>
            </div>
            <input
              ref={resumeInput}
              type="file"
              accept=".apk,.ipa"
              hidden
              data-testid="resume-input"
              onChange={(event) => {
                void start(event.target.files?.[0], true);
                event.target.value = "";
              }}
            />
          </div>
        </div>
      )}

      {state.step !== "idle" && (
        <div className="upload-status" aria-live="polite">
          <p className="upload-file">
            <strong className="break-anywhere">{state.file.name}</strong> <span className="muted">{formatBytes(state.file.size)}</span>
          </p>
          {state.step === "reading" && (
            <p className="loading-line" role="status">
              <span className="spinner spinner-dark" aria-hidden="true" /> Reading the package…
            </p>
          )}
          {state.step === "uploading" && (
            <>
              {state.preview && <Preview preview={state.preview} />}
              <progress
                className="upload-progress"
                aria-label={`Uploading ${state.file.name}`}
                max={state.file.size}
                value={state.progress?.sent ?? 0}
              />
              <p className="muted" data-testid="upload-progress">
                {state.progress ? progressLine(state.progress) : "Starting…"}
              </p>
              <div className="form-actions-row">
                <Button variant="secondary" onClick={() => void cancel()}>
                  Cancel upload
                </Button>
              </div>
            </>
          )}
          {state.step === "stopped" && (
            <ErrorSummary message={state.message}>
              {state.retryable && upload.current && (
                <div className="alert-actions">
                  <Button variant="secondary" className="button-small" onClick={() => void run(state.file, upload.current!)}>
                    Retry
                  </Button>
                </div>
              )}
            </ErrorSummary>
          )}
          {state.step === "done" && (
            <>
              {state.preview && <Preview preview={state.preview} />}
              <Uploaded result={state.result} />
            </>
          )}
        </div>
      )}
    </Card>
  );
}

function Uploaded({ result }: { result: CompleteResult }) {
  const { appName, version } = result.metadata;
  // Complete's own rule (core's installability), said at once rather than by a tester later.
  const install = installability({ platform: result.metadata.platform, provisioning: result.metadata.provisioning }, new Date());
  const build = typeof result.metadata.buildNumber === "string" && result.metadata.buildNumber ? ` (${result.metadata.buildNumber})` : "";
  return (
    <div data-testid="upload-done">
      <Notice title={`${appName} ${version}${build} uploaded.`}>
        <p>
          <Link to={paths.file(result.fileId)}>Open the build</Link> to share it or change its link.
        </p>
        <p className="break-anywhere">
          Share link: <a href={result.shareUrl}>{result.shareUrl}</a>
        </p>
      </Notice>
      {!install.installable && (
        <div className="alert alert-warning" role="note" data-testid="upload-install-warning">
          <p className="alert-title">Testers cannot install this build from its link.</p>
          <p>{INSTALL_BLOCKER_TEXT[install.reason]}</p>
        </div>
      )}
    </div>
  );
}
