import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, isAbsolute, join } from "node:path";
import { anySignal } from "../client/any-signal";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, parseCommandArgs, usageText } from "../command";
import { loadConfigFile, type FileSettings } from "../config/config-file";
import type { Command, CommandIo } from "../command";
import type { PackageRefusedError } from "./check-package";
import {
  HangarAbortError,
  HangarApiError,
  HangarAuthError,
  HangarClient,
  HangarFileError,
  HangarNetworkError,
  HangarRateLimitError,
  HangarRejectedError,
  HangarRequestError,
  HangarTimeoutError,
  DEFAULT_MULTIPART_THRESHOLD,
  DEFAULT_PARALLEL_PARTS,
  ProgressReporter,
  appendGithubOutput,
  createRedactor,
  defaultRetryOptions,
  formatBytes,
  isRefusedUploadAddress,
  mediaTypeFor,
  CHANGE_KINDS,
  CHANGE_KIND_GROUPS,
  describeChange,
  diffOf,
  formatChanges,
  gatedChanges,
  parseChangeKinds,
  type BuildChange,
  type BuildContext,
  type ChangeKind,
  type RetryOptions,
  type UploadResult,
  type UploadStep,
} from "../client";

/** Exit codes of `hangar upload` (documented in HELP and docs/ci-recipes.md). */
export const UPLOAD_EXIT = {
  ok: EXIT_OK,
  /** A bug or an unexpected failure: not one of the cases below. */
  internal: EXIT_FAILURE,
  usage: EXIT_USAGE,
  auth: 3,
  rateLimited: 4,
  server: 5,
  rejected: 6,
  /** Uploaded, but a change `--fail-on` names occurred (the release gate): the build stays available. */
  gate: 7,
  /** 128 + SIGINT, as shells report a Ctrl-C. */
  interrupted: 130,
  /** 128 + SIGTERM: a cancelled CI job (GitLab, Docker stop, a runner's timeout). */
  terminated: 143,
} as const;

const HELP = `Usage: hangar upload <file.apk|file.ipa> [options]

Uploads a build to Hangar (presign, PUT to storage, complete) and prints its share and
download links, app name, bundle id and version. The file is streamed, never loaded in memory.

Credentials (flags override the environment, which overrides the config file):
  --url <address>          HANGAR_URL            base address of the service
  --client-id <id>         HANGAR_CLIENT_ID
  --client-secret <secret> HANGAR_CLIENT_SECRET  prefer the variable: arguments are visible
                                                 to other processes on the machine
  --config <file>          HANGAR_CONFIG         JSON ({"url","clientId","clientSecret"}) or
                                                 dotenv (HANGAR_URL=...) file; keep it chmod 600

Options:
  --name <file name>       Name announced to the service (default: the file's name).
  --notes <text>           Release notes shown on the share page (at most 5,000 characters).
  --notes-file <file>      Read the release notes from a UTF-8 file ("-" reads stdin).
  --groups <names>         Send the build to these tester groups (names or ids, comma-separated:
                           --groups qa,beta); an unknown group fails before the build completes.
  --testers <addresses>    Send the build to these addresses too (comma-separated).
  --message <text>         A message to the testers in the build mail (at most 1,000 characters).
  --no-notify              Make the build available to them (their tester portal) without a mail.
  --no-verify              Do not check the file locally before uploading (by default a
                           file the service would refuse as not an APK/IPA is refused
                           here, exit 6, and nothing is sent).
  --no-ci-context          Do not send the branch, commit and CI run URL read from GitHub
                           Actions, GitLab CI or Bitrise variables (sent by default).
  --fail-on <kinds>        Release gate: exit 7 AFTER uploading when one of these changes since
                           the previous build of the app occurred (comma-separated kinds, e.g.
                           signing-key-changed,permission-added,build-number-not-increased;
                           docs/release-safety.md lists them). An unknown kind is a usage error
                           before anything is sent. The build stays uploaded, to inspect.
  --json                   Print the service's answer plus "timings" (ms) as JSON on stdout,
                           and nothing else there. A failure prints {"error":{...}}.
  --github-output          Append share_url, download_url, file_id, user_key, version,
                           app_name, bundle_id, qr_code_url (and install_url for an iOS
                           build testers can install), changes (JSON), danger_changes (a count)
                           and failed_changes (the kinds --fail-on caught) to $GITHUB_OUTPUT
                           (automatic when set).
  -q, --quiet              No progress and no retry notices (errors are still printed).
  -v, --verbose            Log each step and its timings to stderr (secrets redacted).
  --multipart-threshold <size>
                           HANGAR_MULTIPART_THRESHOLD: files of at least this size go in parallel
                           parts, resumable (default 64MiB; bytes, or with KiB, MiB, GiB). Files
                           past 5 GiB always do. Rerun the same command after a crash or a kill
                           and the parts already stored are not sent again (state in
                           HANGAR_CACHE_DIR, else $XDG_CACHE_HOME/hangar or ~/.cache/hangar; on
                           macOS ~/Library/Caches/hangar; removed once the upload completes).
  --parallel <n>           Parts sent at once (default ${DEFAULT_PARALLEL_PARTS}, at most 32).
  --max-retries <n>        Retries per step on 5xx, network errors and 429 (default ${defaultRetryOptions.maxRetries}).
  --timeout <seconds>      Time budget of the whole upload, retries included (default ${defaultRetryOptions.timeoutMs / 1000}).
  -h, --help               Show this help.

Exit codes:
  0    uploaded
  1    unexpected internal error (a bug: please report it)
  2    usage: bad arguments or credentials setup, unreadable file, not .apk/.ipa, or a request
       the service refuses as such (400, 413 file too large, 415 file type)
  3    authentication: the service answered 401/403 (wrong or revoked key)
  4    rate limited: still 429 after the retries or the time budget
  5    server or network: 5xx or no answer after the retries, time budget spent, storage
       refusing the PUT, or any other unexpected answer
  6    package rejected: the local check or the service's 422 invalid_package (not an APK/IPA
       it can read; "reason" says why), 409 upload_mismatch/size_mismatch (final; retrying
       the same file will not help)
  7    release gate: uploaded, but a change named by --fail-on occurred (the message names the
       changes and the build's page); also when the service reported no diff to check
  130  interrupted (Ctrl-C / SIGINT); 143 on SIGTERM (a cancelled CI job). In-flight requests
       are aborted; nothing is left half-done on the client side
`;

