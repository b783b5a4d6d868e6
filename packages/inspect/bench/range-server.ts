/**
 * A minimal S3-shaped HTTP server over local files (GET/HEAD with Range, path-style
 * /<bucket>/<key>, no auth) so the benchmark can run the service's real read path — the AWS SDK
 * and S3RangeReader for Hangar, a full GetObject download for app-info-parser — on localhost.
 */
import { createReadStream } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RangeServer {
  endpoint: string;
  /** Objects by key; the bucket name is ignored. */
  files: Map<string, { path: string; size: number }>;
  close(): Promise<void>;
}

export async function startRangeServer(): Promise<RangeServer> {
  const files = new Map<string, { path: string; size: number }>();
  const server = createServer((req, res) => {
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
    createReadStream(file.path, { start, end }).pipe(res);
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
