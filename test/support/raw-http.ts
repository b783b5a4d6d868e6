import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given (no URL normalisation, no header checks: `fetch` would clean up
 * `..`, refuse bad headers or fix framing) and reads the answer until the server closes.
 * Send `Connection: close`, or expect the server to close (errors it answers itself).
 */
export function rawRequest(url: string, request: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on("data", (d) => chunks.push(d));
    // The server may answer (and close) before it has read everything we send.
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (chunks.length && (error.code === "ECONNRESET" || error.code === "EPIPE")) return;
      reject(error);
    });
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      if (split < 0) return reject(new Error(`no complete answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = text.slice(split + 4);
      if (headers["content-length"] !== undefined) body = body.slice(0, Number(headers["content-length"]));
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: Buffer.from(body, "latin1").toString("utf8") });
    });
    socket.write(request);
  });
}

/** A GET (or other method) of a raw, unnormalised request target. */
export const rawGet = (url: string, target: string, method = "GET", headers: Record<string, string> = {}) =>
  rawRequest(
    url,
    `${method} ${target} HTTP/1.1\r\nHost: ${new URL(url).host}\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("") +
      "Connection: close\r\n\r\n",
  );
