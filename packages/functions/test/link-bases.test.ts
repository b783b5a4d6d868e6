import { describe, expect, it } from "vitest";
import { linkBases, ORIGIN_VERIFY_HEADER, VIEWER_HOST_HEADER } from "../src/composition/link-bases";
import { Settings } from "../src/composition/settings.schema";
import type { HttpEvent } from "../src/middleware/http-context";

const SECRET = "s".repeat(40);
const settings = (extra: Record<string, string> = {}) =>
  Settings.parse({ HANGAR_TABLE_NAME: "t", HANGAR_BUCKET_NAME: "b", HANGAR_ORIGIN_VERIFY_SECRET: SECRET, ...extra });
const event = (headers: Record<string, string>) =>
  ({ headers, requestContext: { domainName: "abc123.execute-api.eu-west-1.amazonaws.com" } }) as unknown as HttpEvent;

describe("link bases behind CloudFront", () => {
  it("use the viewer's host when CloudFront vouches for it with the origin secret", () => {
    const links = linkBases(event({ [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_HOST_HEADER]: "d111.cloudfront.net" }), settings());
    expect(links).toEqual({ publicBaseUrl: "https://d111.cloudfront.net", shareBaseUrl: "https://d111.cloudfront.net" });
  });

  it.each([
    ["no secret", { [VIEWER_HOST_HEADER]: "evil.example" }],
    ["a wrong secret", { [ORIGIN_VERIFY_HEADER]: "x".repeat(40), [VIEWER_HOST_HEADER]: "evil.example" }],
    ["a prefix of the secret", { [ORIGIN_VERIFY_HEADER]: SECRET.slice(1), [VIEWER_HOST_HEADER]: "evil.example" }],
    ["a host that is not a host name", { [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_HOST_HEADER]: "evil.example/x?y" }],
  ])("fall back to API Gateway's domain with %s (a direct call cannot choose the links' host)", (_label, headers) => {
    expect(linkBases(event(headers), settings()).publicBaseUrl).toBe("https://abc123.execute-api.eu-west-1.amazonaws.com");
  });

  it("never trust the header when the stage has no origin secret", () => {
    const noSecret = Settings.parse({ HANGAR_TABLE_NAME: "t", HANGAR_BUCKET_NAME: "b" });
    const links = linkBases(event({ [ORIGIN_VERIFY_HEADER]: "", [VIEWER_HOST_HEADER]: "evil.example" }), noSecret);
    expect(links.publicBaseUrl).toBe("https://abc123.execute-api.eu-west-1.amazonaws.com");
  });

  it("let configured bases win over any header", () => {
    const configured = settings({ HANGAR_PUBLIC_URL: "https://dl.example.com", HANGAR_SHARE_BASE_URL: "https://apps.example.com" });
    const links = linkBases(event({ [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_HOST_HEADER]: "d111.cloudfront.net" }), configured);
    expect(links).toEqual({ publicBaseUrl: "https://dl.example.com", shareBaseUrl: "https://apps.example.com" });
  });
});
