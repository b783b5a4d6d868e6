/**
 * The OpenAPI 3.1 document of the whole API, built from the three route tables: routes.ts (paths,
 * methods, auth), route-input/ (the zod schemas every request is parsed with) and
 * route-output.ts (answers, headers, the use cases' own errors, examples). zod 4's `toJSONSchema`
 * turns both kinds of schema into JSON Schema 2020-12, the dialect OpenAPI 3.1 uses, so the
 * document describes exactly what the middleware accepts: there is no second description to
 * keep in step by hand.
 *
 * Errors every route of a kind answers are derived here rather than written per row: the auth
 * kind's 401/429, a body's 400/413/415, the dashboard's same-origin 403, a malformed path id's
 * 404 (the code its `notFound` raises) and the 500/503 of any route.
 *
 * Served by the openapi function (`GET /api/openapi.json`) and written to docs/openapi.json by
 * `npm run docs:openapi`; a test keeps the two equal. Deterministic: no clock, no host, no order
 * but the tables'.
 */
import { Complete, CompleteMultipart, parseCompleteBody } from "@hangar/core";
import * as z from "zod/mini";
import { mapError } from "../middleware/http-errors";
import { inputOf, type RouteInput } from "../route-input";
import { outputOf, type Answer, type HeaderName, type RouteOutput } from "../route-output";
import { routeKey, routes, type RouteDefinition, type RouteFunctionName } from "../routes";
import { ErrorBody } from "./answers.schema";

type Json = Record<string, unknown>;

/** Request parsers that are functions (complete's two bodies) and the schemas they choose between. */
const PARSER_SCHEMAS = new Map<unknown, z.ZodMiniType[]>([[parseCompleteBody, [Complete, CompleteMultipart]]]);

const COMPONENT = "#/components/schemas/";
const idOf = (schema: z.ZodMiniType): string | undefined => z.globalRegistry.get(schema)?.id;

/** A schema of the request side: what a client may send (defaults optional, transforms' input). */
function inputSchema(schema: z.ZodMiniType): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Json;
  return json;
}

/** A response schema: a reference to its component (every answer schema is named). */
function outputRef(schema: z.ZodMiniType): Json {
  const id = idOf(schema);
  if (!id) throw new Error("openapi: an answer schema without an id in its meta");
  return { $ref: `${COMPONENT}${id}` };
}

/** Every `$ref` to a component schema in a JSON value. */
function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string" && item.startsWith(COMPONENT)) found.add(item.slice(COMPONENT.length));
      else refsIn(item, found);
    }
  }
  return found;
}

/**
 * The named answer schemas the operations reach, with the references between them, as
 * `components.schemas`. Only reachable ones: a named schema no route answers is not part of the API.
 */
function componentSchemas(paths: Json): Json {
  const { schemas: all } = z.toJSONSchema(z.globalRegistry, {
    target: "draft-2020-12",
    io: "output",
    unrepresentable: "any",
    uri: (id) => `${COMPONENT}${id}`,
  }) as { schemas: Record<string, Json> };
  const reached = refsIn(paths, new Set(["Error"]));
  for (let size = 0; size !== reached.size; ) {
    size = reached.size;
    for (const id of [...reached]) refsIn(all[id], reached);
  }
  return Object.fromEntries(
    Object.entries(all)
      .filter(([id]) => reached.has(id))
      .sort(([a], [b]) => a.localeCompare(b))
      // zod names each schema by its URI (`$id`); inside the document the component's place names it.
      .map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]),
  );
}