export interface UploadArgs {
  file: string;
  url: string;
  clientId: string;
  clientSecret: string;
  fileName?: string;
  /** Release notes and CI context for complete. */
  context?: BuildContext;
  json: boolean;
  githubOutput?: string;
  quiet: boolean;
  verbose: boolean;
  /** Read the package locally first and refuse what complete would (unless --no-verify). */
  verify: boolean;
  retry: Partial<RetryOptions>;
  /** The change kinds (groups expanded) that fail the command after uploading (--fail-on). */
  failOn?: ChangeKind[];
  /** Size from which the file goes in parts, parts at once, and where resume state lives. */
  multipart: { thresholdBytes: number; parallel: number; cacheDir: string };
  /** The config file read (--config or HANGAR_CONFIG) and the settings taken from it. */
  config?: { path: string; used: string[]; warnings: string[] };
}

/** What the command needs from its process; the defaults are the real one's. */
export interface UploadIo extends CommandIo {
  env?: NodeJS.ProcessEnv;
  /** The changes are colored on a terminal (unless NO_COLOR is set). */
  stdoutIsTTY?: boolean;
  /** Progress draws a bar on a terminal and prints plain lines otherwise. */
  stderrIsTTY?: boolean;
  stderrColumns?: number;
  /** Aborts the upload as Ctrl-C would; without one the command listens for SIGINT and SIGTERM itself. */
  signal?: AbortSignal;
}

/**
 * `secrets` receives the config file's secret as soon as it is read, so that even an error
 * raised after that point cannot print it.
 */
