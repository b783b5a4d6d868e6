import { request } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request whose headers and body bytes the test controls exactly (fetch would fix Content-Length itself). */
export function rawRequest(
  url: string,
  options: { method: string; headers?: Record<string, string | number>; body?: Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Sends the headers and part of the body, then drops the connection, like a CI runner killed mid-upload. */
export function abortedUpload(url: string, headers: Record<string, string | number>, partialBody: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { method: "PUT", headers });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(partialBody, () => {
      // Give the server the bytes before the connection goes away.
      setTimeout(() => req.destroy(), 50);
    });
  });
}

export function errorCode(xml: string): string | undefined {
  return /<Code>([^<]*)<\/Code>/.exec(xml)?.[1];
}

export function errorMessage(xml: string): string | undefined {
  return /<Message>([^<]*)<\/Message>/.exec(xml)?.[1];
}
