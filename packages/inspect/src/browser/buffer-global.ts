/**
 * The parsers use Node's Buffer throughout (readUInt32LE, latin1/utf16le decoding, subarray
 * views). In a browser, the `buffer` package (the same API) stands in: installed as the global
 * before any parser module runs, since some build constants with Buffer.from at load (png.ts).
 * Rewriting 27 modules onto DataView was rejected: the server's hot path would change for a
 * browser-only read of a few hundred kilobytes.
 */
import { Buffer } from "buffer";

const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= Buffer;