export function parseUploadArgs(args: string[], env: NodeJS.ProcessEnv, secrets: string[] = []): UploadArgs | "help" {
  const parsed = parseCommandArgs(
    args,
    {
      url: { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      config: { type: "string" },
      name: { type: "string" },
      notes: { type: "string" },
      "notes-file": { type: "string" },
      groups: { type: "string" },
      testers: { type: "string" },
      message: { type: "string" },
      "no-notify": { type: "boolean", default: false },
      "no-ci-context": { type: "boolean", default: false },
      "no-verify": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      "github-output": { type: "boolean", default: false },
      quiet: { type: "boolean", short: "q", default: false },
      verbose: { type: "boolean", short: "v", default: false },
      "max-retries": { type: "string" },
      timeout: { type: "string" },
      "multipart-threshold": { type: "string" },
      parallel: { type: "string" },
      "fail-on": { type: "string" },
    },
    { missing: "missing the file to upload", tooMany: "give exactly one file to upload" },
  );
  if (parsed === "help") return "help";
  const { values, file } = parsed;
  const fileName = values.name ?? basename(file);
  if (!mediaTypeFor(fileName)) throw new UsageError(`${fileName}: only .apk and .ipa files can be uploaded`);

  const configPath = values.config ?? (env.HANGAR_CONFIG || undefined);
  let fromFile: FileSettings = {};
  let config: UploadArgs["config"];
  if (configPath !== undefined) {
    if (configPath === "") throw new UsageError("--config needs a file path");
    const loaded = loadConfigFile(configPath);
    fromFile = loaded.settings;
    if (fromFile.clientSecret) secrets.push(fromFile.clientSecret);
    config = { path: configPath, used: [], warnings: loaded.warnings };
  }
  // Flags, then the environment, then the file: dotenv's rule (a variable already set wins).
  const pick = (flag: string | undefined, variable: string, fileValue: string | undefined) => {
    if (flag !== undefined) return flag;
    if (env[variable]) return env[variable];
    if (fileValue) config?.used.push(variable);
    return fileValue;
  };
  const url = pick(values.url, "HANGAR_URL", fromFile.url);
  const clientId = pick(values["client-id"], "HANGAR_CLIENT_ID", fromFile.clientId);
  const clientSecret = pick(values["client-secret"], "HANGAR_CLIENT_SECRET", fromFile.clientSecret);
  const missing = [
    !url && "HANGAR_URL (or --url)",
    !clientId && "HANGAR_CLIENT_ID (or --client-id)",
    !clientSecret && "HANGAR_CLIENT_SECRET (or --client-secret)",
  ].filter(Boolean);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(", ")}${config ? ` (not in ${config.path} either)` : ""}`);
  if (!/^https?:\/\/[^/]/i.test(url!) || !URL.canParse(url!)) throw new UsageError(`the service URL must be an http(s) address, got "${url}"`);

  const retry: Partial<RetryOptions> = {};
  if (values["max-retries"] !== undefined) {
    const n = Number(values["max-retries"]);
    if (!/^\d+$/.test(values["max-retries"]) || n > 100) throw new UsageError("--max-retries takes a whole number from 0 to 100");
    retry.maxRetries = n;
  }
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 7 * 24 * 3600) {
      throw new UsageError("--timeout takes a positive number of seconds (at most a week)");
    }
    retry.timeoutMs = Math.round(seconds * 1000);
  }

  const thresholdText = values["multipart-threshold"] ?? (env.HANGAR_MULTIPART_THRESHOLD || undefined);
  const thresholdBytes = thresholdText === undefined ? DEFAULT_MULTIPART_THRESHOLD : parseSize(thresholdText);
  if (thresholdBytes === undefined || thresholdBytes < 1) {
    throw new UsageError(`--multipart-threshold (HANGAR_MULTIPART_THRESHOLD) takes a size such as 64MiB or 100000000, got "${thresholdText}"`);
  }
  let parallel = DEFAULT_PARALLEL_PARTS;
  if (values.parallel !== undefined) {
    parallel = Number(values.parallel);
    if (!/^\d+$/.test(values.parallel) || parallel < 1 || parallel > 32) throw new UsageError("--parallel takes a whole number from 1 to 32");
  }

  if (values.notes !== undefined && values["notes-file"] !== undefined) throw new UsageError("give --notes or --notes-file, not both");
  let releaseNotes = values.notes;
  if (values["notes-file"] !== undefined) {
    try {
      releaseNotes = readFileSync(values["notes-file"] === "-" ? 0 : values["notes-file"], "utf8");
    } catch (error) {
      throw new UsageError(`--notes-file: cannot read ${values["notes-file"]} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  releaseNotes = releaseNotes?.replace(/\r\n?/g, "\n").trim();
  if (releaseNotes !== undefined && [...releaseNotes].length > MAX_NOTES) throw new UsageError(`release notes are ${[...releaseNotes].length} characters; at most ${MAX_NOTES} are accepted`);
  const distribute = distributeOf(values);
  const context: BuildContext = {
    ...(values["no-ci-context"] ? {} : ciContext(env)),
    ...(releaseNotes ? { releaseNotes } : {}),
    ...(distribute ? { distribute } : {}),
  };

  let failOn: ChangeKind[] | undefined;
  if (values["fail-on"] !== undefined) {
    const { kinds, unknown } = parseChangeKinds(values["fail-on"]);
    if (unknown.length > 0) {
      throw new UsageError(`--fail-on: unknown change kind${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (known: ${[...CHANGE_KINDS, ...Object.keys(CHANGE_KIND_GROUPS)].join(", ")})`);
    }
    if (kinds.length === 0) throw new UsageError("--fail-on needs at least one change kind, e.g. signing-key-changed");
    failOn = kinds;
  }

  const githubOutput = env.GITHUB_OUTPUT || undefined;
  if (values["github-output"] && !githubOutput) throw new UsageError("--github-output needs the GITHUB_OUTPUT variable (set by GitHub Actions)");

  return {
    file,
    url: url!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    ...(values.name !== undefined ? { fileName: values.name } : {}),
    ...(Object.keys(context).length > 0 ? { context } : {}),
    json: values.json === true,
    ...(githubOutput ? { githubOutput } : {}),
    quiet: values.quiet === true,
    verbose: values.verbose === true,
    verify: values["no-verify"] !== true,
    retry,
    ...(failOn ? { failOn } : {}),
    multipart: { thresholdBytes, parallel, cacheDir: cacheDirectory(env) },
    ...(config ? { config } : {}),
  };
}

