import {
  ConflictError,
  DependencyError,
  InvalidCredentialsError,
  InvalidPackageError,
  MissingCredentialsError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "@hangar/core";
import { describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  CrossOriginRequestError,
  InvalidJsonError,
  MethodNotAllowedError,
  RouteNotFoundError,
  UnsupportedBodyTypeError,
  mapError,
} from "../src/middleware/http-errors";
import { matchRoute } from "../src/routes";

describe("error mapping", () => {
  it.each([
    [new ValidationError([{ field: "fileName", message: "bad" }]), 400, "invalid_request"],
    [new InvalidJsonError(), 400, "invalid_json"],
    [new MissingCredentialsError(), 401, "missing_credentials"],
    [new InvalidCredentialsError(), 401, "invalid_credentials"],
    [new NotFoundError("upload_not_found", "x"), 404, "upload_not_found"],
    [new MethodNotAllowedError(["POST"]), 405, "method_not_allowed"],
    [new ConflictError("size_mismatch", "x"), 409, "size_mismatch"],
    [new PayloadTooLargeError("file_too_large", "x"), 413, "file_too_large"],
    [new UnsupportedMediaTypeError("unsupported_file_type", "x"), 415, "unsupported_file_type"],
    [new InvalidPackageError("not_a_zip", "x"), 422, "invalid_package"],
    [new BodyTooLargeError(65536), 413, "body_too_large"],
    [new UnsupportedBodyTypeError(), 415, "unsupported_media_type"],
    [new RouteNotFoundError("route_not_found", "x"), 404, "route_not_found"],
    [new RouteNotFoundError("cli_not_found", "x"), 404, "cli_not_found"],
    [new CrossOriginRequestError(), 403, "cross_origin_request"],
    [new RateLimitedError({ limit: 100, remaining: 0, resetAt: 60 }, 7), 429, "rate_limited"],
  ])("maps %o to %i %s with its message exposed", (error, status, code) => {
    const mapped = mapError(error, "req-1");
    expect(mapped).toMatchObject({ status, internal: false, body: { error: { code, message: error.message, requestId: "req-1" } } });
  });

  it("adds the headers clients act on", () => {
    expect(mapError(new RateLimitedError({ limit: 1, remaining: 0, resetAt: 60 }, 7), "r").headers).toEqual({ "Retry-After": "7" });
    expect(mapError(new MethodNotAllowedError(["GET", "POST"]), "r").headers).toEqual({ Allow: "GET, POST" });
    expect(mapError(new InvalidCredentialsError(), "r").headers).toHaveProperty("WWW-Authenticate");
  });

  it("says nothing about internals for dependency failures and bugs", () => {
    const secret = new Error("connect ECONNREFUSED 10.0.0.1 table=prod-secret");
    const dependency = mapError(new DependencyError("dynamodb", "DynamoDB GetItem failed (X)", { cause: secret }), "r");
    const bug = mapError(new TypeError("cannot read properties of undefined"), "r");
    expect(dependency).toMatchObject({ status: 503, internal: true, body: { error: { code: "service_unavailable" } } });
    expect(bug).toMatchObject({ status: 500, internal: true, body: { error: { code: "internal_error", message: "Internal server error" } } });
    expect(JSON.stringify([dependency.body, bug.body])).not.toMatch(/ECONNREFUSED|undefined|DynamoDB/);
  });
});

describe("route matching", () => {
  it("matches like API Gateway and tells 404 from 405", () => {
    expect(matchRoute("POST", "/api/upload/api-key/presign")).toMatchObject({ kind: "route", route: { fn: "presign", auth: "apiKey" } });
    expect(matchRoute("HEAD", "/download/AbC123")).toMatchObject({ kind: "route", route: { fn: "download", auth: "none" } });
    expect(matchRoute("GET", "/share/AbC123")).toMatchObject({ kind: "route", pathParameters: { userKey: "AbC123" } });
    expect(matchRoute("GET", "/share/")).toEqual({ kind: "not_found" });
    expect(matchRoute("GET", "/share/a/b")).toEqual({ kind: "not_found" });
    expect(matchRoute("PUT", "/api/upload/api-key/complete")).toEqual({ kind: "method_not_allowed", allowed: ["POST"] });
    expect(matchRoute("DELETE", "/share/AbC123")).toEqual({ kind: "method_not_allowed", allowed: ["GET", "HEAD", "POST"] });
  });

  it("answers 404, not an error, for path parameters that are not valid percent-encoding", () => {
    expect(matchRoute("GET", "/share/%ff%fe")).toEqual({ kind: "not_found" });
    expect(matchRoute("GET", "/download/%E0%A4%A")).toEqual({ kind: "not_found" });
    expect(matchRoute("GET", "/share/caf%C3%A9")).toMatchObject({ kind: "route", pathParameters: { userKey: "café" } });
  });
});
