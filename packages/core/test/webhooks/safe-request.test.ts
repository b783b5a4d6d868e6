import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RESPONSE_BYTES, refusalOf, safePost, type OutboundPolicy } from "../../src/webhooks";

/**
 * The SSRF table of issue 21: every refused target is refused before a connection is made (the
 * test's own listeners count connections and must see none), with HANGAR_WEBHOOK_ALLOW_LOOPBACK's
 * exception both off and on. No traffic leaves the machine: names resolve through a test resolver.
 */

interface Listener {
  server: Server;
  port: number;
  connections: number;
  requests: number;
}

async function listen(host: string, handler: (res: import("node:http").ServerResponse, url: string) => void = (res) => res.end("ok")): Promise<Listener> {
  const state = { connections: 0, requests: 0 } as Listener;
  state.server = createServer((req, res) => {
    state.requests++;
    req.resume();
    req.on("end", () => handler(res, req.url ?? "/"));
  });
  state.server.on("connection", () => state.connections++);
  await new Promise<void>((resolve) => state.server.listen(0, host, resolve));
  state.port = (state.server.address() as AddressInfo).port;
  return state;
}

let v4: Listener;
let v6: Listener;
let redirector: Listener;

beforeAll(async () => {
  v4 = await listen("127.0.0.1");
  v6 = await listen("::1");
  redirector = await listen("127.0.0.1", (res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${v4.port}/landed` });
    res.end();
  });
});
afterAll(() => Promise.all([v4, v6, redirector].map((l) => new Promise((r) => l.server.close(r)))));

/** A resolver of test names only: nothing asks real DNS. */
const names: Record<string, { address: string; family: number }[]> = {
  "loopback.test": [{ address: "127.0.0.1", family: 4 }],
  "loopback6.test": [{ address: "::1", family: 6 }],
  "mixed.test": [
    { address: "93.184.215.14", family: 4 },
    { address: "10.1.2.3", family: 4 },
  ],
  "metadata.test": [{ address: "169.254.169.254", family: 4 }],
};
const resolve = async (hostname: string) => {
  const found = names[hostname];
  if (!found) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return found;
};

const policy = (allowLoopback: boolean): OutboundPolicy => ({ allowHttp: allowLoopback, allowLoopback, resolve, timeoutMs: 2000 });

async function post(url: string, p: OutboundPolicy) {
  const before = { v4: v4.connections, v6: v6.connections, redirect: redirector.connections };
  const result = await safePost(url, { "webhook-id": "msg_test" }, "{}", p);
  // Give a connection that should not exist the time to be counted.
  await new Promise((r) => setTimeout(r, 50));
  return { result, seen: v4.connections - before.v4 + (v6.connections - before.v6) };
}

describe("safe outbound requests (SSRF table)", () => {
  const alwaysRefused = () => [
    `http://10.0.0.1:${v4.port}/`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://[fd00:ec2::254]/`,
    `http://100.64.0.1:${v4.port}/`,
    `http://192.168.1.1/`,
    `http://172.16.0.1/`,
    `http://[fe80::1]/`,
    `http://[fc00::1]/`,
    `http://224.0.0.1/`,
    `http://255.255.255.255/`,
    // 0.0.0.0 reaches this machine on Linux: refused even with the loopback exception.
    `http://0.0.0.0:${v4.port}/`,
    `http://[::]:${v6.port}/`,
    `http://127.0.0.2:${v4.port}/`,
    `http://[::ffff:10.0.0.1]/`,
    `http://[::ffff:169.254.169.254]/`,
    `http://[::ffff:a9fe:a9fe]/`,
    `http://[64:ff9b::a9fe:a9fe]/`,
    `http://[2002:a9fe:a9fe::1]/`,
    `http://metadata.test/`,
    `http://mixed.test:${v4.port}/`,
    `file:///etc/passwd`,
    `gopher://127.0.0.1:${v4.port}/_GET`,
    `ftp://127.0.0.1:${v4.port}/`,
  ];
  const loopback = () => [
    `http://127.0.0.1:${v4.port}/`,
    `http://[::1]:${v6.port}/`,
    `http://loopback.test:${v4.port}/`,
    `http://loopback6.test:${v6.port}/`,
    `http://localhost:${v4.port}/`,
    `http://[::ffff:127.0.0.1]:${v4.port}/`,
  ];

  for (const allowLoopback of [false, true]) {
    describe(`HANGAR_WEBHOOK_ALLOW_LOOPBACK ${allowLoopback ? "=1" : "unset"}`, () => {
      it("refuses private, link-local, metadata, CGNAT, multicast, unspecified and mapped addresses and other schemes without connecting", async () => {
        for (const url of alwaysRefused()) {
          const { result, seen } = await post(url, policy(allowLoopback));
          expect({ url, refused: result.refused, status: result.status, seen }).toEqual({ url, refused: true, status: null, seen: 0 });
          expect(result.error).toBeTruthy();
        }
      });

      it(allowLoopback ? "lets http to 127.0.0.1 and ::1 through" : "refuses loopback, by address and by a name that resolves to it", async () => {
        for (const url of loopback()) {
          // localhost resolves through the system's resolver; the rest through the test's.
          const p = url.includes("localhost") ? { ...policy(allowLoopback), resolve: undefined } : policy(allowLoopback);
          const { result, seen } = await post(url, p);
          if (allowLoopback) expect({ url, status: result.status, seen }).toEqual({ url, status: 200, seen: 1 });
          else expect({ url, refused: result.refused, seen }).toEqual({ url, refused: true, seen: 0 });
        }
      });

      it("follows no redirect (a redirect to loopback reaches nothing)", async () => {
        const before = redirector.connections;
        const { result, seen } = await post(`http://127.0.0.1:${redirector.port}/`, policy(allowLoopback));
        expect(seen).toBe(0);
        if (allowLoopback) {
          expect(result.status).toBe(302);
          expect(redirector.connections - before).toBe(1);
        } else {
          expect(result.refused).toBe(true);
          expect(redirector.connections - before).toBe(0);
        }
      });
    });
  }

  it("refuses http:// unless the local stack allows it", async () => {
    const { result, seen } = await post(`http://127.0.0.1:${v4.port}/`, { allowHttp: false, allowLoopback: true });
    expect(result).toMatchObject({ refused: true, status: null });
    expect(result.error).toMatch(/https/);
    expect(seen).toBe(0);
  });

  it("reads at most 64 KB of an answer and gives up on a silent receiver", async () => {
    const big = await listen("127.0.0.1", (res) => res.end("x".repeat(5 * MAX_RESPONSE_BYTES)));
    const silent = await listen("127.0.0.1", () => undefined);
    try {
      const read = await safePost(`http://127.0.0.1:${big.port}/`, {}, "{}", policy(true));
      expect(read.status).toBe(200);
      expect(read.body!.length).toBe(MAX_RESPONSE_BYTES);
      const quiet = await safePost(`http://127.0.0.1:${silent.port}/`, {}, "{}", { ...policy(true), timeoutMs: 300 });
      expect(quiet).toMatchObject({ status: null, refused: false });
      expect(quiet.error).toMatch(/no answer/);
    } finally {
      big.server.closeAllConnections();
      silent.server.closeAllConnections();
      await Promise.all([big, silent].map((l) => new Promise((r) => l.server.close(r))));
    }
  });
});

describe("address policy", () => {
  it.each([
    ["127.0.0.1", "loopback", undefined],
    ["::1", "loopback", undefined],
    ["::ffff:127.0.0.1", "loopback (IPv4 inside IPv6)", undefined],
    ["127.1.2.3", "loopback", "loopback"],
    ["10.255.0.1", "private", "private"],
    ["172.31.0.1", "private", "private"],
    ["192.168.0.1", "private", "private"],
    ["100.127.255.255", "shared (CGNAT)", "shared (CGNAT)"],
    ["169.254.169.254", "cloud metadata", "cloud metadata"],
    ["169.254.1.1", "link-local", "link-local"],
    ["fd00:ec2::254", "cloud metadata", "cloud metadata"],
    ["fc00::1", "private (unique local)", "private (unique local)"],
    ["fe80::1%eth0", "link-local", "link-local"],
    ["ff02::1", "multicast", "multicast"],
    ["239.1.1.1", "multicast", "multicast"],
    ["0.0.0.0", "unspecified", "unspecified"],
    ["::", "unspecified", "unspecified"],
    ["255.255.255.255", "broadcast", "broadcast"],
    ["::ffff:192.168.0.1", "private (IPv4 inside IPv6)", "private (IPv4 inside IPv6)"],
    ["::ffff:169.254.169.254", "cloud metadata (IPv4 inside IPv6)", "cloud metadata (IPv4 inside IPv6)"],
  ])("%s is refused (%s; with loopback allowed: %s)", (address, reason, withLoopback) => {
    expect(refusalOf(address, false)).toBe(reason);
    expect(refusalOf(address, true)).toBe(withLoopback);
  });

  it.each(["93.184.215.14", "8.8.8.8", "100.128.0.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is public", (address) => {
    expect(refusalOf(address)).toBeUndefined();
  });
});