const SIZE_UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 };

/** "64MiB", "1.5GiB", "100000000" → bytes (units are binary: M and MiB are both 2^20). */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  return m && unit !== undefined ? Math.round(Number(m[1]) * unit) : undefined;
}

/**
 * Where resume state lives: HANGAR_CACHE_DIR, else the platform's cache directory (XDG on Linux
 * and the BSDs, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows), in a "hangar" folder.
 */
export function cacheDirectory(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env.HANGAR_CACHE_DIR) return env.HANGAR_CACHE_DIR;
  if (platform === "darwin") return join(home, "Library", "Caches", "hangar");
  if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "hangar", "cache");
  return join(env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(home, ".cache"), "hangar");
}

/** The exit code for a failed upload. */
export function uploadExitCode(error: unknown): number {
  if (error instanceof HangarAbortError) return UPLOAD_EXIT.interrupted;
  if (error instanceof UsageError || error instanceof HangarFileError || error instanceof HangarRequestError) return UPLOAD_EXIT.usage;
  if (error instanceof HangarAuthError) return UPLOAD_EXIT.auth;
  if (error instanceof HangarRateLimitError) return UPLOAD_EXIT.rateLimited;
  if (error instanceof HangarRejectedError || isRefusedPackage(error)) return UPLOAD_EXIT.rejected;
  if (error instanceof HangarApiError || error instanceof HangarNetworkError || error instanceof HangarTimeoutError) {
    return UPLOAD_EXIT.server;
  }
  return UPLOAD_EXIT.internal;
}

/** What to do about it, for a person reading a CI log. */
function hint(error: unknown): string | undefined {
  if (error instanceof HangarAuthError) return "check HANGAR_CLIENT_ID and HANGAR_CLIENT_SECRET (the key may have been regenerated)";
  if (error instanceof HangarRateLimitError) return "the key's request budget is used up; space out uploads or use another key";
  if (error instanceof HangarRejectedError) return "the service cannot read this file as an APK/IPA; check the build artifact";
  if (isRefusedPackage(error)) return "nothing was uploaded: the service would refuse this file (422 invalid_package); check the build artifact, or --no-verify to send it anyway";
  if (isRefusedUploadAddress(error)) return "object storage refused every upload address; check the machine's clock";
  if (error instanceof HangarApiError && error.code === "group_not_found") return "the build was not completed: fix --groups (names or ids of the workspace's tester groups) and rerun";
  if (error instanceof HangarNetworkError) return "check HANGAR_URL and the network; rerunning may help";
  if (error instanceof HangarTimeoutError) return "raise --timeout for slow links or large files";
  return undefined;
}

function errorJson(error: unknown, exitCode: number): Record<string, unknown> {
  const base = { message: error instanceof Error ? error.message : String(error), exitCode };
  if (error instanceof HangarApiError) {
    return { code: error.code, status: error.status, step: error.step, requestId: error.requestId, ...error.details, ...base };
  }
  if (isRefusedPackage(error)) return { code: error.code, reason: error.reason, step: "verify", ...base };
  const code =
    error instanceof UsageError
      ? "usage"
      : error instanceof HangarFileError
        ? "file_error"
        : error instanceof HangarTimeoutError
          ? "timeout"
          : error instanceof HangarNetworkError
            ? "network_error"
            : error instanceof HangarAbortError
              ? "interrupted"
              : "internal_error";
  const step = error instanceof HangarNetworkError || error instanceof HangarTimeoutError ? { step: error.step } : {};
  return { code, ...step, ...base };
}

