import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction, type Socket } from "node:net";
import { refusalOf } from "./address-policy";

/**
 * The one way webhook deliveries leave the service: a POST to a URL a workspace member typed,
 * guarded against server-side request forgery (address-policy.ts says what is refused and why).
 *
 * - https only, unless the local stack allows http (`allowHttp`); no other scheme at all.
 * - The name is resolved here, every address it resolves to is checked, and the connection is
 *   made to those checked addresses (the request's `lookup` hands them back instead of asking
 *   DNS again), so a name that answers a public address to the check and a private one to the
 *   connect (DNS rebinding) cannot pass. An IP literal is checked the same way.
 * - The connected socket's remote address is checked again before a byte is written.
 * - Redirects are not followed (a 3xx is an answer like any other non-2xx); the answer is read
 *   up to 64 KB; the whole exchange has 10 s.
 *
 * The alternative of `fetch` (undici) was rejected: it offers no hook between resolution and
 * connect short of a custom dispatcher, and it follows redirects unless told otherwise.
 */

export interface OutboundPolicy {
  /** http:// receivers (local stack only; HANGAR_WEBHOOK_ALLOW_LOOPBACK). */
  allowHttp: boolean;
  /** 127.0.0.1 and ::1 (local stack only). Private, link-local and metadata addresses stay refused. */
  allowLoopback: boolean;
  /** DNS, replaceable in tests (a name that resolves to loopback without any real DNS). */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  timeoutMs?: number;
}

export interface OutboundResult {
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  latencyMs: number;
  /** The answer's body as read (at most MAX_RESPONSE_BYTES), or null. */
  body: Buffer | null;
  /** Why no answer came: refused target, timeout, connection error. Null when an answer came. */
  error: string | null;
  /** True when the request never left (the target was refused before any connection). */
  refused: boolean;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export class RefusedTargetError extends Error {}

const systemResolve = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** The URL's problem for this policy, or undefined when it may be tried (before any resolution). */
export function urlRefusal(url: URL, policy: Pick<OutboundPolicy, "allowHttp">): string | undefined {
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp)) {
    return url.protocol === "http:" ? "http:// receivers are not allowed; use https://" : `${url.protocol}// is not a web address`;
  }
  if (url.username || url.password) return "a URL with a user name or password is not allowed";
  return undefined;
}

/** Every address the host resolves to, each checked; any refused one refuses the whole name. */
export async function checkedAddresses(hostname: string, policy: OutboundPolicy): Promise<LookupAddress[]> {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  const family = isIP(bare);
  const addresses = family ? [{ address: bare, family }] : await (policy.resolve ?? systemResolve)(bare);
  if (addresses.length === 0) throw new RefusedTargetError(`${bare} resolves to no address`);
  for (const { address } of addresses) {
    const reason = refusalOf(address, policy.allowLoopback);
    // The address is named: it is the member's own receiver's, and tells them what to fix.
    if (reason) throw new RefusedTargetError(`${bare} resolves to ${address}, a ${reason} address, which webhooks may not reach`);
  }
  return addresses;
}

/** A `lookup` for the request that answers the checked addresses and never asks DNS again. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean } | number, callback: (...args: unknown[]) => void) => {
    const all = typeof options === "object" && options.all;
    if (all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as LookupFunction;
}

export async function safePost(rawUrl: string, headers: Record<string, string>, body: string, policy: OutboundPolicy): Promise<OutboundResult> {
  const started = performance.now();
  const refused = (error: string): OutboundResult => ({ status: null, latencyMs: 0, body: null, error, refused: true });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refused("not a URL");
  }
  const problem = urlRefusal(url, policy);
  if (problem) return refused(problem);
  let addresses: LookupAddress[];
  try {
    addresses = await checkedAddresses(url.hostname, policy);
  } catch (error) {
    if (error instanceof RefusedTargetError) return refused(error.message);
    return { status: null, latencyMs: Math.round(performance.now() - started), body: null, error: `could not resolve ${url.hostname}: ${(error as NodeJS.ErrnoException).code ?? "error"}`, refused: false };
  }
  const timeoutMs = policy.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<OutboundResult, "latencyMs" | "refused">, wasRefused = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: Math.round(performance.now() - started), refused: wasRefused });
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "user-agent": "Hangar-Webhooks/1" },
      lookup: pinnedLookup(addresses),
      // One connection per delivery: a pooled socket would skip the connect-time check below.
      agent: false,
      ...(url.protocol === "https:" && !isIP(url.hostname.replace(/^\[|\]$/g, "")) ? { servername: url.hostname } : {}),
    });
    // Defence in depth: whatever the socket actually connected to is checked before the request
    // is written (http writes only once the socket is connected, after this listener ran).
    req.on("socket", (socket: Socket) => {
      const check = () => {
        const remote = socket.remoteAddress;
        const reason = remote === undefined ? "no remote address" : refusalOf(remote, policy.allowLoopback);
        if (reason) {
          finish({ status: null, body: null, error: `connected to ${remote ?? "?"}, a ${reason} address, which webhooks may not reach` }, true);
          req.destroy();
        }
      };
      if (socket.remoteAddress !== undefined && !socket.connecting) check();
      else socket.prependOnceListener("connect", check);
    });
    req.on("response", (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => finish({ status: res.statusCode ?? null, body: Buffer.concat(chunks), error: null });
      res.on("data", (chunk: Buffer) => {
        const room = MAX_RESPONSE_BYTES - size;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += chunk.length;
        // Enough read: the status is what counts, and a receiver cannot make us buffer more.
        if (size >= MAX_RESPONSE_BYTES) {
          done();
          res.destroy();
        }
      });
      res.on("end", done);
      res.on("error", done);
      res.on("aborted", done);
    });
    req.on("error", (error: NodeJS.ErrnoException) => finish({ status: null, body: null, error: error.code ? `${error.code}: ${error.message}` : error.message }));
    const timer = setTimeout(() => {
      finish({ status: null, body: null, error: `no answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.end(body);
  });
}
