import { describe, expect, it } from "vitest";
import { routeInput, type RouteInput } from "../src/route-input";
import { routeKey, routes } from "../src/routes";

const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
const input = (key: string) => (routeInput as Record<string, RouteInput>)[key]!;

describe("route-input/ declares every route's input", () => {
  it("has exactly one row per route of routes.ts", () => {
    expect(Object.keys(routeInput).sort()).toEqual(routes.map(routeKey).sort());
  });

  it.each(routes.map((r) => [routeKey(r), r.path] as const))("%s: a params schema naming exactly its {params}, with its 404", (key, path) => {
    const row = input(key);
    const declared = row.params ? Object.keys(row.params.shape).sort() : [];
    expect(declared).toEqual(paramsOf(path));
    expect(row.notFound !== undefined).toBe(row.params !== undefined);
    if (row.notFound) expect((row.notFound() as { code?: string }).code).toMatch(/_not_found$/);
  });

  it("reads a body only where a method can carry one, and a query only on GET", () => {
    for (const route of routes) {
      const row = input(routeKey(route));
      if (row.body) expect(["POST", "PUT", "PATCH", "DELETE"], routeKey(route)).toContain(route.method);
      if (row.query) expect(route.method, routeKey(route)).toBe("GET");
    }
  });

  it("gives the dashboard kind to every session route, and never to an API-key one", () => {
    for (const route of routes) {
      if (route.auth === "session") expect(input(routeKey(route)).kind, routeKey(route)).toBe("dashboard");
      if (route.auth === "apiKey") expect(input(routeKey(route)).kind, routeKey(route)).toBe("api");
    }
  });

  it("refuses params of a shape never issued with the resource's own 404, and bounds every one", () => {
    for (const route of routes) {
      const row = input(routeKey(route));
      if (!row.params) continue;
      const names = paramsOf(route.path);
      const huge = Object.fromEntries(names.map((n) => [n, "a".repeat(5000)]));
      expect(row.params.safeParse(huge).success, routeKey(route)).toBe(false);
    }
  });
});
