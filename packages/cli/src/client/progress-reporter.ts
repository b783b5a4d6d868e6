import { formatBytes as sharedFormatBytes } from "@hangar/inspect/format";
import type { UploadProgress } from "./hangar-client";

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressReporterOptions {
  stream: ProgressStream;
  /** Redraw a bar in place (default: the stream is a TTY) instead of printing periodic lines. */
  tty?: boolean;
  label: string;
  now?: () => number;
}

/** A TTY bar redraws at most this often: more is flicker and wasted CPU. */
const REDRAW_MS = 100;
/** Without a TTY (CI logs) a line at each 10 % step, or after 5 s without one. */
const LINE_PERCENT_STEP = 10;
const LINE_EVERY_MS = 5000;
const BAR_WIDTH = 24;

/**
 * The one byte formatter of Hangar (decimal SI: the share page shows the same). Re-exported with
 * its type spelled out, so the published type declarations do not point into @hangar/inspect,
 * which the package bundles rather than depends on.
 */
export const formatBytes: (bytes: number) => string = sharedFormatBytes;

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "--";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** Progress of the PUT on stderr: a bar with bytes, rate and ETA on a terminal, plain lines in CI logs. */
export class ProgressReporter {
  private readonly tty: boolean;
  private readonly now: () => number;
  private attempt = 0;
  private attemptStarted = 0;
  private lastDraw = -Infinity;
  private lastLineAt = 0;
  private lastLineStep = -1;
  private barShown = false;

  constructor(private readonly options: ProgressReporterOptions) {
    this.tty = options.tty ?? options.stream.isTTY === true;
    this.now = options.now ?? Date.now;
  }

  update(progress: UploadProgress): void {
    const now = this.now();
    if (progress.attempt !== this.attempt) {
      this.attempt = progress.attempt;
      this.attemptStarted = now;
      this.lastLineAt = now;
      this.lastLineStep = -1;
    }
    const done = progress.sentBytes >= progress.totalBytes;
    const elapsed = (now - this.attemptStarted) / 1000;
    // Parts an earlier run stored were not sent now: they count in the bar, not in the rate.
    const rate = elapsed > 0 ? Math.max(0, progress.sentBytes - (progress.resumedBytes ?? 0)) / elapsed : 0;
    const eta = rate > 0 ? (progress.totalBytes - progress.sentBytes) / rate : Infinity;
    const fraction = progress.totalBytes > 0 ? progress.sentBytes / progress.totalBytes : 1;
    const percent = Math.floor(fraction * 100);

    if (this.tty) {
      if (!done && now - this.lastDraw < REDRAW_MS) return;
      this.lastDraw = now;
      const filled = Math.round(fraction * BAR_WIDTH);
      const bar = "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled);
      const line =
        `${this.options.label} [${bar}] ${String(percent).padStart(3)}% ` +
        `${formatBytes(progress.sentBytes)}/${formatBytes(progress.totalBytes)} ` +
        `${formatBytes(rate)}/s ETA ${done ? "0s" : formatDuration(eta)}`;
      // A pty without a size reports 0 columns.
      const width = this.options.stream.columns || 100;
      this.options.stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, width - 1))}`);
      this.barShown = true;
      if (done) this.endBar();
      return;
    }

    const step = Math.floor(percent / LINE_PERCENT_STEP);
    const stepReached = step > this.lastLineStep && (step > 0 || done);
    if (!stepReached && now - this.lastLineAt < LINE_EVERY_MS) return;
    if (progress.sentBytes === 0 && !done) return;
    this.lastLineStep = Math.max(this.lastLineStep, step);
    this.lastLineAt = now;
    this.options.stream.write(
      `uploading ${this.options.label}: ${percent}% (${formatBytes(progress.sentBytes)} of ${formatBytes(progress.totalBytes)}, ` +
        `${formatBytes(rate)}/s${done ? "" : `, ETA ${formatDuration(eta)}`})\n`,
    );
  }

  /** A message of its own line (a retry notice), without tearing the bar. */
  note(message: string): void {
    this.endBar();
    this.options.stream.write(`${message}\n`);
  }

  endBar(): void {
    if (!this.barShown) return;
    this.barShown = false;
    this.options.stream.write("\n");
  }
}
