import type { SharedFile } from "@hangar/core";
import { LinkGoneError, LinkPasswordLimitedError, LinkPasswordRequiredError, UnknownLinkError, VisitLimitedError, WrongLinkPasswordError } from "@hangar/core/link-errors";
import { installOffer, type Device } from "@hangar/core/links";
import { NotFoundError, RateLimitedError } from "@hangar/core";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { mapError } from "../src/middleware/http-errors";
import { errorPage } from "../src/share/error-page";
import { renderNoticePage, renderPasswordPage, renderSharePage } from "../src/share/share-page";

/** What a package or a CI job can put in a field: markup, both quotes, a backtick and an ampersand, tagged with the field's name. */
const hostile = (field: string) => `${field}<script>alert("x")</script>'q'\`t\`&`;
const escaped = (field: string) => `${field}&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;q&#39;&#96;t&#96;&amp;`;

const file: SharedFile = {
  userKey: "HOSTILE00001",
  fileId: "fil_1",
  projectId: "prj_1",
  key: "uploads/prj_1/fil_1/app.ipa",
  fileName: hostile("fileName"),
  fileSize: 4096,
  metadata: {
    appName: hostile("appName"),
    bundleId: hostile("bundleId"),
    version: hostile("version"),
    buildNumber: hostile("buildNumber"),
    minOs: hostile("minOs"),
    platform: "ios",
    provisioning: { kind: hostile("kind"), teamName: hostile("teamName"), expiresAt: "2036-01-01T00:00:00Z", provisionedDevices: 2 },
  },
  iconKey: "uploads/prj_1/fil_1/icon.png",
  completedAt: "2026-11-20T10:00:00.000Z",
  buildContext: { releaseNotes: hostile("releaseNotes"), branch: hostile("branch"), commit: hostile("commit"), ciUrl: `https://ci.example/${hostile("ciUrl")}` },
};

const links = {
  shareUrl: "https://share.example/share/HOSTILE00001",
  downloadUrl: "https://share.example/download/HOSTILE00001",
  installUrl: "itms-services://?action=download-manifest&url=https%3A%2F%2Fshare.example%2Fshare%2FHOSTILE00001%2Fmanifest.plist",
  iconRoute: "https://share.example/share/HOSTILE00001/icon.png",
  qrSvg: `<svg role="img" aria-label="QR code"><path d="M0 0h1"/></svg>`,
};

const page = (device: Device) =>
  renderSharePage({ file, offer: installOffer(file, device, { insecure: false, now: new Date("2026-11-25T00:00:00Z") }), iconUrl: "https://bucket.example/icon.png?X-Sig=a&b=c" }, links);