/** What complete accepts (packages/core/src/upload/upload.schema.ts). */
const MAX_NOTES = 5000;
/** complete's `distribute` (packages/core/src/distribution/distribution.schema.ts). */
const MAX_MESSAGE = 1000;
const MAX_LIST = { groups: 100, testers: 1000 } as const;

const listOf = (text: string | undefined, flag: "groups" | "testers"): string[] => {
  const items = [...new Set((text ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0))];
  if (items.length > MAX_LIST[flag]) throw new UsageError(`--${flag} names ${items.length}; at most ${MAX_LIST[flag]} are accepted`);
  return items;
};

/** --groups, --testers, --message and --no-notify as complete's `distribute`; undefined when none is given. */
function distributeOf(values: { groups?: string | undefined; testers?: string | undefined; message?: string | undefined; "no-notify"?: boolean | undefined }): BuildContext["distribute"] {
  const groups = listOf(values.groups, "groups");
  const testers = listOf(values.testers, "testers");
  const message = values.message?.replace(/\r\n?/g, "\n").trim();
  if (groups.length === 0 && testers.length === 0) {
    if (message || values["no-notify"]) throw new UsageError("--message and --no-notify need --groups or --testers");
    return undefined;
  }
  if (message !== undefined && [...message].length > MAX_MESSAGE) throw new UsageError(`--message is ${[...message].length} characters; at most ${MAX_MESSAGE} are accepted`);
  return {
    ...(groups.length > 0 ? { groups } : {}),
    ...(testers.length > 0 ? { testers } : {}),
    ...(message ? { message } : {}),
    ...(values["no-notify"] ? { notify: false } : {}),
  };
}

/** A CI variable, trimmed and bounded; undefined when unset, empty or holding control characters. */
function ciValue(value: string | undefined, max: number): string | undefined {
  const v = value?.trim();
  return v && v.length <= max && !/[\u0000-\u001f\u007f]/.test(v) ? v : undefined;
}

const httpUrl = (value: string | undefined) => {
  const v = ciValue(value, 2048);
  return v && /^https?:\/\/[^/]/i.test(v) && URL.canParse(v) ? v : undefined;
};

/**
 * Branch, commit and run URL from the CI's own variables: GitHub Actions, GitLab CI, Bitrise.
 * Nothing outside these CIs (a laptop's environment says nothing about the build).
 */
export function ciContext(env: NodeJS.ProcessEnv): BuildContext {
  let found: { branch?: string | undefined; commit?: string | undefined; ciUrl?: string | undefined } = {};
  if (env.GITHUB_ACTIONS === "true") {
    const run = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined;
    // On pull requests GITHUB_REF_NAME is "<n>/merge"; GITHUB_HEAD_REF is the branch people know.
    found = { branch: env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME, commit: env.GITHUB_SHA, ciUrl: run };
  } else if (env.GITLAB_CI === "true") {
    found = { branch: env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_REF_NAME, commit: env.CI_COMMIT_SHA, ciUrl: env.CI_JOB_URL || env.CI_PIPELINE_URL };
  } else if (env.BITRISE_IO === "true" || env.BITRISE_BUILD_URL) {
    found = { branch: env.BITRISE_GIT_BRANCH, commit: env.BITRISE_GIT_COMMIT || env.GIT_CLONE_COMMIT_HASH, ciUrl: env.BITRISE_BUILD_URL };
  }
  const branch = ciValue(found.branch, 255);
  const commit = ciValue(found.commit, 64);
  const ciUrl = httpUrl(found.ciUrl);
  return { ...(branch ? { branch } : {}), ...(commit ? { commit } : {}), ...(ciUrl ? { ciUrl } : {}) };
}

/**
 * The step outputs. `changes` is the JSON list of what changed since the previous build (`[]`
 * for a first build), `danger_changes` how many of them are `danger`, `failed_changes` the kinds
 * `--fail-on` caught (comma-separated, empty when the gate passed or was not set).
 */
export function githubOutputs(result: UploadResult, failed: readonly BuildChange[] = []): Record<string, string> {
  const changes = diffOf(result)?.changes ?? [];
  return {
    share_url: result.shareUrl,
    download_url: result.downloadUrl,
    file_id: result.fileId,
    user_key: result.userKey,
    version: result.metadata.version,
    app_name: result.metadata.appName,
    bundle_id: result.metadata.bundleId,
    ...(typeof result.qrCodeUrl === "string" ? { qr_code_url: result.qrCodeUrl } : {}),
    ...(typeof result.installUrl === "string" ? { install_url: result.installUrl } : {}),
    changes: JSON.stringify(changes),
    danger_changes: String(changes.filter((c) => c.severity === "danger").length),
    failed_changes: [...new Set(failed.map((c) => c.kind))].join(","),
  };
}

