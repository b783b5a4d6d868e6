import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The dashboard imports core's rules and shapes (schemas, palette, byte formatter, answer types)
 * through subpaths that must stay browser-safe: each module they reach imports only other such
 * modules and zod/mini, never Node built-ins, AWS clients or core's use cases. A schema that
 * starts importing `node:…` fails here, before a build bundles a stub that breaks at runtime.
 */
const REPO = resolve(import.meta.dirname, "../../..");
const WEB_SRC = join(REPO, "packages/web/src");
const ALLOWED_PACKAGES = new Set(["zod/mini"]);

function exportsOf(pkg: string): Record<string, string> {
  return JSON.parse(readFileSync(join(REPO, "packages", pkg, "package.json"), "utf8")).exports;
}

/** `@hangar/core/palette` → the file its `exports` entry names. */
function resolveWorkspace(specifier: string): string | undefined {
  const m = /^@hangar\/([^/]+)\/(.+)$/.exec(specifier);
  if (!m) return undefined;
  const target = exportsOf(m[1]!)[`./${m[2]}`];
  return target ? join(REPO, "packages", m[1]!, target) : undefined;
}

/** Value imports and re-exports (type-only ones vanish from the bundle). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);
}

function resolveRelative(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // next candidate
    }
  }
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

describe("the core subpaths the dashboard imports", () => {
  const used = new Set<string>();
  for (const file of readdirSync(WEB_SRC, { recursive: true }) as string[]) {
    if (!/\.tsx?$/.test(file)) continue;
    for (const specifier of valueImports(join(WEB_SRC, file))) if (specifier.startsWith("@hangar/")) used.add(specifier);
  }

  it("are the schemas, palette and formatter the forms and pages share with the API", () => {
    expect([...used].sort()).toEqual(
      expect.arrayContaining(["@hangar/core/account-input-schema", "@hangar/core/dashboard-schema", "@hangar/core/format-bytes", "@hangar/core/link-schema"]),
    );
  });

  it.each([...used].sort())("%s reaches only browser-safe modules", (subpath) => {
    const entry = resolveWorkspace(subpath);
    expect(entry, `${subpath} is no exports entry`).toBeDefined();
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of valueImports(file)) {
        if (specifier.startsWith(".")) walk(resolveRelative(file, specifier));
        else if (specifier.startsWith("@hangar/")) walk(resolveWorkspace(specifier) ?? `${specifier} (no exports entry)`);
        else expect(ALLOWED_PACKAGES, `${file} imports ${specifier}`).toContain(specifier);
      }
    };
    walk(entry!);
  });
});