/** Every ampersand of the page starts an entity: no value reached the markup unescaped. */
const onlyEntities = (html: string) => expect(html.replace(/&(amp|lt|gt|quot|#39|#96);/g, "")).not.toContain("&");

describe("the share page escapes every value a package or CI can set", () => {
  it.each(["desktop", "ios", "android"] as const)("on %s", (device) => {
    const html = page(device);
    expect(html).not.toMatch(/<script|alert\("x"\)|'q'|`t`/);
    onlyEntities(html);
    for (const [spot, field] of [
      [`<title>${escaped("appName")} ${escaped("version")}</title>`, "title"],
      [`<meta property="og:title" content="${escaped("appName")} ${escaped("version")}">`, "og:title"],
      [`<h1 id="app-title">${escaped("appName")}</h1>`, "heading"],
      [`<dt>File</dt><dd>${escaped("fileName")}</dd>`, "file name"],
      [`<dt>Bundle ID</dt><dd>${escaped("bundleId")}</dd>`, "bundle id"],
      [`<dt>Build</dt><dd>${escaped("buildNumber")}</dd>`, "build"],
      [`<dt>Minimum OS</dt><dd>iOS ${escaped("minOs")}</dd>`, "minimum OS"],
      [`<dt>Profile</dt><dd>${escaped("kind")}</dd>`, "profile kind"],
      [`<dt>Team</dt><dd>${escaped("teamName")}</dd>`, "team"],
      [`<dt>Branch</dt><dd>${escaped("branch")}</dd>`, "branch"],
      [`<dt>Commit</dt><dd>${escaped("commit")}</dd>`, "commit"],
      [`<a href="https://ci.example/${escaped("ciUrl")}" rel="noopener noreferrer nofollow">https://ci.example/${escaped("ciUrl")}</a>`, "CI link"],
      [`<p class="notes">${escaped("releaseNotes")}</p>`, "release notes"],
      [`<img src="https://bucket.example/icon.png?X-Sig=a&amp;b=c"`, "icon"],
    ]) {
      expect(html, field).toContain(spot);
    }
  });

  it("puts the buttons of the install decision, and the QR code only on desktops", () => {
    expect(page("desktop")).toContain(`<a class="button primary" href="itms-services://?action=download-manifest&amp;url=`);
    expect(page("desktop")).toContain(links.qrSvg);
    expect(page("ios")).not.toContain("<svg");
    expect(page("android")).toContain(`<a class="button secondary" href="${links.downloadUrl}" download>Download IPA</a>`);
  });

  it("escapes the texts of the password and notice pages", () => {
    const form = renderPasswordPage(`/share/${hostile("key")}`, hostile("problem"));
    const notice = renderNoticePage(hostile("heading"), hostile("text"), { href: `https://x.example/${hostile("href")}`, label: hostile("label") });
    for (const html of [form, notice]) {
      expect(html).not.toMatch(/<script|'q'|`t`/);
      onlyEntities(html);
    }
    expect(form).toContain(`<form method="post" action="/share/${escaped("key")}">`);
    expect(form).toContain(`<p class="error" id="pw-error" role="alert">${escaped("problem")}</p>`);
    expect(notice).toContain(`<a class="button" href="https://x.example/${escaped("href")}">${escaped("label")}</a>`);
  });
});

const event = (routeKey: string, accept?: string): APIGatewayProxyEventV2 => {
  const [method, path] = routeKey.split(" ") as [string, string];
  return {
    version: "2.0",
    routeKey,
    rawPath: path.replace("{userKey}", "LINK00000001"),
    rawQueryString: "",
    headers: accept ? { accept } : {},
    pathParameters: { userKey: "LINK00000001" },
    isBase64Encoded: false,
    requestContext: { http: { method, path, protocol: "HTTP/1.1", sourceIp: "203.0.113.1", userAgent: "" } } as APIGatewayProxyEventV2["requestContext"],
  };
};
const BROWSER = "text/html,application/xhtml+xml";
const state = { limit: 10, remaining: 0, resetAt: 1_000 };

describe("errorPage: the share and download routes' errors as pages for browsers, JSON for programs", () => {
  it.each([
    [new LinkGoneError("disabled"), 410, "This link is turned off"],
    [new LinkGoneError("expired"), 410, "This link has expired"],
    [new LinkGoneError("capped"), 410, "Install limit reached"],
    [new LinkGoneError("removed"), 410, "This build was removed"],
    [new LinkGoneError("replaced"), 410, "This link was replaced"],
    [new UnknownLinkError(), 404, "No build at this link"],
    [new LinkPasswordRequiredError(), 401, "This build is protected"],
    [new VisitLimitedError("client", state, 90), 429, "Too many requests from your network. Try again in 2 minutes."],
    [new VisitLimitedError("link", state, 30), 429, "as often as one network may today. Try again in 30 seconds."],
  ])("%o → %i page for a browser, undefined (JSON) for a program", (error, status, text) => {
    for (const route of ["GET /share/{userKey}", "GET /download/{userKey}"]) {
      const mapped = mapError(error, "req-1");
      expect(mapped.status).toBe(status);
      const shown = errorPage(mapped, event(route, BROWSER), error)!;
      expect(shown.statusCode).toBe(status);
      expect(shown.headers!["Content-Type"]).toBe("text/html; charset=utf-8");
      expect(shown.headers!["Content-Security-Policy"]).toMatch(/^default-src 'none'/);
      expect(shown.body).toContain(text);
      if (status === 429) expect(shown.headers!["Retry-After"]).toBe(String((error as RateLimitedError).retryAfterSeconds));
      expect(errorPage(mapped, event(route, "application/json"), error)).toBeUndefined();
      expect(errorPage(mapped, event(route), error)).toBeUndefined();
    }
  });

  it("the password form's own answers are pages whatever the client accepts", () => {
    const page = (error: Error, e: ReturnType<typeof event>) => errorPage(mapError(error, "r"), e, error);
    const wrong = page(new WrongLinkPasswordError(), event("POST /share/{userKey}"))!;
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain("That password is not right. Check it and try again.");
    expect(wrong.body).toContain(`action="/share/LINK00000001"`);
    const limited = page(new LinkPasswordLimitedError(state, 61), event("POST /share/{userKey}"))!;
    expect(limited.statusCode).toBe(429);
    expect(limited.headers!["Retry-After"]).toBe("61");
    expect(limited.body).toContain("Too many attempts. Try again in 2 minutes.");
    // A gone link stays as the client asked.
    expect(page(new LinkGoneError("disabled"), event("POST /share/{userKey}"))).toBeUndefined();
  });

  it("leaves other errors to the JSON envelope, even for browsers: a missing icon, a storage failure", () => {
    const page = (error: Error, e: ReturnType<typeof event>) => errorPage(mapError(error, "r"), e, error);
    expect(page(new NotFoundError("file_not_found", "This build has no icon"), event("GET /share/{userKey}/icon.png", BROWSER))).toBeUndefined();
    // Not even one that says word for word what an unknown link says: pages are chosen by class.
    expect(page(new NotFoundError("file_not_found", "No file is shared under this link"), event("GET /share/{userKey}", BROWSER))).toBeUndefined();
    expect(page(new Error("boom"), event("GET /share/{userKey}", BROWSER))).toBeUndefined();
  });

  it("keeps today's JSON codes and messages", () => {
    expect(mapError(new LinkGoneError("capped"), "r").body.error).toEqual({
      code: "link_limit_reached",
      message: "This link has been used as many times as its owner allowed. Ask the person who shared it for a new link.",
      requestId: "r",
    });
    expect(mapError(new UnknownLinkError(), "r").body.error).toEqual({ code: "file_not_found", message: "No file is shared under this link", requestId: "r" });
    expect(mapError(new LinkPasswordRequiredError(), "r").body.error.code).toBe("password_required");
    expect(mapError(new VisitLimitedError("client", state, 12), "r").body.error).toEqual({
      code: "rate_limited",
      message: "Too many requests from your network. Retry after 12 s.",
      requestId: "r",
    });
  });
});
