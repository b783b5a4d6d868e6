import { hashSecret } from "@hangar/core";
import type { Session } from "@hangar/core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { actorOf } from "../src/middleware/actor";
import type { HangarContext, HttpEvent } from "../src/middleware/http-context";
import { httpFunction, json } from "../src/middleware/http-function";
import { sessionAuth } from "../src/middleware/session-auth";

const ctx = { awsRequestId: "aws-1", functionName: "t", getRemainingTimeInMillis: () => 1000 } as unknown as HangarContext;

beforeAll(() => {
  vi.stubEnv("HANGAR_TABLE_NAME", "table");
  vi.stubEnv("HANGAR_BUCKET_NAME", "bucket");
});

// One live session, held by a repository that answers only it (the unit under test is the middleware, not DynamoDB).
const userId = "usr_0123456789abcdef";
const sessionId = "ses_0123456789abcdef";
const secret = "s".repeat(43);
const session: Session = {
  sessionId,
  userId,
  secretHash: hashSecret(secret),
  createdAt: "2026-01-01T00:00:00.000Z",
  lastSeenAt: new Date().toISOString(),
  idleExpiresAt: Math.floor(Date.now() / 1000) + 3600,
  absoluteExpiresAt: Math.floor(Date.now() / 1000) + 7200,
};
const deps = () =>
  ({
    sessions: { get: async (u: string, s: string) => (u === userId && s === sessionId ? session : undefined), touch: async () => {} },
    clock: { now: () => new Date() },
    settings: { sessionRefreshSeconds: 3600, sessionIdleSeconds: 3600 },
  }) as never;
const cookie = { read: (e: HttpEvent) => e.cookies?.[0]?.replace(/^hangar_session=/, ""), cleared: () => "hangar_session=; Max-Age=0" };

function request(headers: Record<string, string>, sourceIp: string): HttpEvent {
  return {
    version: "2.0",
    routeKey: "GET /api/keys",
    rawPath: "/api/keys",
    rawQueryString: "",
    headers,
    cookies: [`hangar_session=${userId}.${sessionId}.${secret}`],
    isBase64Encoded: false,
    requestContext: { requestId: "req-1", http: { method: "GET", path: "/api/keys", sourceIp } },
  } as unknown as HttpEvent;
}

describe("actorOf(context) on a session route", () => {
  const noop = { handler: async () => json(200, {}) };
  const handler = httpFunction(
    "keys",
    {
      // The handler answers the Actor it would hand a use case.
      "GET /api/keys": { handler: async (_e, c) => json(200, actorOf(c)) },
      "POST /api/keys": noop,
      "DELETE /api/keys/{clientId}": noop,
      "POST /api/keys/{clientId}/regenerate": noop,
      "GET /api/keys/{clientId}/usage": noop,
    },
    { session: sessionAuth(deps, cookie), dashboard: [] },
  );

  it("carries the signed-in user and the client as sign-in sees it (address, user agent)", async () => {
    const ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const answer = await handler(request({ "User-Agent": ua }, "203.0.113.9"), ctx);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body!)).toEqual({ userId, client: { ip: "203.0.113.9", userAgent: ua } });
  });

  it("reduces an IPv6 client to its /64 and leaves out an absent user agent", async () => {
    const answer = await handler(request({}, "2001:db8:1:2:3:4:5:6"), ctx);
    expect(JSON.parse(answer.body!)).toEqual({ userId, client: { ip: "2001:db8:1:2::/64" } });
  });

  it("refuses a request without a live session before any handler builds an actor", async () => {
    const answer = await handler({ ...request({}, "203.0.113.9"), cookies: [] } as HttpEvent, ctx);
    expect(answer.statusCode).toBe(401);
  });
});
