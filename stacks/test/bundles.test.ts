import path from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { fallbackHandler, functions } from "@hangar/functions";
import { lambdaNodejs } from "../bundling";
import * as stackHandlers from "../handlers";
import { REAPER_HANDLER } from "../storage-stack";
import { REPO_ROOT } from "../synthesize";

/** The inputs of a function's bundle, built with the deploy's esbuild options (stacks/bundling.ts). */
async function bundleInputs(handler: string): Promise<string[]> {
  return Object.keys((await metafileOf(handler)).inputs);
}

/** The inputs whose code is in the bundle's output (a module reached through a barrel and shaken away counts 0 bytes). */
async function carriedInputs(handler: string): Promise<string[]> {
  const outputs = Object.values((await metafileOf(handler)).outputs);
  return outputs.flatMap((output) => Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => input));
}

async function metafileOf(handler: string): Promise<Metafile> {
  const parsed = path.posix.parse(handler);
  const result = await build({
    entryPoints: [path.join(REPO_ROOT, `${parsed.dir}/${parsed.name}.ts`)],
    bundle: true,
    platform: "node",
    format: lambdaNodejs.format,
    target: lambdaNodejs.esbuild.target,
    mainFields: ["module", "main"],
    // SST's pinned esbuild declares the plugin type; both versions run it the same way.
    plugins: lambdaNodejs.esbuild.plugins as unknown as Plugin[],
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  return result.metafile!;
}

describe("function bundles", () => {
  it("the fallback loads no composition root and no AWS SDK: a 404 costs no client construction", async () => {
    const inputs = await bundleInputs(fallbackHandler);
    expect(inputs.some((i) => i.includes("packages/functions/src/fallback/"))).toBe(true);
    expect(inputs.filter((i) => i.includes("@aws-sdk/") || i.includes("@smithy/"))).toEqual([]);
    expect(inputs.filter((i) => i.includes("composition/"))).toEqual([]);
  });

  it("only the accounts and invitations functions carry mail code; the keys function carries no S3 or Lambda client", async () => {
    const mail = (inputs: string[]) => inputs.filter((i) => /node_modules\/(nodemailer|@aws-sdk\/client-sesv2)\//.test(i) || i.includes("adapters/mail/"));
    expect(mail(await bundleInputs(functions.accounts.handler)).length).toBeGreaterThan(0);
    expect(mail(await bundleInputs(functions.invitations.handler)).length).toBeGreaterThan(0);
    for (const fn of ["projects", "keys", "files", "links"] as const) expect(mail(await bundleInputs(functions[fn].handler)), fn).toEqual([]);
    const keys = await bundleInputs(functions.keys.handler);
    expect(keys.filter((i) => i.includes("@aws-sdk/client-s3/") || i.includes("@aws-sdk/client-lambda/"))).toEqual([]);
  });

  it("deployed functions send mail through SES only: the accounts and invitations functions carry no SMTP client", async () => {
    for (const fn of ["accounts", "invitations"] as const) {
      const inputs = await bundleInputs(functions[fn].handler);
      expect(inputs.some((i) => i.includes("@aws-sdk/client-sesv2/")), fn).toBe(true);
      expect(inputs.filter((i) => i.includes("node_modules/nodemailer/") || i.endsWith("adapters/mail/smtp-mailer.ts")), fn).toEqual([]);
    }
  });

  it("the files function carries no Lambda client: a file's delete needs no background invocation", async () => {
    const files = await bundleInputs(functions.files.handler);
    expect(files.filter((i) => i.includes("@aws-sdk/client-lambda/") || i.endsWith("composition/self-invoke.ts"))).toEqual([]);
  });

  it("the audit function reads the table only: no mail, S3 or Lambda client", async () => {
    const audit = await bundleInputs(functions.audit.handler);
    expect(audit.some((i) => i.includes("packages/functions/src/audit/"))).toBe(true);
    expect(audit.filter((i) => /node_modules\/(nodemailer|@aws-sdk\/client-(sesv2|s3|lambda))\//.test(i) || i.includes("adapters/mail/"))).toEqual([]);
  });

  it("no function carries an SDK client for a single call (Secrets Manager, SQS, Lambda's Invoke: signed requests) or the event-stream codec", async () => {
    // Every HTTP function reads the origin secret; complete and distribution queue build mails; devices and apple read
    // their keys; accounts and projects invoke themselves for background tasks.
    for (const fn of ["presign", "complete", "distribution", "devices", "apple", "accounts", "projects"] as const) {
      const inputs = await bundleInputs(functions[fn].handler);
      expect(inputs.filter((i) => /node_modules\/@aws-sdk\/client-(secrets-manager|sqs|lambda)\//.test(i)), fn).toEqual([]);
      expect(inputs.filter((i) => /node_modules\/@smithy\/(core\/dist-es\/submodules\/event-streams|eventstream-)/.test(i)), fn).toEqual([]);
    }
  });

  it("presign carries the table client and the URL signer only: no S3 client, mail, webhook delivery, inspector or event code", async () => {
    const presign = await carriedInputs(functions.presign.handler);
    expect(presign.some((i) => i.endsWith("adapters/s3/url-signer.s3.ts"))).toBe(true);
    // The table is spoken to by DynamoJsonClient, with lib-dynamodb's command classes (what the
    // repositories build; they bring client-dynamodb's commands, which nothing sends).
    expect(presign.some((i) => i.endsWith("adapters/dynamo/document-client.ts"))).toBe(true);
    expect(presign.some((i) => i.includes("node_modules/@aws-sdk/lib-dynamodb/"))).toBe(true);
    expect(
      presign.filter(
        (i) =>
          /node_modules\/(nodemailer|@aws-sdk\/client-(s3|sesv2|lambda))\//.test(i) ||
          i.includes("adapters/mail/") ||
          i.includes("packages/inspect/") ||
          /webhooks\/(deliver|webhooks\.dynamo|sqs-queue|event-builders)\.ts$/.test(i) ||
          /composition\/(events|complete|distribution)\.ts$/.test(i),
      ),
    ).toEqual([]);
  });

  it("a function carries its own routes' input schemas only (stacks/bundling.ts, ownRouteInput); the openapi function, every route's", async () => {
    const rowFiles = (inputs: string[]) => [...new Set(inputs.filter((i) => i.includes("packages/functions/src/route-input/")).map((i) => i.slice(i.lastIndexOf("/") + 1)))].sort();
    expect(rowFiles(await carriedInputs(functions.presign.handler))).toEqual(["presign.ts", "rows.ts"]);
    expect(rowFiles(await carriedInputs(functions.links.handler))).toEqual(["links.ts", "rows.ts"]);
    expect(rowFiles(await carriedInputs(functions.openapi.handler))).toEqual(expect.arrayContaining(["index.ts", "presign.ts", "links.ts", "openapi.ts"]));
  });

  it("complete carries the extractor, the build diff and event publishing, but no mail sender, Lambda client or XML DOM", async () => {
    const complete = await carriedInputs(functions.complete.handler);
    for (const needed of ["packages/inspect/src/inspect-package.ts", "releases/build-diff.ts", "composition/events.ts"]) expect(complete.some((i) => i.endsWith(needed)), needed).toBe(true);
    expect(complete.filter((i) => /node_modules\/(nodemailer|@xmldom|xmlbuilder|plist|@aws-sdk\/client-(sesv2|lambda))\//.test(i) || i.includes("adapters/mail/"))).toEqual([]);
    // Its object and multipart calls are signed fetches (core's adapters/s3/s3-request.ts): no S3 client.
    expect(complete.some((i) => i.endsWith("adapters/s3/s3-request.ts"))).toBe(true);
    expect(complete.filter((i) => /node_modules\/@aws-sdk\/(client-s3|middleware-sdk-s3|xml-builder)\//.test(i))).toEqual([]);
  });

  it("devices reads and writes the enroll plists without the plist package's XML DOM and builder", async () => {
    const devices = await carriedInputs(functions.devices.handler);
    expect(devices.some((i) => i.endsWith("inspect/src/ipa/xml-plist.ts"))).toBe(true);
    expect(devices.filter((i) => /node_modules\/(plist|@xmldom|xmlbuilder)\//.test(i))).toEqual([]);
  });

  it("no function carries the S3 client: object, range, multipart, reaper and purge calls are signed fetches", async () => {
    const handlers = [...Object.values(functions).map((fn) => fn.handler), ...Object.values(stackHandlers)];
    const builds = await Promise.all(handlers.map(async (handler) => [handler, await bundleInputs(handler)] as const));
    for (const [handler, inputs] of builds) {
      expect(inputs.filter((i) => /node_modules\/@aws-sdk\/(client-s3|middleware-sdk-s3)\//.test(i)), handler).toEqual([]);
    }
    // The functions that delete builds and projects purge through the signed DeleteObjects.
    for (const fn of ["files", "projects"] as const) {
      expect((await bundleInputs(functions[fn].handler)).some((i) => i.endsWith("adapters/s3/object-purger.s3.ts")), fn).toBe(true);
    }
  });

  it("the reaper carries its object store only, as signed fetches: no S3 or DynamoDB client and no HTTP composition root", async () => {
    const inputs = await bundleInputs(REAPER_HANDLER);
    expect(inputs.some((i) => i.endsWith("adapters/s3/s3-request.ts"))).toBe(true);
    expect(inputs.filter((i) => /node_modules\/@aws-sdk\/(client-s3|middleware-sdk-s3|xml-builder)\//.test(i))).toEqual([]);
    expect(inputs.filter((i) => i.includes("@aws-sdk/client-dynamodb/") || i.includes("@aws-sdk/lib-dynamodb/"))).toEqual([]);
    expect(inputs.filter((i) => i.endsWith("composition/root.ts"))).toEqual([]);
  });
});