const HEADERS: Record<HeaderName | "X-Request-Id" | "X-RateLimit-Limit" | "X-RateLimit-Remaining" | "X-RateLimit-Reset" | "WWW-Authenticate", Json> = {
  "X-Request-Id": { description: "The request's id (also in error bodies as `requestId`).", schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Requests allowed in the current window.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "The Unix epoch second at which the current window ends.", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } },
  "WWW-Authenticate": { description: "`Bearer realm=\"hangar\"`.", schema: { type: "string" } },
  Location: { description: "Where the redirect leads.", schema: { type: "string" } },
  "Set-Cookie": { description: "A cookie this answer sets or clears (HttpOnly, SameSite=Lax; Secure on https).", schema: { type: "string" } },
  "Cache-Control": { description: "How long caches may keep the answer.", schema: { type: "string" } },
  ETag: { description: "The entity tag; send it back in If-None-Match.", schema: { type: "string" } },
  "Content-Disposition": { description: "`attachment; filename=\"<original name>\"`.", schema: { type: "string" } },
  "X-Hangar-Cli-Version": { description: "The version of the CLI served.", schema: { type: "string" } },
};
const headerRefs = (names: readonly string[]): Json => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] as const;

/** Routes whose answers carry the rate-limit headers: the API key's routes and the dashboard's upload routes. */
const rateLimited = (route: RouteDefinition) => route.auth === "apiKey" || (route.auth === "session" && ["presign", "multipart", "complete"].includes(route.fn));

/** The errors every route of its kind answers, by status: codes derived from routes.ts and route-input/. */
function derivedErrors(route: RouteDefinition, input: RouteInput): Map<number, Set<string>> {
  const errors = new Map<number, Set<string>>();
  const add = (status: number, ...codes: string[]) => {
    const set = errors.get(status) ?? new Set<string>();
    for (const code of codes) set.add(code);
    errors.set(status, set);
  };
  if (input.kind === "dashboard" && !["GET", "HEAD"].includes(route.method)) add(403, "cross_origin_request");
  if (route.auth === "apiKey") add(401, "missing_credentials", "invalid_credentials");
  if (route.auth === "session" || route.auth === "tester") add(401, "not_signed_in");
  if (route.auth === "updateToken") add(401, "invalid_token");
  if (route.auth !== "session" || rateLimited(route)) add(429, "rate_limited");
  if (input.body) {
    add(400, "invalid_json", "invalid_request");
    add(413, "body_too_large");
    add(415, "unsupported_media_type");
  }
  if (input.query) add(400, "invalid_request");
  if (input.params && input.notFound) {
    const mapped = mapError(input.notFound(), "-");
    add(mapped.status, mapped.body.error.code);
  }
  return errors;
}

/** Session routes on a workspace's resources answer 403 `forbidden` to members whose role lacks the permission. */
const memberScoped = (route: RouteDefinition) => route.auth === "session" && !/^\/api\/(account|session|invitations)/.test(route.path);

const REQUEST_ID = "3f6c1c1e-2b0a-4a55-9a52-0d1f5b6e8c11";
/** One example per error code, filled while the operations are built: `components.examples`. */
const errorExamples = new Map<string, Json>();

const messageOf = (code: string) => `${code.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase())} (see the README's error table)`;

function errorResponse(status: number, codes: string[], route: RouteDefinition, input: RouteInput, head: boolean): Json {
  const headers = ["X-Request-Id", ...(status === 429 ? ["Retry-After", ...RATE_HEADERS] : []), ...(status === 401 && route.auth !== "session" && route.auth !== "tester" && route.auth !== "none" ? ["WWW-Authenticate"] : [])];
  for (const code of codes) errorExamples.set(code, { summary: code, value: { error: { code, message: messageOf(code), requestId: REQUEST_ID } } });
  const examples = Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));
  const content: Json = { "application/json": { schema: { $ref: `${COMPONENT}Error` }, examples } };
  // Pages answer browsers with a page of the same status; programs get the JSON.
  if (input.kind === "page") content["text/html"] = { schema: { type: "string" } };
  return { description: codes.map((code) => `\`${code}\``).join(", "), headers: headerRefs(headers), ...(head ? {} : { content }) };
}

const mediaSchema = (media: NonNullable<Answer["media"]>): Json =>
  media.type === "application/json" ? { type: "object" } : media.binary ? { type: "string", contentMediaType: media.type } : { type: "string" };

