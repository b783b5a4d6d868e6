/**
 * A minimal S3-shaped HTTP server over local files (GET/HEAD with Range, path-style
 * /<bucket>/<key>, no auth) so the benchmark can run the service's real read path — the AWS SDK
 * and S3RangeReader for Hangar, a full GetObject download for app-info-parser — on localhost.
 */
import { createReadStream } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Transform } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Optional S3-like conditions (off by default: the default run measures, it does not model):
 * first-byte latency per request and bandwidth per connection.
 */
export interface NetworkShape {
  latencyMs: number;
  /** Megabytes per second per response; 0 = unlimited. */
  mbps: number;
}

function paced(mbps: number): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      setTimeout(() => done(null, chunk), (chunk.length / (mbps * 1e6)) * 1000);
    },
  });
}

export interface RangeServer {
  endpoint: string;
  /** Objects by key; the bucket name is ignored. */
  files: Map<string, { path: string; size: number }>;
  close(): Promise<void>;
}

export async function startRangeServer(shape: NetworkShape = { latencyMs: 0, mbps: 0 }): Promise<RangeServer> {
  const files = new Map<string, { path: string; size: number }>();
  const server = createServer(async (req, res) => {
    if (shape.latencyMs > 0) await sleep(shape.latencyMs);
    const url = new URL(req.url ?? "/", "http://localhost");
    const key = decodeURIComponent(url.pathname.split("/").slice(2).join("/"));
    const file = files.get(key);
    if (!file) {
      res.writeHead(404, { "content-type": "application/xml" }).end("<Error><Code>NoSuchKey</Code></Error>");
      return;
    }
    let start = 0;
    let end = file.size - 1;
    const range = /^bytes=(\d+)-(\d+)?$/.exec(req.headers.range ?? "");
    if (range) {
      start = Number(range[1]);
      end = Math.min(range[2] === undefined ? end : Number(range[2]), file.size - 1);
    }
    const headers = {
      "content-length": String(end - start + 1),
      "content-type": "application/octet-stream",
      "accept-ranges": "bytes",
      etag: '"bench"',
      ...(range ? { "content-range": `bytes ${start}-${end}/${file.size}` } : {}),
    };
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    const body = createReadStream(file.path, { start, end, highWaterMark: 256 * 1024 });
    if (shape.mbps > 0) body.pipe(paced(shape.mbps)).pipe(res);
    else body.pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    files,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
