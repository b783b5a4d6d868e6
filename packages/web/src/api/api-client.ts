/**
 * The one way the dashboard talks to Hangar's JSON API (same origin, session cookie).
 * Every answer that is not 2xx becomes an ApiError carrying the envelope
 * `{"error":{"code","message","requestId","fields"?}}`, so pages only ever handle one shape.
 */

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly fields: readonly FieldError[] = [],
    /** From `Retry-After` on 429 answers. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Codes the client makes up itself, when there is no envelope to read. */
export const CLIENT_ERROR = { network: "network_error", unexpected: "unexpected_response" } as const;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Called on a 401 from any request a signed-in page makes (the session ended elsewhere), with that answer. */
let onSessionLost: ((error: ApiError) => void) | undefined;
export function setSessionLostHandler(handler: ((error: ApiError) => void) | undefined) {
  onSessionLost = handler;
}

export interface RequestOptions {
  /** Don't treat 401 as "the session ended" (sign-in and the initial account check expect it). */
  expectSignedOut?: boolean;
}

export async function apiRequest<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  // The API refuses state-changing requests that are not JSON (its CSRF defence), bodies or not.
  if (method !== "GET") headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, CLIENT_ERROR.network, "Hangar could not be reached. Check your connection and try again.");
  }
  if (response.ok) {
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
  const error = await errorFrom(response);
  if (error.status === 401 && !options.expectSignedOut) onSessionLost?.(error);
  throw error;
}

async function errorFrom(response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get("Retry-After"));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  let envelope: unknown;
  try {
    envelope = await response.json();
  } catch {
    envelope = undefined;
  }
  const e = (envelope as { error?: Record<string, unknown> } | undefined)?.error;
  if (e && typeof e.code === "string" && typeof e.message === "string") {
    const fields = Array.isArray(e.fields)
      ? e.fields.filter((f): f is FieldError => typeof f?.field === "string" && typeof f?.message === "string")
      : [];
    const requestId = typeof e.requestId === "string" ? e.requestId : undefined;
    return new ApiError(response.status, e.code, e.message, requestId, fields, retryAfterSeconds);
  }
  const message =
    response.status >= 500
      ? "Something went wrong on our side. Please try again in a moment."
      : `The request failed (HTTP ${response.status}).`;
  return new ApiError(response.status, CLIENT_ERROR.unexpected, message, undefined, [], retryAfterSeconds);
}

/** A message for people, with the wait spelled out when the API asked us to slow down. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return "Something went wrong. Please try again.";
  // The API's messages are sentences that may lack the final stop.
  const sentence = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
  if (error.status === 429 && error.retryAfterSeconds) return `${sentence} You can try again in ${formatWait(error.retryAfterSeconds)}.`;
  return sentence;
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** A mail link whose token is malformed, spent or expired (as opposed to a problem with the form). */
export function isBadLink(error: unknown): boolean {
  return error instanceof ApiError && (error.code === "invalid_token" || error.fields.some((f) => f.field === "token"));
}

export const BAD_LINK_MESSAGE = "This link is invalid, expired or already used.";