function successResponse(answer: Answer, route: RouteDefinition, head: boolean): Json {
  const headers = ["X-Request-Id", ...(rateLimited(route) ? RATE_HEADERS : []), ...(answer.headers ?? [])];
  let content: Json | undefined;
  if (answer.json) content = { "application/json": { schema: outputRef(answer.json), ...(answer.example === undefined ? {} : { example: answer.example }) } };
  else if (answer.media) content = { [answer.media.type]: { schema: mediaSchema(answer.media) } };
  return { description: answer.description, headers: headerRefs(headers), ...(content && !head ? { content } : {}) };
}

const SECURITY: Record<RouteDefinition["auth"], Json[]> = {
  apiKey: [{ clientId: [], clientSecret: [] }],
  session: [{ session: [] }],
  tester: [{ tester: [] }],
  updateToken: [{ updateToken: [] }],
  none: [],
};

/** `GET /share/{userKey}/manifest.plist` → `getShareByUserKeyManifestPlist`. */
export function operationId(route: Pick<RouteDefinition, "method" | "path">): string {
  const words = route.path
    .split("/")
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith("{") ? ["by", segment.slice(1, -1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

function parameters(input: RouteInput): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [["path", input.params], ["query", input.query]] as const) {
    if (!schema) continue;
    const json = inputSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || (json.required ?? []).includes(name), schema: property });
    }
  }
  return out;
}

function requestBody(input: RouteInput, row: RouteOutput): Json | undefined {
  if (!input.body) return undefined;
  const schemas = typeof input.body === "function" ? PARSER_SCHEMAS.get(input.body) : [input.body];
  if (!schemas) throw new Error("openapi: a body parser without its schemas in PARSER_SCHEMAS");
  // anyOf, not oneOf: complete's two bodies share their optional fields; the parser picks by `uploadId`.
  const schema = schemas.length === 1 ? inputSchema(schemas[0]!) : { anyOf: schemas.map(inputSchema) };
  return { required: true, content: { "application/json": { schema, ...(row.request === undefined ? {} : { example: row.request }) } } };
}

