import http from "node:http";
import https from "node:https";

/** A service answer, whatever carried it. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text: string;
}

/** Sends one JSON POST; rejects only when there is no HTTP answer (or the signal fired). */
export type JsonPost = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<HttpAnswer>;

/** Answers bigger than this are cut (and then fail to parse): ours are a few hundred bytes. */
const MAX_ANSWER_BYTES = 1 << 20;

/**
 * The default transport, on node:http(s) rather than fetch. The first fetch in a process loads
 * undici and compiles its WebAssembly HTTP parser, which costs ~15 MB at once and a further
 * ~25 MB spike when V8 optimizes it in the background: more than the whole upload needs.
 * node:http's parser is native. Redirects are not followed (see HangarClient.post).
 */
export const nodeJsonPost: JsonPost = (url, headers, body, signal) =>
  new Promise<HttpAnswer>((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? https.request : http.request;
    const payload = Buffer.from(body, "utf8");
    const request = send(target, {
      method: "POST",
      headers: { ...headers, "Content-Length": String(payload.length) },
      signal,
    });
    request.on("error", reject);
    request.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("error", reject);
      res.on("end", () => {
        const raw = res.headers;
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? "",
          headers: {
            get: (name) => {
              const value = raw[name.toLowerCase()];
              return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
            },
          },
          text: Buffer.concat(chunks).toString("utf8").slice(0, MAX_ANSWER_BYTES),
        });
      });
    });
    request.end(payload);
  });

/** A caller-supplied fetch (tests, proxies, custom agents) as a transport. */
export function fetchJsonPost(fetchImpl: typeof fetch): JsonPost {
  return async (url, headers, body, signal) => {
    // A redirect would re-send (or silently drop) the credentials elsewhere; it is reported instead.
    const response = await fetchImpl(url, { method: "POST", headers, body, redirect: "manual", signal });
    return { status: response.status, statusText: response.statusText, headers: response.headers, text: await response.text() };
  };
}