/**
 * The release gate's verdict after a successful upload: the message to print and exit 7 when a
 * change `--fail-on` names occurred (or the service sent no diff to check), undefined otherwise.
 */
export function gateFailure(result: UploadResult, failOn: readonly string[] | undefined, dashboardUrl: string): string | undefined {
  if (!failOn) return undefined;
  const diff = diffOf(result);
  const page = `${dashboardUrl.replace(/\/+$/, "")}/files/${encodeURIComponent(result.fileId)}`;
  if (diff === undefined) {
    return `hangar upload: release gate: uploaded, but the service reported no changes to check --fail-on against (it predates release gates)\n  build: ${result.shareUrl}\n`;
  }
  const caught = gatedChanges(diff, failOn);
  if (caught.length === 0) return undefined;
  return (
    `hangar upload: release gate: --fail-on caught ${caught.length} change${caught.length === 1 ? "" : "s"} since ${diff!.previous.version}` +
    `${diff!.previous.buildNumber ? ` (${diff!.previous.buildNumber})` : ""}:\n` +
    caught.map((c) => `  - ${describeChange(c)}\n`).join("") +
    `  The build was uploaded and stays available to inspect: ${page} (share page ${result.shareUrl})\n`
  );
}

/**
 * Why testers cannot install the build from its link, by the service's reason code (see
 * packages/core/src/upload/installability.ts); a code this CLI does not know yet is shown as is.
 */
const NOT_INSTALLABLE: Record<string, string> = {
  app_store_signed: "it is signed for App Store distribution, which iOS installs only from the App Store or TestFlight; upload an ad hoc, development or enterprise build",
  profile_expired: "its provisioning profile has expired; sign it with a current profile",
  no_devices: "its provisioning profile lists no devices; register the testers' devices and build again",
  no_profile: "it carries no provisioning profile; sign it for development, ad hoc or enterprise distribution",
};

/** The warning for a build the service says no tester can install from its link; undefined otherwise. */
export function installWarning(result: Pick<UploadResult, "installable" | "reason">): string | undefined {
  if (result.installable !== false) return undefined;
  const code = typeof result.reason === "string" ? result.reason : "unknown";
  const why = Object.hasOwn(NOT_INSTALLABLE, code) ? NOT_INSTALLABLE[code] : "the service says so";
  return `hangar upload: warning: uploaded, but testers cannot install this build from its link: ${why} (${code})\n`;
}

/** complete's `distribution` answer, in one line: who it went to and how many mails were queued. */
function testersLine(distribution: unknown): string[] {
  const d = distribution as { recipients?: unknown; queued?: unknown; capped?: unknown } | null | undefined;
  if (!d || typeof d.recipients !== "number" || typeof d.queued !== "number") return [];
  const capped = typeof d.capped === "number" && d.capped > 0 ? `, ${d.capped} over the daily mail cap` : "";
  return [`  Testers:   ${d.recipients} (${d.queued} new mail${d.queued === 1 ? "" : "s"} queued${capped})`];
}

function summary(result: UploadResult, fileName: string, size: number, color: boolean): string {
  const m = result.metadata;
  const build = typeof m["buildNumber"] === "string" && m["buildNumber"] !== "" ? ` (${m["buildNumber"]})` : "";
  return [
    `Uploaded ${fileName} (${formatBytes(size)}) in ${(result.timings.totalMs / 1000).toFixed(1)} s`,
    `  Name:      ${m.appName}`,
    `  Bundle ID: ${m.bundleId}`,
    `  Version:   ${m.version}${build}`,
    `  Share:     ${result.shareUrl}`,
    ...(typeof result.qrCodeUrl === "string" ? [`  QR code:   ${result.qrCodeUrl}`] : []),
    `  Download:  ${result.downloadUrl}`,
    ...(result.installable === false ? [`  Install:   not installable from the link (${typeof result.reason === "string" ? result.reason : "unknown"})`] : []),
    ...testersLine(result.distribution),
    "",
  ].join("\n") + formatChanges(diffOf(result), color);
}

const STEP_LABEL: Record<UploadStep, string> = {
  presign: "requesting an upload address",
  put: "sending the file to storage",
  complete: "completing (the service reads the package)",
};

