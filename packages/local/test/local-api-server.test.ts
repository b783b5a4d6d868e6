import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { rawRequest } from "../../../test/support/raw-http";
import { loopbackAliasRedirect, startLocalApiServer, type Handler, type LocalApiServer } from "../src/http/local-api-server";

/**
 * The local server's own edges, with stand-in handlers: what it answers before (or instead of)
 * a function — parser errors, oversized bodies, a broken handler — and its access log.
 */
let server: LocalApiServer;
const logged: string[] = [];
let broken = false;

/** Answers like the deployed envelope: JSON, X-Request-Id from the event's request id. */
const echo: Handler = async (event: APIGatewayProxyEventV2) => {
  if (broken) throw new Error("handler exploded");
  const requestId = event.requestContext.requestId;
  return {
    statusCode: 404,
    headers: { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestId },
    body: JSON.stringify({ error: { code: "route_not_found", message: "no", requestId } }),
  };
};

beforeAll(async () => {
  server = await startLocalApiServer({
    host: "127.0.0.1",
    port: 0,
    accessLog: (line) => logged.push(line),
    handlerFor: async () => echo,
  });
});
afterAll(() => server.close());
beforeEach(() => {
  logged.length = 0;
  broken = false;
});

function expectEnvelope(reply: { headers: Record<string, string>; body: string }, code: string) {
  expect(reply.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(reply.body);
  expect(body).toEqual({ error: { code, message: expect.any(String), requestId: expect.any(String) } });
  expect(reply.headers["x-request-id"]).toBe(body.error.requestId);
  return body.error.requestId as string;
}

describe("local API server: errors it produces itself", () => {
  it("answers 431 with the JSON envelope for headers too large, and logs it without the headers", async () => {
    const reply = await rawRequest(server.url, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\n\r\n`);
    expect(reply.status).toBe(431);
    const id = expectEnvelope(reply, "headers_too_large");
    expect(logged).toEqual([`- - 431 0ms ${id}`]);
  });

  it("answers 400 with the envelope for Transfer-Encoding: chunked together with Content-Length", async () => {
    const reply = await rawRequest(
      server.url,
      "POST /api/x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    );
    expect(reply.status).toBe(400);
    expectEnvelope(reply, "bad_request");
  });

  it("answers 400 with the envelope for a request that is not HTTP", async () => {
    const reply = await rawRequest(server.url, "HELLO\r\n\r\n");
    expect(reply.status).toBe(400);
    expectEnvelope(reply, "bad_request");
  });

  it("answers 413 with the envelope, without reading the body, when Content-Length is over 10 MB", async () => {
    const reply = await rawRequest(
      server.url,
      "POST /api/upload/api-key/presign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n{}",
    );
    expect(reply.status).toBe(413);
    const id = expectEnvelope(reply, "body_too_large");
    expect(logged).toEqual([expect.stringMatching(new RegExp(`^POST /api/upload/api-key/presign 413 \\d+ms ${id.replace(/[+/=]/g, "\\$&")}$`))]);
  });

  it("answers 413 when a chunked body grows past 10 MB", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const head = Buffer.from("POST /api/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
    const parts = [head];
    for (let i = 0; i < 11; i++) parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n"));
    parts.push(Buffer.from("0\r\n\r\n"));
    const reply = await rawRequest(server.url, Buffer.concat(parts));
    expect(reply.status).toBe(413);
    expectEnvelope(reply, "body_too_large");
  });

  it("answers 502 with the envelope when a handler throws, and logs the error under the same request id", async () => {
    broken = true;
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await fetch(`${server.url}/api/anything`);
      expect(res.status).toBe(502);
      const id = expectEnvelope({ headers: Object.fromEntries(res.headers), body: await res.text() }, "internal_error");
      expect(errors).toHaveBeenCalledWith(`local server error (request ${id})`, expect.any(Error));
    } finally {
      errors.mockRestore();
    }
  });
});

describe("local API server: access log", () => {
  it("writes one line per request with method, path, status, duration and the id the client saw; never the query or headers", async () => {
    const res = await fetch(`${server.url}/share/abc?token=query-secret-123`, {
      headers: { Authorization: "Bearer header-secret-456", "X-Client-ID": "client-789" },
    });
    await res.text();
    const id = res.headers.get("x-request-id")!;
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^GET \/share\/abc 404 \d+ms /);
    expect(logged[0]!.endsWith(` ${id}`)).toBe(true);
    for (const secret of ["query-secret-123", "token", "header-secret-456", "client-789"]) expect(logged[0]).not.toContain(secret);
  });

  it("cannot be made to write a second line through the path", async () => {
    const reply = await rawRequest(server.url, "GET /api/a%0d%0aGET%20/forged%20200 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(reply.status).toBe(404);
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toMatch(/[\r\n]/);
  });
});

describe("local API server: other loopback names of the public URL", () => {
  const PUBLIC = "http://127.0.0.1:4000";
  it("redirects localhost and [::1] on the same port to the public URL, keeping the path and query", () => {
    expect(loopbackAliasRedirect("localhost:4000", "/projects/p1?x=1", PUBLIC)).toBe("http://127.0.0.1:4000/projects/p1?x=1");
    expect(loopbackAliasRedirect("[::1]:4000", "/", PUBLIC)).toBe("http://127.0.0.1:4000/");
    expect(loopbackAliasRedirect("LOCALHOST:4000", "/sign-up", PUBLIC)).toBe("http://127.0.0.1:4000/sign-up");
    expect(loopbackAliasRedirect("127.0.0.1:4000", "/", "http://localhost:4000")).toBe("http://localhost:4000/");
  });

  it("leaves the public host itself, other ports, other names and a non-loopback public URL alone", () => {
    expect(loopbackAliasRedirect("127.0.0.1:4000", "/", PUBLIC)).toBeUndefined();
    expect(loopbackAliasRedirect("localhost:4001", "/", PUBLIC)).toBeUndefined();
    expect(loopbackAliasRedirect("localhost", "/", PUBLIC)).toBeUndefined();
    expect(loopbackAliasRedirect("evil.example:4000", "/", PUBLIC)).toBeUndefined();
    expect(loopbackAliasRedirect("localhost.evil.example:4000", "/", PUBLIC)).toBeUndefined();
    expect(loopbackAliasRedirect("localhost:4000", "/", "https://hangar.example.com")).toBeUndefined();
    expect(loopbackAliasRedirect(undefined, "/", PUBLIC)).toBeUndefined();
    expect(loopbackAliasRedirect("localhost:4000", "/", undefined)).toBeUndefined();
    // A share host (HANGAR_SHARE_BASE_URL) on another loopback name is served as itself: its link cookies are its own.
    expect(loopbackAliasRedirect("localhost:4000", "/share/abc", PUBLIC, "http://localhost:4000")).toBeUndefined();
    expect(loopbackAliasRedirect("[::1]:4000", "/share/abc", PUBLIC, "http://localhost:4000")).toBe("http://127.0.0.1:4000/share/abc");
  });

  it("never sends a request anywhere but the public origin, whatever its target or Host", () => {
    for (const target of ["//evil.example/x", "http://evil.example/", "*", "", "/\\evil.example"]) {
      const location = loopbackAliasRedirect("localhost:4000", target, PUBLIC)!;
      expect(new URL(location).origin, target).toBe(PUBLIC);
    }
    for (const host of ["user@localhost:4000", "localhost:4000@evil.example", "localhost:4000/x", "%00", "a".repeat(400)]) {
      const location = loopbackAliasRedirect(host, "/", PUBLIC);
      if (location !== undefined) expect(new URL(location).origin, host).toBe(PUBLIC);
    }
  });
});

describe("local API server: slow clients", () => {
  it("waits at most 30 s for a whole request and 10 s for its headers by default, checking every second", async () => {
    const defaults = await startLocalApiServer({ host: "127.0.0.1", port: 0, accessLog: () => undefined, handlerFor: async () => echo });
    try {
      expect(defaults.server.requestTimeout).toBe(30_000);
      expect(defaults.server.headersTimeout).toBe(10_000);
    } finally {
      await defaults.close();
    }
  });

  it("cuts a body trickled byte by byte with a 408 in the envelope once the request time is up", async () => {
    // 1 s instead of 30 s, so the test stays short; the trickle would need 40 s to finish.
    const quick = await startLocalApiServer({ host: "127.0.0.1", port: 0, accessLog: () => undefined, handlerFor: async () => echo, requestTimeoutMs: 1_000 });
    const { hostname, port } = new URL(quick.url);
    const socket = connect({ host: hostname, port: Number(port) });
    const declared = 400;
    let sent = 0;
    const started = performance.now();
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on("data", (d: Buffer) => chunks.push(d));
        socket.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error)));
        socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
        socket.write(`POST /api/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
        const trickle = setInterval(() => {
          if (socket.destroyed || sent >= declared) return clearInterval(trickle);
          socket.write("x");
          sent++;
        }, 100);
      });
      const seconds = (performance.now() - started) / 1000;
      // Closed by the server long before the body could have arrived (and far from Node's 300 s).
      expect(sent).toBeLessThan(declared / 4);
      expect(seconds).toBeLessThan(10);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":"request_timeout"');
      expect(answer.toLowerCase()).toContain("x-content-type-options: nosniff");
    } finally {
      socket.destroy();
      await quick.close();
    }
  });
});
