import { Worker } from "node:worker_threads";
import type { ChecksumAlgorithm } from "./checksums";

/** The flexible checksums Node computes natively: CRC32 (zlib) and SHA-1 / SHA-256 (OpenSSL). */
export type NativeChecksum = Exclude<ChecksumAlgorithm, "crc32c">;

export function isNativeChecksum(algorithm: ChecksumAlgorithm): algorithm is NativeChecksum {
  return algorithm !== "crc32c";
}

/*
 * Base64 checksums of a received body's file, taken by a worker thread once the body is on disk,
 * instead of on the store's one JavaScript thread while the body streams in. On loopback that
 * thread is what an upload waits for (socket reads, MD5 for the ETag, file writes), and a multipart
 * part's CRC32 was 0.22–0.35 s of its CPU per GiB that a single PUT without a checksum does not
 * pay: the CLI's parts lost that much against curl's PUT. Read back from the page cache on another
 * core, a 64 MiB part's CRC32 takes ~25 ms while the other parts in flight keep streaming; the
 * thread's own cost is one message each way per body.
 *
 * Rejected: sending each chunk to the worker as it arrives (a copy and a message per 64 KiB chunk
 * cost the thread about what the CRC32 did); MD5 here too (a single PUT would then answer seconds
 * after its last byte, its hash no longer overlapping the transfer). CRC32C stays in the stream:
 * its one implementation is Hangar's TypeScript, which a worker evaluated from source cannot load.
 *
 * The worker is started on first use and started again after a crash; it keeps the process alive
 * only while it has work (ref'd then, unref'd when idle: listeners on a Worker ref it again, so
 * the state is set per request). It reads with one 1 MiB buffer: memory is flat at any size.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { closeSync, openSync, readSync } = require("node:fs");
const { createHash } = require("node:crypto");
const { crc32 } = require("node:zlib");
const buffer = Buffer.allocUnsafe(1 << 20);
parentPort.on("message", ({ id, path, algorithms }) => {
  try {
    const sums = algorithms.map((algorithm) => (algorithm === "crc32" ? { crc: 0 } : { hash: createHash(algorithm) }));
    const fd = openSync(path, "r");
    try {
      for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
        const chunk = buffer.subarray(0, n);
        for (const sum of sums) {
          if (sum.hash) sum.hash.update(chunk);
          else sum.crc = crc32(chunk, sum.crc);
        }
      }
    } finally {
      closeSync(fd);
    }
    const digests = sums.map((sum) => {
      if (sum.hash) return sum.hash.digest("base64");
      const out = Buffer.alloc(4);
      out.writeUInt32BE(sum.crc >>> 0);
      return out.toString("base64");
    });
    parentPort.postMessage({ id, digests });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Pending {
  resolve: (digests: string[]) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function checksumWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.on("message", (message: { id: number; digests?: string[]; error?: string }) => {
    const request = pending.get(message.id);
    if (!request) return;
    pending.delete(message.id);
    if (pending.size === 0) started.unref();
    if (message.digests) request.resolve(message.digests);
    else request.reject(new Error(`checksum worker: ${message.error ?? "no answer"}`));
  });
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };
  started.on("error", fail);
  started.on("exit", (code) => fail(new Error(`checksum worker exited with ${code}`)));
  worker = started;
  return started;
}

/** The base64 checksums of the file at `path` under each algorithm, in the order given. */
export function fileChecksums(path: string, algorithms: readonly NativeChecksum[]): Promise<string[]> {
  if (algorithms.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    const running = checksumWorker();
    running.ref();
    running.postMessage({ id, path, algorithms });
  });
}