async function run(args: string[], io: UploadIo): Promise<number> {
  const env = io.env ?? process.env;
  // Known before parsing, so even a usage error cannot echo the secret back; the config file's
  // secret joins the list the moment the file is read.
  const secrets = [env.HANGAR_CLIENT_SECRET, ...secretArguments(args)].filter((s): s is string => s !== undefined);
  const redact = (text: string) => createRedactor(secrets)(text);
  const out = (text: string) => io.stdout(redact(text));
  const err = (text: string) => io.stderr(redact(text));

  let options: UploadArgs | "help";
  try {
    options = parseUploadArgs(args, env, secrets);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(usageText("upload", error, HELP));
    if (args.includes("--json")) out(`${JSON.stringify({ error: errorJson(error, UPLOAD_EXIT.usage) })}\n`);
    return UPLOAD_EXIT.usage;
  }
  if (options === "help") {
    out(HELP);
    return UPLOAD_EXIT.ok;
  }
  const opts = options;
  const fileName = opts.fileName ?? basename(opts.file);
  for (const warning of opts.config?.warnings ?? []) err(`hangar: warning: ${warning}\n`);
  if (opts.verbose && opts.config) {
    // Names only: which settings came from the file, never their values.
    const used = opts.config.used.length > 0 ? opts.config.used.join(", ") : "nothing (flags and variables took precedence)";
    err(`hangar: config ${opts.config.path}: ${used}\n`);
  }

  const interrupt = new AbortController();
  let interrupts = 0;
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    interrupts += 1;
    stoppedBy ??= name;
    // A second signal means "now": do not wait for sockets to wind down.
    if (interrupts > 1) process.exit(name === "SIGTERM" ? UPLOAD_EXIT.terminated : UPLOAD_EXIT.interrupted);
    interrupt.abort(new HangarAbortError());
  };
  if (!io.signal) {
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  }
  const signal = io.signal ? anySignal([io.signal, interrupt.signal]) : interrupt.signal;

  const progress = opts.quiet
    ? undefined
    : new ProgressReporter({
        stream: { write: (text: string) => err(text), isTTY: io.stderrIsTTY ?? process.stderr.isTTY === true, columns: io.stderrColumns ?? process.stderr.columns },
        label: fileName,
      });
  // Written by callbacks: an object, so TypeScript does not narrow it to its first value.
  const current: { step: UploadStep } = { step: "presign" };
  let size = 0;

  try {
    if (opts.verify) {
      if (opts.verbose) err("hangar: checking the package locally\n");
      const { checkPackage } = await import("./check-package");
      await checkPackage(opts.file, fileName);
    }
    const client = new HangarClient({ url: opts.url, clientId: opts.clientId, clientSecret: opts.clientSecret, retry: opts.retry });
    const result = await client.upload(opts.file, {
      ...(opts.fileName !== undefined ? { fileName: opts.fileName } : {}),
      ...(opts.context ? { context: opts.context } : {}),
      multipart: opts.multipart,
      onResume: ({ storedParts, partCount, storedBytes }) => {
        const line = `hangar: resuming: ${storedParts} of ${partCount} parts (${formatBytes(storedBytes)}) already stored`;
        if (progress) progress.note(line);
        else if (opts.verbose) err(`${line}\n`);
      },
      signal,
      onStep: (s) => {
        current.step = s;
        if (!opts.verbose) return;
        if (progress) progress.note(`hangar: ${STEP_LABEL[s]}`);
        else err(`hangar: ${STEP_LABEL[s]}\n`);
      },
      onProgress: (p) => {
        size = p.totalBytes;
        progress?.update(p);
      },
      onRetry: (notice) => {
        if (opts.quiet) return;
        const wait = notice.delayMs >= 1000 ? `in ${(notice.delayMs / 1000).toFixed(1)} s` : notice.delayMs > 0 ? `in ${notice.delayMs} ms` : "now";
        const what =
          notice.error instanceof HangarRateLimitError
            ? "rate limited"
            : isRefusedUploadAddress(notice.error)
              ? "upload address refused, getting a new one"
              : withoutStep(notice.error.message, notice.step);
        progress!.note(`hangar: ${notice.step} ${what}; retry ${notice.retry}/${notice.maxRetries} ${wait}`);
      },
    });
    progress?.endBar();
    if (opts.verbose) {
      const t = result.timings;
      err(`hangar: presign ${t.presignMs} ms, put ${t.putMs} ms, complete ${t.completeMs} ms, total ${t.totalMs} ms\n`);
    }
    const caught = opts.failOn ? gatedChanges(diffOf(result) ?? null, opts.failOn) : [];
    if (opts.githubOutput) {
      try {
        appendGithubOutput(opts.githubOutput, githubOutputs(result, caught));
      } catch (error) {
        throw new UsageError(`uploaded, but could not write GITHUB_OUTPUT (${opts.githubOutput}): ${(error as Error).message}`);
      }
    }
    // Said even with --quiet (it is not progress): the upload worked, but the build is of no use to testers.
    const warning = installWarning(result);
    if (warning) err(warning);
    const color = (io.stdoutIsTTY ?? process.stdout.isTTY === true) && !env.NO_COLOR;
    out(opts.json ? `${JSON.stringify(result, null, 2)}\n` : summary(result, fileName, size, color));
    // After the upload and its answer: the build is stored either way, the pipeline stops here.
    const gate = gateFailure(result, opts.failOn, opts.url);
    if (gate) {
      err(gate);
      return UPLOAD_EXIT.gate;
    }
    return UPLOAD_EXIT.ok;
  } catch (error) {
    progress?.endBar();
    const code = uploadExitCode(error);
    if (code === UPLOAD_EXIT.interrupted) {
      err(
        current.step === "complete"
          ? "hangar upload: interrupted while the service was completing the upload; it may still finish\n"
          : `hangar upload: interrupted while ${STEP_LABEL[current.step]}; the upload was not completed${size >= opts.multipart.thresholdBytes ? " (run the same command again to resume the upload)" : ""}\n`,
      );
    } else {
      const message = isRefusedPackage(error)
        ? `${fileName}: ${error.message} (invalid_package: ${error.reason})`
        : error instanceof Error
          ? error.message
          : String(error);
      const advice = hint(error);
      const fields = error instanceof HangarApiError ? describeFields(error.details["fields"], message) : undefined;
      const resumable = size >= opts.multipart.thresholdBytes && [UPLOAD_EXIT.server, UPLOAD_EXIT.rateLimited, UPLOAD_EXIT.internal].includes(code as 1);
      err(
        `hangar upload: ${message}\n${fields ? `  fields: ${fields}\n` : ""}${advice ? `  ${advice}\n` : ""}` +
          (resumable ? "  the parts stored so far are kept: run the same command again to resume the upload\n" : ""),
      );
      if (code === UPLOAD_EXIT.internal && error instanceof Error && error.stack && opts.verbose) err(`${error.stack}\n`);
    }
    const exitCode = code === UPLOAD_EXIT.interrupted && stoppedBy === "SIGTERM" ? UPLOAD_EXIT.terminated : code;
    if (opts.json) out(`${JSON.stringify({ error: errorJson(error, exitCode) })}\n`);
    return exitCode;
  } finally {
    if (!io.signal) {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  }
}

