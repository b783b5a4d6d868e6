import path from "node:path";
import type { NodeJSProps } from "sst/constructs";
import { functions, type RouteFunctionName } from "@hangar/functions";

/** esbuild's Plugin type as SST's own (pinned) esbuild declares it. */
type Plugin = NonNullable<NonNullable<NodeJSProps["esbuild"]>["plugins"]>[number];

/**
 * In Lambda the execution role's credentials are always in the environment
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN), which is the first
 * provider the SDK's default chain tries and the one it ends up using there. The rest of the
 * chain (SSO, INI files, web identity, STS, IMDS...) is dead code in a function, yet every
 * client pulls it in statically: ~120 KB minified per bundle, loaded on every cold start.
 * This swaps the chain for its env provider in Lambda bundles only; local runs keep the SDK's
 * full chain.
 */
export const envCredentialsOnly: Plugin = {
  name: "hangar-env-credentials-only",
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, (args) => ({
      path: args.path,
      namespace: "hangar-env-credentials",
      pluginData: { resolveDir: args.resolveDir },
    }));
    build.onLoad({ filter: /.*/, namespace: "hangar-env-credentials" }, (args) => ({
      contents: `export { fromEnv as defaultProvider } from "@aws-sdk/credential-provider-env";`,
      resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
      loader: "js",
    }));
  },
};

/**
 * Deployed stages send mail through SES: the stacks never give a function HANGAR_SMTP_URL
 * (settings.ts, functionEnvironment), so the SMTP mailer, imported only when that setting is
 * present (composition/accounts.ts), is dead code in Lambda. Without this, nodemailer (~250 KB
 * minified) would sit in the accounts function's bundle and be parsed on every cold start. The
 * stand-in fails loudly should a function ever be given the setting; the local stack, which runs
 * the sources, keeps the real SMTP mailer for its MailDev.
 */
export const sesMailOnly: Plugin = {
  name: "hangar-ses-mail-only",
  setup(build) {
    build.onResolve({ filter: /^@hangar\/core\/mail-smtp$/ }, (args) => ({ path: args.path, namespace: "hangar-ses-mail-only" }));
    build.onLoad({ filter: /.*/, namespace: "hangar-ses-mail-only" }, () => ({
      contents: [
        "export class SmtpMailer {",
        '  constructor() { throw new Error("HANGAR_SMTP_URL is for the local stack: deployed functions send mail through SES and carry no SMTP client"); }',
        "}",
      ].join("\n"),
      loader: "js",
    }));
  },
};

/**
 * Event streams (S3 SelectObjectContent, Lambda InvokeWithResponseStream…) are an operation shape
 * no function of ours calls, yet smithy's protocol layer imports their codec for every client
 * (`import("@smithy/core/event-streams")`, inlined by a single-file bundle) and the S3 and Lambda
 * clients import it (or its older packages) statically to fill a config field only those operations read: ~20 KB minified
 * in every bundle. The stand-in leaves that field unset and fails loudly should an event-stream
 * operation ever be called; the local stack, which runs the sources, keeps the real codec.
 */
export const noEventStreams: Plugin = {
  name: "hangar-no-event-streams",
  setup(build) {
    build.onResolve({ filter: /^@smithy\/(core\/event-streams|eventstream-serde-node|eventstream-serde-config-resolver)$/ }, (args) => ({ path: args.path, namespace: "hangar-no-event-streams" }));
    build.onLoad({ filter: /.*/, namespace: "hangar-no-event-streams" }, () => ({
      contents: [
        'const unavailable = () => { throw new Error("event-stream operations are not bundled into Hangar\'s functions (stacks/bundling.ts, noEventStreams)"); };',
        "export const resolveEventStreamSerdeConfig = (input) => input;",
        "export const eventStreamSerdeProvider = unavailable;",
        "export class EventStreamSerde { constructor() { unavailable(); } }",
      ].join("\n"),
      loader: "js",
    }));
  },
};

/** The route function whose handler file a bundle's entry point is (SST gives one entry per function). */
function routeFunctionOf(entryPoints: unknown): RouteFunctionName | undefined {
  const entries = Array.isArray(entryPoints) ? entryPoints : [];
  const entry = typeof entries[0] === "string" ? entries[0].split(path.sep).join("/") : undefined;
  if (!entry || entries.length !== 1) return undefined;
  const found = Object.entries(functions).find(([, fn]) => entry.endsWith(`${path.posix.parse(fn.handler).dir}/${path.posix.parse(fn.handler).name}.ts`));
  return found && found[0] !== "fallback" ? (found[0] as RouteFunctionName) : undefined;
}

/**
 * Each route's input schemas (route-input/index.ts) are declared in one file per function; the
 * index joins them for what reads every route (the OpenAPI document, the tests). The middleware
 * (middleware/http-function.ts) looks its function's rows up in the index, which would put every
 * route's zod schemas, and the rules of every use case they import, into every function's bundle
 * (~20 KB minified, parsed on each cold start) although a function only ever reads its own rows:
 * httpFunction asks only for them, and fails at import when one is missing. This gives the
 * middleware of a function's bundle the `inputOf` of that function's own file instead: the same
 * answer for every route of the function. The local stack, which runs the sources, reads the index.
 */
export const ownRouteInput: Plugin = {
  name: "hangar-own-route-input",
  setup(build) {
    const fn = routeFunctionOf(build.initialOptions.entryPoints);
    if (!fn) return;
    build.onResolve({ filter: /^\.\.\/route-input$/ }, (args) =>
      /[\\/]middleware[\\/]http-function\.ts$/.test(args.importer)
        ? { path: path.join(args.resolveDir, "..", "route-input", `${fn}.ts`), namespace: "hangar-own-route-input" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "hangar-own-route-input" }, (args) => ({
      contents: [
        `import { input } from ${JSON.stringify(args.path)};`,
        "export const inputOf = (key) => input[key];",
      ].join("\n"),
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * How every function is bundled: SST's esbuild step with these options on top of its own
 * defaults (bundle, keepNames, ESM `module` main fields, createRequire banner). The cold-start
 * benchmark bundles with the same object, so its sizes are the deployed sizes.
 *
 * The AWS SDK v3 is bundled, not left to the copy in the Lambda runtime: bundling tree-shakes
 * it to the commands a function uses and pins the version we tested instead of whatever the
 * runtime ships that week (the runtime's copy is also loaded from disk on every cold start).
 */
export const lambdaNodejs = {
  format: "esm",
  minify: true,
  // No source maps: SST would upload them through its bootstrap bucket (an AWS lookup at
  // synth); keepNames (SST's default) keeps function names readable in stack traces.
  sourcemap: false,
  esbuild: { target: "node24", plugins: [envCredentialsOnly, sesMailOnly, noEventStreams, ownRouteInput] },
} as const satisfies NodeJSProps;
