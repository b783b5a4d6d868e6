/**
 * A big build in parts (the API's multipart flow, README "Multipart uploads"): parallel, retried
 * part by part, resumable after the process is killed. Loaded only for a file past the threshold,
 * so `hangar --version` and small uploads never parse it.
 *
 * Checksums before URLs: every part URL signs the part's CRC32, so parts are hashed in batches
 * just ahead of the workers that send them (never the whole file before the first byte goes out),
 * and each batch's URLs are asked for in one request. Part URLs may live only seconds, so a batch
 * is sized to what the workers send well within one URL's life, a URL near its expiry is replaced
 * before use, and a 403 (expired after all) gets a fresh one on the retry. CRC32 rather than the
 * API's default CRC32C: Node's zlib.crc32 is native (several GB/s), CRC32C here would be JavaScript
 * at ~1 GB/s, a second of CPU per GiB that kept a loopback upload well behind curl's single PUT
 * (the bundle's fallback on a Node without zlib.crc32 is JavaScript either way).
 *
 * Resume: a small JSON state file per (service, key, file) in the user's cache directory records
 * the upload id and each stored part's ETag as it is stored. The API has no ListParts route, so
 * the file is trusted; complete names any part it does not hold (`part_missing`/`part_mismatch`),
 * and those are sent again, once. An upload the service no longer knows (404 `upload_not_found`,
 * or storage's `NoSuchUpload`) starts over. Rejected: one state file per cache holding every
 * upload (two CI jobs on one runner would race on it).
 */
import { createHash } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, writeFile, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { BuildContext, PresignRequest } from "./api-types";
import { anySignal } from "./any-signal";
import { HangarApiError, type UploadStep } from "./client-errors";
import { putFile, storageRefusal } from "./put-file";

const START_PATH = "/api/upload/api-key/multipart";
const PARTS_PATH = "/api/upload/api-key/multipart/parts";
const COMPLETE_PATH = "/api/upload/api-key/complete";
/** The parts route takes at most this many checksums per request. */
const MAX_BATCH = 1000;
/**
 * The first batch of URLs is at most this many bytes of parts (but one part per worker): nothing
 * goes out before its parts are hashed, and large files come in 64 MiB parts (8 of them, the
 * usual first batch, were 512 MiB to read and hash before the first byte).
 */
const FIRST_BATCH_BYTES = 64 << 20;
/** Read size of the CRC pass and of the fast hash: one reused buffer. */
const READ_BYTES = 1 << 20;
/** 2: uploads started with CRC32 parts (a version-1 state names a CRC32C upload, which starts over). */
const STATE_VERSION = 2;

export interface PartsProgress {
  sentBytes: number;
  totalBytes: number;
  /** Bytes of parts stored by an earlier run (not sent now: they do not count towards the rate). */
  resumedBytes: number;
}

export interface PartsJob {
  path: string;
  declared: PresignRequest;
  context?: BuildContext | undefined;
  parallel: number;
  /** Directory of the resume state (the CLI's cache directory); none: no resume. */
  cacheDir?: string | undefined;
  /** Service address and client id: a state file belongs to one key on one service. */
  identity: string;
  signal: AbortSignal;
  stallTimeoutMs: number;
  now(): number;
  /**
   * A JSON call to the service, retried by the client's policy (a 200's parsed body, else a typed
   * error). `announce: false`: not reported through onStep (part URLs fetched while parts are sent).
   */
  call(step: UploadStep, path: string, body: unknown, announce?: boolean): Promise<unknown>;
  /** Runs `attempt` under the client's retry policy. */
  retrying<T>(step: UploadStep, attempt: () => Promise<T>): Promise<T>;
  onProgress?: ((progress: PartsProgress) => void) | undefined;
  onStep?: ((step: UploadStep) => void) | undefined;
  onResume?: ((resume: { storedParts: number; partCount: number; storedBytes: number }) => void) | undefined;
}

