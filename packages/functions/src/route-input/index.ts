/**
 * What each route of routes.ts takes in, and how it faces its clients: its body, query and
 * path-parameter schemas (the very zod schemas core exports) and its kind. The middleware
 * (middleware/http-function.ts) parses every request with them before the handler runs, so a
 * handler receives typed input and a core use case a typed object: input is validated once, here.
 *
 * A table of its own, keyed by route key and type-checked to name every route exactly once
 * (`satisfies Record<RouteKey, RouteInput>`), rather than columns of routes.ts: routes.ts is read
 * by the stack at synth, by the local server and by the fallback function, none of which parses
 * a body; importing the schemas there would put zod and every use case's rules into the fallback's
 * cold start and the synth. Routes are still declared in routes.ts only; this table cannot add one.
 *
 * One file per function (route-input/<function>.ts, rows of that function's routes only), and
 * this index, the whole table, for what reads every route (the OpenAPI document, the tests, the
 * local server's middleware): a function's bundle carries its own rows' schemas only, not every
 * use case's rules. The middleware reads `inputOf` from this index; a deployed function's bundle
 * is given its own file's `inputOf` instead (stacks/bundling.ts, `ownRouteInput`), which answers
 * the same for every route of that function.
 *
 * Kinds:
 * - `api`: called by programs (CI, the CLI) with JSON in and out;
 * - `dashboard`: called by the dashboard's pages with the session cookie: the same-origin guard
 *   (CSRF), the account API's security headers and the clearing of a refused session cookie;
 * - `page`: opened by people's browsers (share, download): the function may render its errors
 *   as pages (httpFunction's `errorPage`).
 *
 * A route with `{param}` segments names a params schema with exactly those keys (checked by
 * packages/functions/test/route-input.test.ts) and the error a malformed one answers: an id of a
 * shape this service never issues names nothing, so it is that resource's 404, never a 400.
 */
import type * as z from "zod/mini";
import type { RouteKey } from "../routes";
import { input as presign } from "./presign";
import { input as complete } from "./complete";
import { input as multipart } from "./multipart";
import { input as download } from "./download";
import { input as share } from "./share";
import { input as accounts } from "./accounts";
import { input as projects } from "./projects";
import { input as keys } from "./keys";
import { input as files } from "./files";
import { input as links } from "./links";
import { input as audit } from "./audit";
import { input as invitations } from "./invitations";
import { input as workspaces } from "./workspaces";
import { input as testers } from "./testers";
import { input as tester } from "./tester";
import { input as installs } from "./installs";
import { input as apps } from "./apps";
import { input as distribution } from "./distribution";
import { input as webhooks } from "./webhooks";
import { input as devices } from "./devices";
import { input as apple } from "./apple";
import { input as cli } from "./cli";
import { input as openapi } from "./openapi";
import type { RouteInput } from "./rows";

export type { RouteInput, RouteKind } from "./rows";

/** Every route's row, in routes.ts's order of functions. */
export const routeInput = {
  ...presign,
  ...complete,
  ...multipart,
  ...download,
  ...share,
  ...accounts,
  ...projects,
  ...keys,
  ...files,
  ...links,
  ...audit,
  ...invitations,
  ...workspaces,
  ...testers,
  ...tester,
  ...installs,
  ...apps,
  ...distribution,
  ...webhooks,
  ...devices,
  ...apple,
  ...cli,
  ...openapi,
} as const satisfies Record<RouteKey, RouteInput>;

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : S extends (raw: unknown) => infer T ? T : never;
type Row<K extends RouteKey> = (typeof routeInput)[K];

/** The parsed body, query and path parameters of route K (undefined where it declares none). */
export type BodyOf<K extends RouteKey> = Row<K> extends { body: infer S } ? Parsed<S> : undefined;
export type QueryOf<K extends RouteKey> = Row<K> extends { query: infer S } ? Parsed<S> : undefined;
export type ParamsOf<K extends RouteKey> = Row<K> extends { params: infer S } ? Parsed<S> : undefined;

export function inputOf(key: string): RouteInput | undefined {
  return (routeInput as Record<string, RouteInput>)[key];
}