/** The local check's refusal (check-package.ts, loaded only when it runs: no instanceof here). */
function isRefusedPackage(error: unknown): error is PackageRefusedError {
  return error instanceof Error && error.name === "PackageRefusedError";
}

/** Error messages start with their step ("presign: 503 …"); the retry line names the step already. */
function withoutStep(message: string, step: UploadStep): string {
  return message.startsWith(`${step}: `) ? message.slice(step.length + 2) : message;
}

/**
 * The `fields` of an error body, for a person: the service sends `[{field, message}]`; older
 * services sent a list of names. Entries the message already says are left out; a server's
 * list is bounded (10 entries, 200 characters each) before it reaches a log.
 */
export function describeFields(fields: unknown, message: string): string | undefined {
  if (!Array.isArray(fields)) return undefined;
  const cut = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);
  const parts: string[] = [];
  for (const entry of fields.slice(0, 10)) {
    let text: string | undefined;
    if (typeof entry === "string") text = entry;
    else if (typeof entry === "object" && entry !== null) {
      const { field, message: why } = entry as { field?: unknown; message?: unknown };
      const name = typeof field === "string" && field !== "" ? field : "body";
      text = typeof why === "string" && why !== "" ? `${name}: ${why}` : name;
    }
    if (text !== undefined && !message.includes(text)) parts.push(cut(text));
  }
  if (fields.length > 10) parts.push(`and ${fields.length - 10} more`);
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** Values given to --client-secret (both `--client-secret x` and `--client-secret=x`). */
function secretArguments(args: string[]): string[] {
  const found: string[] = [];
  args.forEach((arg, i) => {
    if (arg === "--client-secret" && args[i + 1] !== undefined) found.push(args[i + 1]!);
    else if (arg.startsWith("--client-secret=")) found.push(arg.slice("--client-secret=".length));
  });
  return found;
}

export const uploadCommand: Command = {
  name: "upload",
  summary: "Upload an APK or IPA to Hangar and print its share and download links",
  run: (args, io) => run(args, io),
};

export { run as runUpload, HELP as UPLOAD_HELP };
