import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { clientInfo } from "../../src/accounts/client-info";
import { clearedSessionCookie, readSessionCookie, sessionCookie, sessionCookieName } from "../../src/accounts/session-cookie";
import { CrossOriginRequestError, sameOriginGuard } from "../../src/middleware/csrf";
import type { HttpRequest } from "../../src/middleware/http-context";

function event(method: string, headers: Record<string, string> = {}, extra: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 {
  return {
    version: "2.0",
    routeKey: `${method} /api/session`,
    rawPath: "/api/session",
    rawQueryString: "",
    headers,
    requestContext: { http: { method, path: "/api/session", protocol: "HTTP/1.1", sourceIp: "198.51.100.20", userAgent: "" } } as never,
    isBase64Encoded: false,
    ...extra,
  };
}

describe("session cookie", () => {
  it("takes the __Host- prefix and Secure when the public URL is https", () => {
    expect(sessionCookieName("https://hangar.example.com")).toBe("__Host-hangar_session");
    expect(sessionCookie("https://hangar.example.com", "usr_a.ses_b.secret", 2_592_000)).toBe(
      "__Host-hangar_session=usr_a.ses_b.secret; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure",
    );
    expect(clearedSessionCookie("https://hangar.example.com")).toBe("__Host-hangar_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
  });

  it("has neither on plain http (the local stack), and is read only under its own name", () => {
    expect(sessionCookie("http://127.0.0.1:3000", "t", 10)).toBe("hangar_session=t; Path=/; Max-Age=10; HttpOnly; SameSite=Lax");
    const e = event("GET", {}, { cookies: ["other=1", "hangar_session=abc", "__Host-hangar_session=def"] });
    expect(readSessionCookie(e, "http://127.0.0.1:3000")).toBe("abc");
    expect(readSessionCookie(e, "https://hangar.example.com")).toBe("def");
    // Over https a cookie without the prefix (settable by a subdomain or over http) is ignored.
    expect(readSessionCookie(event("GET", {}, { cookies: ["hangar_session=abc"] }), "https://hangar.example.com")).toBeUndefined();
  });
});

describe("same-origin guard", () => {
  const guard = sameOriginGuard(() => "https://hangar.example.com");
  const run = (e: APIGatewayProxyEventV2) => guard.before!({ event: e, context: {} } as unknown as HttpRequest);
  const json = { "content-type": "application/json" };

  it("lets safe methods through untouched", () => {
    expect(() => run(event("GET", { origin: "https://evil.example" }))).not.toThrow();
  });

  it("accepts the dashboard's origin (default port, any case) with JSON", () => {
    expect(() => run(event("POST", { origin: "https://HANGAR.example.com:443", ...json }))).not.toThrow();
    expect(() => run(event("DELETE", { "sec-fetch-site": "same-origin", "content-type": "application/json; charset=utf-8" }))).not.toThrow();
  });

  it.each([
    [{ origin: "https://evil.example", ...json }],
    [{ origin: "http://hangar.example.com", ...json }],
    [{ origin: "https://hangar.example.com.evil.example", ...json }],
    [{ origin: "null", ...json }],
    // The same host once parsed, but no browser sends userinfo, a path, a query or a fragment.
    [{ origin: "https://user@hangar.example.com", ...json }],
    [{ origin: "https://user:pw@hangar.example.com", ...json }],
    [{ origin: "https://@hangar.example.com", ...json }],
    [{ origin: "https://hangar.example.com/", ...json }],
    [{ origin: "https://hangar.example.com/dashboard", ...json }],
    [{ origin: "https://hangar.example.com?x", ...json }],
    [{ origin: "https://hangar.example.com#x", ...json }],
    [{ origin: "https://hangar.example.com\\x", ...json }],
    [{ "sec-fetch-site": "same-site", ...json }],
    [{ ...json }],
    [{ origin: "https://hangar.example.com", "content-type": "text/plain" }],
    [{ origin: "https://hangar.example.com" }],
  ])("refuses %j", (headers) => {
    expect(() => run(event("POST", headers))).toThrow(CrossOriginRequestError);
  });
});

describe("client address", () => {
  const none = { HANGAR_CLIENT_IP_HEADER: undefined, HANGAR_ORIGIN_VERIFY_SECRET: undefined };
  const viaCloudFront = { HANGAR_CLIENT_IP_HEADER: "cloudfront-viewer-address", HANGAR_ORIGIN_VERIFY_SECRET: "s".repeat(32) };
  it("is the address API Gateway saw, unless a trusted header is configured", () => {
    const e = event("POST", { "x-forwarded-for": "1.2.3.4", "cloudfront-viewer-address": "203.0.113.9:51234", "user-agent": "UA" });
    expect(clientInfo(e, none)).toEqual({ ip: "198.51.100.20", userAgent: "UA" });
    expect(clientInfo(e, { ...none, HANGAR_CLIENT_IP_HEADER: "cloudfront-viewer-address" }).ip).toBe("203.0.113.9");
    // With an origin secret, only a request that came through CloudFront may name its address.
    expect(clientInfo(e, viaCloudFront).ip).toBe("198.51.100.20");
    expect(clientInfo(event("POST", { ...e.headers, "x-hangar-origin-verify": "s".repeat(32) }), viaCloudFront).ip).toBe("203.0.113.9");
    // A configured header that is absent or garbage falls back to the source address.
    expect(clientInfo(event("POST", { "cloudfront-viewer-address": "<script>" }), { ...none, HANGAR_CLIENT_IP_HEADER: "cloudfront-viewer-address" }).ip).toBe("198.51.100.20");
  });

  it("counts IPv6 clients per /64", () => {
    const v6 = (ip: string) => clientInfo(event("POST", { "x-ip": ip }), { ...none, HANGAR_CLIENT_IP_HEADER: "x-ip" }).ip;
    expect(v6("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(v6("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(v6("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(v6("[2001:db8:1:2::7]:443")).toBe("2001:db8:1:2::/64");
    expect(v6("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  it("cuts the port CloudFront-Viewer-Address always carries, also from an unbracketed IPv6", () => {
    const viewer = (value: string) =>
      clientInfo(event("POST", { "cloudfront-viewer-address": value }), { ...none, HANGAR_CLIENT_IP_HEADER: "cloudfront-viewer-address" }).ip;
    // `2001:db8:1:2::7:443` is itself a valid IPv6 address: read as one, the port would become a group.
    expect(viewer("2001:db8:1:2::7:443")).toBe("2001:db8:1:2::/64");
    expect(viewer("2001:db8:9:9:1:2:3:4:51234")).toBe("2001:db8:9:9::/64");
    expect(viewer("203.0.113.9:51234")).toBe("203.0.113.9");
    // Without a port it is not what CloudFront sends: the source address is used.
    expect(viewer("203.0.113.9")).toBe("198.51.100.20");
  });
});
