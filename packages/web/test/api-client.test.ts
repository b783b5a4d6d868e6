import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, describeError, setSessionLostHandler } from "../src/api/api-client";

function answer(status: number, body?: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body);
  return vi.fn(async (_url: string, _init: RequestInit) => new Response(text, { status, headers }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionLostHandler(undefined);
});

describe("apiRequest", () => {
  it("sends JSON with the same-origin cookie on state-changing requests, bodies or not", async () => {
    const fetch = answer(204);
    vi.stubGlobal("fetch", fetch);
    await apiRequest("DELETE", "/api/session");
    await apiRequest("POST", "/api/account/sign-up", { email: "a@example.com", password: "x" });
    const del = fetch.mock.calls[0]![1];
    const post = fetch.mock.calls[1]![1];
    expect(del).toMatchObject({ method: "DELETE", credentials: "same-origin" });
    expect((del.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
    expect(post.body).toBe(JSON.stringify({ email: "a@example.com", password: "x" }));
  });

  it("does not claim a JSON body on GET", async () => {
    const fetch = answer(200, { ok: true });
    vi.stubGlobal("fetch", fetch);
    expect(await apiRequest("GET", "/api/account")).toEqual({ ok: true });
    expect((fetch.mock.calls[0]![1].headers as Record<string, string>)["Content-Type"]).toBeUndefined();
  });

  it("turns the error envelope into an ApiError with its code, request id and field errors", async () => {
    vi.stubGlobal(
      "fetch",
      answer(400, { error: { code: "validation_failed", message: "Fix the fields.", requestId: "r-1", fields: [{ field: "password", message: "Too short." }, { bogus: 1 }] } }),
    );
    const error = await apiRequest("POST", "/api/account/sign-up", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "validation_failed", message: "Fix the fields.", requestId: "r-1", fields: [{ field: "password", message: "Too short." }] });
  });

  it("reads Retry-After on 429 and says how long to wait", async () => {
    vi.stubGlobal("fetch", answer(429, { error: { code: "rate_limited", message: "Too many attempts", requestId: "r" } }, { "Retry-After": "120" }));
    const error = await apiRequest("POST", "/api/session", {}).catch((e: unknown) => e);
    expect((error as ApiError).retryAfterSeconds).toBe(120);
    expect(describeError(error)).toBe("Too many attempts. You can try again in 2 minutes.");
  });

  it("says nothing of a 5xx body that is not the envelope", async () => {
    vi.stubGlobal("fetch", answer(502, "<html>Bad gateway</html>"));
    const error = (await apiRequest("GET", "/api/account").catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.message).toBe("Something went wrong on our side. Please try again in a moment.");
  });

  it("reports an unreachable server as a network error", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const error = (await apiRequest("GET", "/api/account").catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe("network_error");
  });

  it("tells the app the session ended on a 401, except where signed-out is expected", async () => {
    const lost = vi.fn();
    setSessionLostHandler(lost);
    vi.stubGlobal("fetch", answer(401, { error: { code: "not_signed_in", message: "Sign in.", requestId: "r" } }));
    await apiRequest("GET", "/api/account", undefined, { expectSignedOut: true }).catch(() => undefined);
    expect(lost).not.toHaveBeenCalled();
    await apiRequest("GET", "/api/account/sessions").catch(() => undefined);
    expect(lost).toHaveBeenCalledTimes(1);
  });
});