export interface PartsOutcome {
  /** complete's parsed answer. */
  completed: unknown;
  timings: { presignMs: number; putMs: number; completeMs: number };
}

interface State {
  version: number;
  key: string;
  uploadId: string;
  partSize: number;
  fileSize: number;
  fileName: string;
  /** Stored parts: part number → the ETag its PUT answered. */
  done: Record<string, string>;
}

const base64Crc = (crc: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc >>> 0);
  return bytes.toString("base64");
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function invalidAnswer(step: UploadStep, message: string): HangarApiError {
  return new HangarApiError({ step, status: 200, code: "invalid_response", message });
}

/** The upload is gone on the service's side: start over rather than fail. */
function isGone(error: unknown): boolean {
  return (
    error instanceof HangarApiError &&
    error.status === 404 &&
    (error.code === "upload_not_found" || (error.step === "put" && error.code === "NoSuchUpload"))
  );
}

/**
 * Size, mtime and a SHA-256 of the first and last MiB: the same file is recognized without reading
 * gigabytes, and a rebuilt one (new mtime, new bytes at either end) is not.
 */
async function stateFileFor(job: PartsJob): Promise<string> {
  const info = await stat(job.path);
  const hash = createHash("sha256");
  const handle = await open(job.path);
  try {
    const buffer = Buffer.alloc(Math.min(READ_BYTES, info.size));
    for (const at of [0, Math.max(0, info.size - READ_BYTES)]) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  const id = createHash("sha256")
    .update(JSON.stringify([job.identity, job.declared.fileName, info.size, info.mtimeMs, hash.digest("hex")]))
    .digest("hex")
    .slice(0, 40);
  return join(job.cacheDir!, "uploads", `${id}.json`);
}

async function readState(file: string, declared: PresignRequest): Promise<State | undefined> {
  let state: unknown;
  try {
    state = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return undefined;
  }
  if (
    !isRecord(state) ||
    state.version !== STATE_VERSION ||
    typeof state.key !== "string" ||
    typeof state.uploadId !== "string" ||
    typeof state.partSize !== "number" ||
    state.fileSize !== declared.fileSize ||
    state.fileName !== declared.fileName ||
    !isRecord(state.done)
  ) {
    return undefined;
  }
  return state as unknown as State;
}

/** Sends the parts the state lacks, then completes; the answer of complete. */
export async function uploadInParts(job: PartsJob): Promise<PartsOutcome> {
  const { declared } = job;
  const timings = { presignMs: 0, putMs: 0, completeMs: 0 };
  const timed = async <T>(field: keyof typeof timings, work: () => Promise<T>): Promise<T> => {
    const from = job.now();
    try {
      return await work();
    } finally {
      timings[field] += job.now() - from;
    }
  };
  const stateFile = job.cacheDir ? await stateFileFor(job) : undefined;

  // Writes go one after another, each whole (temporary file, then rename): a kill leaves either
  // the previous state or the new one, never half of one. A cache directory that cannot be
  // written costs the resume, not the upload: writing stops at the first failure. Saves asked
  // for while a write is queued are that write: it takes the state as it is when it starts, so
  // parts stored in a burst cost one write, not one each (at 256 parts for 2 GiB a write per
  // part cost ~0.2 s of CPU, and workers waiting for it sat idle). A state a write or two
  // behind only means a resumed run sends those parts again.
  let saving: Promise<void> = Promise.resolve();
  let unwritable = false;
  let queued: State | undefined;
  let directoryMade = false;
  const save = (state: State) => {
    if (!stateFile || unwritable) return saving;
    const alreadyQueued = queued !== undefined;
    queued = state;
    if (alreadyQueued) return saving;
    saving = saving
      .then(async () => {
        const text = JSON.stringify(queued);
        queued = undefined;
        if (unwritable) return;
        if (!directoryMade) await mkdir(join(job.cacheDir!, "uploads"), { recursive: true, mode: 0o700 });
        directoryMade = true;
        await writeFile(`${stateFile}.tmp`, text, { mode: 0o600 });
        await rename(`${stateFile}.tmp`, stateFile);
      })
      .catch(() => {
        unwritable = true;
      });
    return saving;
  };

  for (let round = 0; ; round++) {
    let state = stateFile ? await readState(stateFile, declared) : undefined;
    const resumed = state !== undefined;
    if (!state) {
      const started = await timed("presignMs", () => job.call("presign", START_PATH, { ...declared, checksumAlgorithm: "CRC32" }));
      if (!isRecord(started) || typeof started.key !== "string" || typeof started.uploadId !== "string" || typeof started.partSize !== "number" || started.partSize <= 0) {
        throw invalidAnswer("presign", "the multipart answer lacks key, uploadId or partSize");
      }
      state = { version: STATE_VERSION, key: started.key, uploadId: started.uploadId, partSize: started.partSize, fileSize: declared.fileSize, fileName: declared.fileName, done: {} };
      await save(state);
    }
    try {
      return await finish(state, resumed);
    } catch (error) {
      if (!(resumed && round === 0 && isGone(error))) throw error;
      // The upload of the state file is gone (aborted, expired, or never there): a new one. (A
      // write still queued would bring the old state back.)
      await saving.catch(() => undefined);
      if (stateFile) await rm(stateFile, { force: true });
    } finally {
      await saving.catch(() => undefined);
    }
  }

  async function finish(state: State, resumed: boolean): Promise<PartsOutcome> {
    const partCount = Math.ceil(state.fileSize / state.partSize);
    const lengthOf = (n: number) => (n < partCount ? state.partSize : state.fileSize - (partCount - 1) * state.partSize);
    for (const n of Object.keys(state.done)) if (!(Number(n) >= 1 && Number(n) <= partCount)) delete state.done[n];
    if (resumed) {
      const stored = Object.keys(state.done).map(Number);
      job.onResume?.({ storedParts: stored.length, partCount, storedBytes: stored.reduce((sum, n) => sum + lengthOf(n), 0) });
    }
    const handle = await open(job.path);
    try {
      for (let redone = false; ; redone = true) {
        const presignBefore = timings.presignMs;
        const from = job.now();
        await sendParts(job, state, handle, partCount, lengthOf, save, timed);
        timings.putMs += Math.max(0, job.now() - from - (timings.presignMs - presignBefore));
        const parts = Object.entries(state.done)
          .map(([n, etag]) => ({ partNumber: Number(n), etag }))
          .sort((a, b) => a.partNumber - b.partNumber);
        try {
          const completed = await timed("completeMs", () =>
            job.call("complete", COMPLETE_PATH, { ...declared, key: state.key, uploadId: state.uploadId, parts, ...job.context }),
          );
          if (stateFile) await saving.then(() => rm(stateFile, { force: true })).catch(() => undefined);
          return { completed, timings };
        } catch (error) {
          const named = error instanceof HangarApiError && error.status === 400 ? error.details["partNumbers"] : undefined;
          const codes = ["part_missing", "part_mismatch"];
          if (redone || !(error instanceof HangarApiError) || !codes.includes(error.code) || !Array.isArray(named) || named.length === 0) throw error;
          // The state file said stored, the service says not (or not these bytes): send those again.
          for (const n of named) delete state.done[String(n)];
          await save(state);
        }
      }
    } finally {
      await handle.close();
    }
  }
}

/** Sends every part not in `state.done`, `job.parallel` at a time; resolves once all are stored. */
async function sendParts(
  job: PartsJob,
  state: State,
  handle: FileHandle,
  partCount: number,
  lengthOf: (n: number) => number,
  save: (state: State) => Promise<void>,
  timed: <T>(field: "presignMs", work: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const queue = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => state.done[String(n)] === undefined);
  const resumedBytes = Object.keys(state.done).reduce((sum, n) => sum + lengthOf(Number(n)), 0);
  let storedBytes = resumedBytes;
  const inFlight = new Map<number, number>();
  const report = () => {
    let sent = storedBytes;
    for (const bytes of inFlight.values()) sent += bytes;
    job.onProgress?.({ sentBytes: sent, totalBytes: state.fileSize, resumedBytes });
  };
  report();
  if (queue.length === 0) return;
  job.onStep?.("put");

  const checksums = new Map<number, string>();
  const urls = new Map<number, { url: string; usableUntil: number }>();
  const hashBuffer = Buffer.allocUnsafe(READ_BYTES);
  const checksumOf = async (n: number) => {
    const known = checksums.get(n);
    if (known) return known;
    const start = (n - 1) * state.partSize;
    const length = lengthOf(n);
    let crc = 0;
    for (let done = 0; done < length; ) {
      const { bytesRead } = await handle.read(hashBuffer, 0, Math.min(READ_BYTES, length - done), start + done);
      if (bytesRead === 0) throw invalidAnswer("put", `${job.path} is shorter than announced`);
      crc = crc32(hashBuffer.subarray(0, bytesRead), crc);
      done += bytesRead;
    }
    const value = base64Crc(crc);
    checksums.set(n, value);
    return value;
  };

  // One URL request at a time (the others wait for it and usually find their URL in its answer).
  let urlLock: Promise<unknown> = Promise.resolve();
  let batchSize = Math.max(job.parallel, Math.min(MAX_BATCH, job.parallel * 2, Math.floor(FIRST_BATCH_BYTES / state.partSize)));
  let cursor = 0;
  let partsSent = 0;
  let prefetching = false;
  const sendingSince = job.now();
  /** Parts whose worker waits in urlFor. */
  const waiting = new Set<number>();
  const needsUrl = (m: number) => {
    const url = urls.get(m);
    return !url || job.now() >= url.usableUntil;
  };
  /** URLs for part `first` (when given and still needed) and the next unassigned parts lacking one. */
  const fetchBatch = (first?: number): Promise<void> => {
    const next = urlLock.then(async () => {
      if (first !== undefined && !needsUrl(first)) return;
      const batch = first !== undefined ? [first] : [];
      // Parts other workers already took and wait for go first: at the start all of them wait
      // for the first batch, and batches starting past their parts made them wait for one
      // request (and its hashing) each, one after another.
      for (const m of waiting) if (batch.length < batchSize && m !== first && needsUrl(m)) batch.push(m);
      for (let i = cursor; i < queue.length && batch.length < batchSize; i++) {
        const m = queue[i]!;
        if (m !== first && needsUrl(m)) batch.push(m);
      }
      if (batch.length === 0) return;
      const partChecksums: { partNumber: number; checksumCRC32: string }[] = [];
      for (const m of batch) partChecksums.push({ partNumber: m, checksumCRC32: await checksumOf(m) });
      const answer = await timed("presignMs", () => job.call("presign", PARTS_PATH, { key: state.key, uploadId: state.uploadId, partChecksums }, false));
      if (!isRecord(answer) || !Array.isArray(answer.parts) || typeof answer.expireAt !== "string") {
        throw invalidAnswer("presign", "the parts answer lacks parts or expireAt");
      }
      const expiry = Date.parse(answer.expireAt);
      const lifetime = Number.isNaN(expiry) ? 60_000 : Math.max(0, expiry - Date.now());
      // Storage checks expiry when a PUT starts: keep a third of the life (at most 30 s) for clock
      // skew and a slow connect.
      const askedAt = job.now();
      const usableUntil = askedAt + lifetime - Math.min(30_000, lifetime / 3);
      for (const part of answer.parts as unknown[]) {
        if (isRecord(part) && typeof part.partNumber === "number" && typeof part.uploadUrl === "string" && /^https?:\/\//i.test(part.uploadUrl)) {
          urls.set(part.partNumber, { url: part.uploadUrl, usableUntil });
        }
      }
      // Next batch: what the workers send in half a URL's usable life at the pace so far, but at
      // most twice this one. Hashing a batch takes longer than sending the half batch still in
      // hand when it starts once the batch is much bigger: on a fast link (loopback) a jump from
      // 8 parts to 1,000 left the workers idle for as long as hashing the whole file took.
      const perPartMs = partsSent > 0 ? (job.now() - sendingSince) / partsSent : undefined;
      if (perPartMs !== undefined && perPartMs > 0) {
        const affordable = Math.floor((usableUntil - askedAt) / 2 / perPartMs);
        batchSize = Math.max(job.parallel, Math.min(MAX_BATCH, 2 * batchSize, affordable));
      }
    });
    urlLock = next.catch(() => undefined);
    return next;
  };
  /**
   * Hashing a batch and asking for its URLs happens while the workers still have URLs to use:
   * once fewer than half a batch of the coming parts hold one, the next batch is fetched in the
   * background. Its failure is not fatal: a worker lacking a URL asks again (and reports that).
   */
  const prefetch = () => {
    if (prefetching) return;
    let ready = 0;
    let lacking = false;
    for (let i = cursor; i < queue.length && ready < batchSize / 2; i++) {
      if (needsUrl(queue[i]!)) lacking = true;
      else ready += 1;
    }
    if (!lacking || ready >= batchSize / 2) return;
    prefetching = true;
    void fetchBatch()
      .catch(() => undefined)
      .finally(() => (prefetching = false));
  };
  const urlFor = async (n: number): Promise<string> => {
    // A part whose URL is in hand goes at once, not after the batch being hashed in the background.
    if (needsUrl(n)) {
      waiting.add(n);
      try {
        await fetchBatch(n);
      } finally {
        waiting.delete(n);
      }
    }
    const url = urls.get(n);
    if (!url) throw invalidAnswer("presign", `the parts answer has no URL for part ${n}`);
    prefetch();
    return url.url;
  };

  // The first failure stops the other workers (their PUTs are aborted) and is what the caller sees.
  const stop = new AbortController();
  const signal = anySignal([job.signal, stop.signal]);
  let failure: { error: unknown } | undefined;

  const sendPart = (n: number) =>
    job.retrying("put", async () => {
      if (failure) throw failure.error;
      const url = await urlFor(n);
      inFlight.set(n, 0);
      let answer;
      try {
        answer = await putFile({
          url,
          path: job.path,
          offset: (n - 1) * state.partSize,
          size: lengthOf(n),
          signal,
          stallTimeoutMs: job.stallTimeoutMs,
          expectContinue: false,
          onProgress: (sent) => {
            inFlight.set(n, sent);
            report();
          },
        });
      } finally {
        inFlight.delete(n);
      }
      if (answer.status !== 200) {
        report();
        // Expired (or otherwise refused): the retry asks for a fresh URL.
        if (answer.status === 403) urls.delete(n);
        throw storageRefusal(answer, job.now());
      }
      const etag = answer.headers.etag;
      if (typeof etag !== "string" || etag === "") throw invalidAnswer("put", `storage answered part ${n} without an ETag`);
      state.done[String(n)] = etag;
      storedBytes += lengthOf(n);
      partsSent += 1;
      urls.delete(n);
      report();
      // Not awaited: the next part goes while the state is written (the caller waits for the
      // last write before it completes or gives up).
      void save(state);
    });

  const worker = async () => {
    while (!failure && cursor < queue.length) {
      const n = queue[cursor++]!;
      try {
        await sendPart(n);
      } catch (error) {
        failure ??= { error };
        stop.abort(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(job.parallel, queue.length) }, worker));
  if (failure) throw failure.error;
}
