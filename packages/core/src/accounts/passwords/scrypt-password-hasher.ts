import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import type { PasswordCheck, PasswordHasher } from "../../ports";

export interface ScryptParameters {
  /** log2 of N, the CPU/memory cost. */
  logN: number;
  /** Block size. */
  r: number;
  /** Parallelization. */
  p: number;
}

/**
 * OWASP Password Storage Cheat Sheet: scrypt with N = 2^17, r = 8, p = 1 as the minimum. Memory
 * per hash is 128 · N · r bytes = 128 MiB; the measured time is in docs/accounts.md.
 */
export const OWASP_SCRYPT: ScryptParameters = { logN: 17, r: 8, p: 1 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// A stored string with parameters past these is corrupt or hostile: it would cost seconds or
// gigabytes, so it is treated as not matching.
const MAX = { logN: 20, r: 32, p: 16 };
const B64 = /^[A-Za-z0-9+/]+$/;
// PHC string format: $scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt, base64 no padding>$<hash, base64 no padding>
const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,88})\$([A-Za-z0-9+/]{16,88})$/;

interface Parsed extends ScryptParameters {
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string | undefined): Parsed | undefined {
  const m = stored ? FORMAT.exec(stored) : null;
  if (!m) return undefined;
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (logN < 1 || logN > MAX.logN || r < 1 || r > MAX.r || p < 1 || p > MAX.p) return undefined;
  if (!B64.test(m[4]!) || !B64.test(m[5]!)) return undefined;
  return { logN, r, p, salt: Buffer.from(m[4]!, "base64"), hash: Buffer.from(m[5]!, "base64") };
}

/**
 * At most this many hashes at once per process; the rest wait their turn. Each takes 128 MiB
 * off-heap: on Lambda a container serves one request at a time, but the local stack runs every
 * handler in one process, where ten sign-ins at once would ask OpenSSL for 1.3 GB and fail.
 */
const MAX_CONCURRENT = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function derive(password: string, salt: Buffer, params: ScryptParameters, length: number): Promise<Buffer> {
  return gated(() => deriveNow(password, salt, params, length));
}

function deriveNow(password: string, salt: Buffer, params: ScryptParameters, length: number): Promise<Buffer> {
  const N = 2 ** params.logN;
  // Node refuses when 128·N·r exceeds maxmem (32 MiB by default): allow what the parameters need.
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const encode = (params: ScryptParameters, salt: Buffer, hash: Buffer) =>
  `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString("base64").replace(/=+$/, "")}$${hash.toString("base64").replace(/=+$/, "")}`;

/**
 * scrypt from node:crypto (OpenSSL, no native addon to ship for arm64). It runs on libuv's
 * thread pool, so a hash does not block the event loop. Passwords are NFKC-normalized here too,
 * so every path (sign-up, sign-in, change, reset) hashes the same bytes for the same password.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  private dummy: string | undefined;

  constructor(private readonly params: ScryptParameters = OWASP_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH);
    return encode(this.params, salt, await derive(password, salt, this.params, KEY_LENGTH));
  }

  async verify(password: string, stored: string | undefined): Promise<PasswordCheck> {
    const parsed = parse(stored);
    if (!parsed) {
      // Unknown user, no password yet, or a corrupt hash: the same work as a real check.
      await derive(password, this.dummySalt(), this.params, KEY_LENGTH);
      return { valid: false, needsRehash: false };
    }
    const actual = await derive(password, parsed.salt, parsed, parsed.hash.length);
    const valid = actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
    const p = this.params;
    const weaker = parsed.logN < p.logN || parsed.r < p.r || parsed.p < p.p || parsed.hash.length < KEY_LENGTH;
    return { valid, needsRehash: valid && weaker };
  }

  /** The salt of the dummy check; fixed per container, never matches anything. */
  private dummySalt(): Buffer {
    this.dummy ??= randomBytes(SALT_LENGTH).toString("base64");
    return Buffer.from(this.dummy, "base64");
  }

  /** The parameters a stored hash was made with (for tests and the benchmark). */
  static parametersOf(stored: string): ScryptParameters | undefined {
    const parsed = parse(stored);
    return parsed ? { logN: parsed.logN, r: parsed.r, p: parsed.p } : undefined;
  }
}
