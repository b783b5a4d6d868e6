import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Another package's sources by relative path: packages import each other by name only. */
const intoPackage = (...names) => names.map((name) => `**/${name}/src/**`);
const ours = (...names) => names.flatMap((name) => [`@hangar/${name}`, `@hangar/${name}/*`]);
// Core's entry points that carry the AWS SDK, nodemailer, zxcvbn or node: modules: server only.
const coreServerOnly = ["@hangar/core", ...["dynamo", "s3", "s3-signer", "s3-purger", "s3-inspector", "s3-rest", "accounts", "mail-ses", "mail-smtp", "links", "links-dynamo", "scrypt", "aws-json", "aws-secrets"].map((s) => `@hangar/core/${s}`)];
const restrict = (files, message, paths, patterns = []) => ({
  files,
  rules: {
    "no-restricted-imports": ["error", { paths: paths.map((name) => ({ name, message })), patterns: patterns.length ? [{ group: patterns, message }] : [] }],
  },
});

/**
 * The import boundaries of README's "Layout": each block names what its files must not import.
 * Tests, benches and scripts are outside them (they exercise the packages from outside).
 */
const importBoundaries = [
  restrict(
    ["packages/core/src/**"],
    "core is the domain: it imports inspect and its adapters' SDKs, never functions, local, web, cli or Lambda/HTTP types (README, Layout)",
    ["aws-lambda", "react"],
    [...ours("functions", "local", "web", "cli"), "@middy/*", "@aws-lambda-powertools/*", ...intoPackage("functions", "local", "web", "cli", "inspect")],
  ),
  restrict(
    ["packages/inspect/src/**"],
    "inspect is a standalone parser: it imports nothing of ours (README, Layout)",
    [],
    ["@hangar/*", ...intoPackage("core", "functions", "local", "web", "cli")],
  ),
  restrict(
    ["packages/cli/src/**"],
    "the CLI imports only @hangar/inspect of ours (it is bundled into packages/cli/dist; README, Layout)",
    [],
    [...ours("core", "functions", "local", "web"), ...intoPackage("core", "functions", "local", "web", "inspect")],
  ),
  restrict(
    ["packages/functions/src/**"],
    "functions import core and inspect, never local, web or cli: the local stack runs the functions, not the other way round (README, Layout)",
    [],
    [...ours("local", "web", "cli"), ...intoPackage("core", "local", "web", "cli", "inspect")],
  ),
  restrict(
    ["packages/local/src/**"],
    "the local stack imports functions only through @hangar/functions (the route table) and loads handlers by their path, as SST does (README, Layout)",
    [],
    [...ours("web", "cli"), ...intoPackage("core", "functions", "web", "cli", "inspect")],
  ),
  restrict(
    ["packages/web/src/**"],
    "the web app imports core only through dependency-free subpaths (no AWS SDK, no node: modules), never functions, local or SDKs (README, Layout)",
    // Of inspect, only the CRC32C the browser's multipart parts carry and the browser entry of the
    // extractor (loaded lazily; its Node builtins are aliased in packages/web/vite.config.ts).
    [...coreServerOnly, "@hangar/inspect"],
    [...ours("functions", "local", "cli"), "@hangar/inspect/*", "!@hangar/inspect/crc32c", "!@hangar/inspect/browser", "@aws-sdk/*", "node:*", ...intoPackage("core", "functions", "local", "cli", "inspect")],
  ),
  restrict(
    ["stacks/**"],
    "stacks import functions only through @hangar/functions (routes, settings, header names) and core's table keys and mail-from; never handlers, adapters or local (README, Layout)",
    coreServerOnly.filter((name) => name !== "@hangar/core"),
    ["@hangar/functions/*", ...ours("local", "web", "cli"), "**/packages/**"],
  ),
];

export default tseslint.config(
  { ignores: ["**/node_modules/**", ".hangar/**", ".sst/**", ".tmp/**", "cdk.out/**", "**/dist/**", "**/.build/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      // Binary-format parsers and validators match control characters on purpose.
      "no-control-regex": "off",
    },
  },
  // What may import what (README, "Layout"): the dependency direction of the packages, enforced.
  ...importBoundaries,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
