import {
  HangarApiError,
  anySignal,
  putFile,
  storageRefusal
} from "./chunk-3VOYXSK4.js";
import {
  crc32,
  zlib_compat_exports
} from "./chunk-AEPEW2SX.js";
import "./chunk-LM7JBYQ3.js";

// src/client/multipart-upload.ts
import { createHash } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
var START_PATH = "/api/upload/api-key/multipart";
var PARTS_PATH = "/api/upload/api-key/multipart/parts";
var COMPLETE_PATH = "/api/upload/api-key/complete";
var MAX_BATCH = 1e3;
var FIRST_BATCH_BYTES = 64 << 20;
var READ_BYTES = 1 << 20;
var STATE_VERSION = 2;
var base64Crc = (crc) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc >>> 0);
  return bytes.toString("base64");
};
var isRecord = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function invalidAnswer(step, message) {
  return new HangarApiError({ step, status: 200, code: "invalid_response", message });
}
function isGone(error) {
  return error instanceof HangarApiError && error.status === 404 && (error.code === "upload_not_found" || error.step === "put" && error.code === "NoSuchUpload");
}
async function stateFileFor(job) {
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
  const id = createHash("sha256").update(JSON.stringify([job.identity, job.declared.fileName, info.size, info.mtimeMs, hash.digest("hex")])).digest("hex").slice(0, 40);
  return join(job.cacheDir, "uploads", `${id}.json`);
}
async function readState(file, declared) {
  let state;
  try {
    state = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return void 0;
  }
  if (!isRecord(state) || state.version !== STATE_VERSION || typeof state.key !== "string" || typeof state.uploadId !== "string" || typeof state.partSize !== "number" || state.fileSize !== declared.fileSize || state.fileName !== declared.fileName || !isRecord(state.done)) {
    return void 0;
  }
  return state;
}
async function uploadInParts(job) {
  const { declared } = job;
  const timings = { presignMs: 0, putMs: 0, completeMs: 0 };
  const timed = async (field, work) => {
    const from = job.now();
    try {
      return await work();
    } finally {
      timings[field] += job.now() - from;
    }
  };
  const stateFile = job.cacheDir ? await stateFileFor(job) : void 0;
  let saving = Promise.resolve();
  let unwritable = false;
  let queued;
  let directoryMade = false;
  const save = (state) => {
    if (!stateFile || unwritable) return saving;
    const alreadyQueued = queued !== void 0;
    queued = state;
    if (alreadyQueued) return saving;
    saving = saving.then(async () => {
      const text = JSON.stringify(queued);
      queued = void 0;
      if (unwritable) return;
      if (!directoryMade) await mkdir(join(job.cacheDir, "uploads"), { recursive: true, mode: 448 });
      directoryMade = true;
      await writeFile(`${stateFile}.tmp`, text, { mode: 384 });
      await rename(`${stateFile}.tmp`, stateFile);
    }).catch(() => {
      unwritable = true;
    });
    return saving;
  };
  for (let round = 0; ; round++) {
    let state = stateFile ? await readState(stateFile, declared) : void 0;
    const resumed = state !== void 0;
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
      await saving.catch(() => void 0);
      if (stateFile) await rm(stateFile, { force: true });
    } finally {
      await saving.catch(() => void 0);
    }
  }
  async function finish(state, resumed) {
    const partCount = Math.ceil(state.fileSize / state.partSize);
    const lengthOf = (n) => n < partCount ? state.partSize : state.fileSize - (partCount - 1) * state.partSize;
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
        const parts = Object.entries(state.done).map(([n, etag]) => ({ partNumber: Number(n), etag })).sort((a, b) => a.partNumber - b.partNumber);
        try {
          const completed = await timed(
            "completeMs",
            () => job.call("complete", COMPLETE_PATH, { ...declared, key: state.key, uploadId: state.uploadId, parts, ...job.context })
          );
          if (stateFile) await saving.then(() => rm(stateFile, { force: true })).catch(() => void 0);
          return { completed, timings };
        } catch (error) {
          const named = error instanceof HangarApiError && error.status === 400 ? error.details["partNumbers"] : void 0;
          const codes = ["part_missing", "part_mismatch"];
          if (redone || !(error instanceof HangarApiError) || !codes.includes(error.code) || !Array.isArray(named) || named.length === 0) throw error;
          for (const n of named) delete state.done[String(n)];
          await save(state);
        }
      }
    } finally {
      await handle.close();
    }
  }
}
async function sendParts(job, state, handle, partCount, lengthOf, save, timed) {
  const queue = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => state.done[String(n)] === void 0);
  const resumedBytes = Object.keys(state.done).reduce((sum, n) => sum + lengthOf(Number(n)), 0);
  let storedBytes = resumedBytes;
  const inFlight = /* @__PURE__ */ new Map();
  const report = () => {
    let sent = storedBytes;
    for (const bytes of inFlight.values()) sent += bytes;
    job.onProgress?.({ sentBytes: sent, totalBytes: state.fileSize, resumedBytes });
  };
  report();
  if (queue.length === 0) return;
  job.onStep?.("put");
  const checksums = /* @__PURE__ */ new Map();
  const urls = /* @__PURE__ */ new Map();
  const hashBuffer = Buffer.allocUnsafe(READ_BYTES);
  const checksumOf = async (n) => {
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
  let urlLock = Promise.resolve();
  let batchSize = Math.max(job.parallel, Math.min(MAX_BATCH, job.parallel * 2, Math.floor(FIRST_BATCH_BYTES / state.partSize)));
  let cursor = 0;
  let partsSent = 0;
  let prefetching = false;
  const sendingSince = job.now();
  const waiting = /* @__PURE__ */ new Set();
  const needsUrl = (m) => {
    const url = urls.get(m);
    return !url || job.now() >= url.usableUntil;
  };
  const fetchBatch = (first) => {
    const next = urlLock.then(async () => {
      if (first !== void 0 && !needsUrl(first)) return;
      const batch = first !== void 0 ? [first] : [];
      for (const m of waiting) if (batch.length < batchSize && m !== first && needsUrl(m)) batch.push(m);
      for (let i = cursor; i < queue.length && batch.length < batchSize; i++) {
        const m = queue[i];
        if (m !== first && needsUrl(m)) batch.push(m);
      }
      if (batch.length === 0) return;
      const partChecksums = [];
      for (const m of batch) partChecksums.push({ partNumber: m, checksumCRC32: await checksumOf(m) });
      const answer = await timed("presignMs", () => job.call("presign", PARTS_PATH, { key: state.key, uploadId: state.uploadId, partChecksums }, false));
      if (!isRecord(answer) || !Array.isArray(answer.parts) || typeof answer.expireAt !== "string") {
        throw invalidAnswer("presign", "the parts answer lacks parts or expireAt");
      }
      const expiry = Date.parse(answer.expireAt);
      const lifetime = Number.isNaN(expiry) ? 6e4 : Math.max(0, expiry - Date.now());
      const askedAt = job.now();
      const usableUntil = askedAt + lifetime - Math.min(3e4, lifetime / 3);
      for (const part of answer.parts) {
        if (isRecord(part) && typeof part.partNumber === "number" && typeof part.uploadUrl === "string" && /^https?:\/\//i.test(part.uploadUrl)) {
          urls.set(part.partNumber, { url: part.uploadUrl, usableUntil });
        }
      }
      const perPartMs = partsSent > 0 ? (job.now() - sendingSince) / partsSent : void 0;
      if (perPartMs !== void 0 && perPartMs > 0) {
        const affordable = Math.floor((usableUntil - askedAt) / 2 / perPartMs);
        batchSize = Math.max(job.parallel, Math.min(MAX_BATCH, 2 * batchSize, affordable));
      }
    });
    urlLock = next.catch(() => void 0);
    return next;
  };
  const prefetch = () => {
    if (prefetching) return;
    let ready = 0;
    let lacking = false;
    for (let i = cursor; i < queue.length && ready < batchSize / 2; i++) {
      if (needsUrl(queue[i])) lacking = true;
      else ready += 1;
    }
    if (!lacking || ready >= batchSize / 2) return;
    prefetching = true;
    void fetchBatch().catch(() => void 0).finally(() => prefetching = false);
  };
  const urlFor = async (n) => {
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
  const stop = new AbortController();
  const signal = anySignal([job.signal, stop.signal]);
  let failure;
  const sendPart = (n) => job.retrying("put", async () => {
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
        }
      });
    } finally {
      inFlight.delete(n);
    }
    if (answer.status !== 200) {
      report();
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
    void save(state);
  });
  const worker = async () => {
    while (!failure && cursor < queue.length) {
      const n = queue[cursor++];
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
export {
  uploadInParts
};