function operation(route: RouteDefinition): Json {
  const key = routeKey(route);
  const input = inputOf(key);
  const own = outputOf(key);
  if (!input || !own) throw new Error(`openapi: ${key} has no row in route-input/ or route-output.ts`);
  const head = "sameAsGet" in own;
  const row = head ? outputOf(`GET ${route.path}`) : own;
  if (!row || "sameAsGet" in row) throw new Error(`openapi: ${key} is the same as a GET that has no row`);

  const responses: Json = {};
  for (const answer of row.answers) responses[String(answer.status)] = successResponse(answer, route, head);
  const errors = derivedErrors(route, input);
  if (memberScoped(route)) errors.set(403, (errors.get(403) ?? new Set()).add("forbidden"));
  for (const [status, codes] of Object.entries(row.errors ?? {})) {
    const set = errors.get(Number(status)) ?? new Set<string>();
    for (const code of codes ?? []) set.add(code);
    errors.set(Number(status), set);
  }
  for (const status of errors.keys()) if (responses[String(status)]) throw new Error(`openapi: ${key} has an answer and errors at ${status}`);
  for (const status of [...errors.keys()].sort((a, b) => a - b)) responses[String(status)] = errorResponse(status, [...errors.get(status)!], route, input, head);
  responses["500"] = { $ref: "#/components/responses/InternalError" };
  responses["503"] = { $ref: "#/components/responses/ServiceUnavailable" };

  const body = head ? undefined : requestBody(input, row);
  const params = parameters(input);
  return {
    operationId: operationId(route),
    summary: head ? `${row.summary} (headers only)` : row.summary,
    ...(row.description ? { description: row.description } : {}),
    tags: [route.fn],
    security: SECURITY[route.auth],
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** One tag per function of routes.ts: the routes it serves share a purpose (and a Lambda function). */
const TAGS: Partial<Record<RouteFunctionName, string>> = {
  presign: "Single-PUT uploads: presigned URLs for CI (API key) and the dashboard.",
  complete: "Completing uploads: the package is inspected and the build gets its links.",
  multipart: "Multipart uploads of large packages.",
  download: "The counted download behind a share link.",
  share: "Share pages, their password form, install manifests, QR codes and icons.",
  accounts: "Sign-up, sign-in, sessions, profile and passwords.",
  projects: "Projects, and the deletes that purge them (account, workspace).",
  keys: "API keys of a workspace's projects and their usage.",
  files: "Builds: lists, details, deletes and what changed between them.",
  links: "Share link settings.",
  audit: "A workspace's audit log.",
  workspaces: "Workspaces and their members.",
  invitations: "Invitations to workspaces.",
  testers: "Tester groups, their testers and invite links.",
  tester: "The tester portal: sign-in, session, the builds sent, joining groups.",
  installs: "Personal install links and who installed what.",
  apps: "Public app pages, update tokens and the in-app update check.",
  distribution: "Sending builds to testers, and unsubscribing from build mail.",
  webhooks: "Webhook, Slack and Teams endpoints and their delivery logs.",
  cli: "The CLI of this deployment as an npm tarball.",
  openapi: "This document.",
};

const DESCRIPTION = [
  "Hangar distributes APK and IPA builds: CI uploads with an API key, testers install from share links, the dashboard manages projects, keys, workspaces, testers and webhooks.",
  "",
  "Generated from the service's route tables (routes.ts, route-input/, route-output.ts) and their zod schemas; see the README's API section for the rules behind each answer.",
  "Every error is JSON `{error: {code, message, requestId, …details}}` (pages answer browsers with a page of the same status); every answer carries `X-Request-Id`.",
  "Dashboard routes take the session cookie, and state-changing ones must come from the dashboard's origin with `Content-Type: application/json` (403 `cross_origin_request` otherwise).",
].join("\n");

/** The document; built once per process by its callers (the handler memoizes it). */
export function openApiDocument(): Json {
  // Imported for its registration of the answer schemas' ids, before the registry is read.
  void ErrorBody;
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "Hangar API",
      version: "1",
      description: DESCRIPTION,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This deployment (the dashboard's address; share pages are also served on the share host)." }],
    tags: [...new Set(routes.map((r) => r.fn))].map((name) => ({ name, description: TAGS[name] ?? `The routes of the ${name} function.` })),
    paths,
    components: {
      schemas: componentSchemas(paths),
      headers: HEADERS,
      examples: Object.fromEntries([...errorExamples].sort(([a], [b]) => a.localeCompare(b))),
      responses: {
        InternalError: {
          description: "`internal_error`: a bug; the request id finds it in the logs.",
          headers: headerRefs(["X-Request-Id"]),
          content: { "application/json": { schema: { $ref: `${COMPONENT}Error` }, example: { error: { code: "internal_error", message: "Internal server error", requestId: REQUEST_ID } } } },
        },
        ServiceUnavailable: {
          description: "`service_unavailable`: a storage service failed; retry after `Retry-After` seconds.",
          headers: headerRefs(["X-Request-Id", "Retry-After"]),
          content: { "application/json": { schema: { $ref: `${COMPONENT}Error` }, example: { error: { code: "service_unavailable", message: "A storage service is unavailable; retry shortly", requestId: REQUEST_ID } } } },
        },
      },
      securitySchemes: {
        clientId: { type: "apiKey", in: "header", name: "X-Client-ID", description: "An API key's client id; sent with its secret (clientSecret)." },
        clientSecret: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <clientSecret>` (`hgs_…`), with X-Client-ID. 100 requests a minute per key." },
        session: { type: "apiKey", in: "cookie", name: "hangar_session", description: "The dashboard's session cookie (`__Host-hangar_session` on https), set by `POST /api/session`." },
        tester: { type: "apiKey", in: "cookie", name: "hangar_tester", description: "The tester portal's cookie, set by `POST /api/tester/session`." },
        updateToken: { type: "http", scheme: "bearer", bearerFormat: "hut_…", description: "An update token of one project: opens `GET /api/updates/latest` only." },
      },
    },
  };
}

/** The document as served and committed: two-space JSON with a final newline. */
export const openApiDocumentText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
