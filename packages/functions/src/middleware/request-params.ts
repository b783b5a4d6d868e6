import { ValidationError } from "@hangar/core";
import type { Middleware } from "./http-context";

/**
 * The query string, parsed with the route's query schema into context.query (400 with the
 * fields named, as for a body). A route without one reads no query.
 */
export function queryInput(parse: (raw: unknown) => unknown): Middleware {
  return {
    before: (request) => {
      request.context.query = parse(request.event.queryStringParameters ?? {});
    },
  };
}

/**
 * The path parameters, parsed with the route's params schema into context.params. A value that
 * fails names nothing this service could have issued, so it answers the route's own 404 (an
 * unknown project, key, file or link), exactly as an id that does not exist, before any lookup.
 */
export function pathParams(parse: (raw: unknown) => unknown, notFound: () => Error): Middleware {
  return {
    before: (request) => {
      try {
        request.context.params = parse(request.event.pathParameters ?? {});
      } catch (error) {
        throw error instanceof ValidationError ? notFound() : error;
      }
    },
  };
}
