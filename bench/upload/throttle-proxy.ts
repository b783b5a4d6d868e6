/**
 * A TCP proxy on 127.0.0.1 that caps each accepted connection, each way, at a fixed rate: the
 * "capped link" of `npm run bench:upload`. A connection from a CI runner to S3 over a long path
 * behaves this way (TCP's window over the round trip caps one flow, while parallel flows each
 * get their share), and this kernel has neither the `fq` nor the `netem` qdisc, so `tc` cannot
 * cap one flow here (docs: verified facts). Bytes pass through unchanged, so SigV4 still holds
 * for a URL signed for the proxy's address (the stack's HANGAR_S3_PROXY_URL).
 *
 * Each direction of each connection is a token bucket: a chunk is passed on at once and the next
 * one waits until the bucket has refilled what the chunk took. The debt carries over and a late
 * timer is made up for, so timer granularity on a busy machine costs no throughput.
 */
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";

export interface ThrottleProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Connections accepted so far (a check that the traffic went through the proxy). */
  connections(): number;
  close(): Promise<void>;
}

/** Passes chunks on at no more than `bytesPerSecond` on average. */
class TokenBucket extends Transform {
  /** Bytes that may pass now; negative: owed. Starts empty, so no connection begins with a burst. */
  private tokens = 0;
  private last = process.hrtime.bigint();
  /**
   * The most an idle moment may save up: 100 ms of the rate. It makes up for a timer that fired
   * late (so the average holds on a busy machine) without letting a connection run uncapped.
   */
  private readonly burst: number;

  constructor(private readonly bytesPerSecond: number) {
    super();
    this.burst = bytesPerSecond / 10;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const now = process.hrtime.bigint();
    this.tokens = Math.min(this.burst, this.tokens + (Number(now - this.last) / 1e9) * this.bytesPerSecond);
    this.last = now;
    this.tokens -= chunk.length;
    this.push(chunk);
    // The next chunk is taken once this one's bytes have been paid for.
    if (this.tokens >= 0) callback();
    else setTimeout(callback, (-this.tokens / this.bytesPerSecond) * 1000);
  }
}

export async function startThrottleProxy(options: { target: { host: string; port: number }; bytesPerSecond: number }): Promise<ThrottleProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  // Half-open allowed: a client that has sent its whole request still reads the answer.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    accepted += 1;
    const upstream = createConnection({ ...options.target, allowHalfOpen: true });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
      // Nagle would hold the small last segment of each chunk behind an ACK.
      socket.setNoDelay(true);
    }
    const relay = (from: Socket, to: Socket) =>
      pipeline(from, new TokenBucket(options.bytesPerSecond), to).catch(() => {
        // Either side gone: so is the connection (the client sees what it would see on a dropped link).
        client.destroy();
        upstream.destroy();
      });
    void relay(client, upstream);
    void relay(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
