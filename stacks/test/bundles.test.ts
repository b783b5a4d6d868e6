import path from "node:path";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { fallbackHandler, functions } from "@hangar/functions";
import { lambdaNodejs } from "../bundling";
import { REAPER_HANDLER } from "../storage-stack";
import { REPO_ROOT } from "../synthesize";

/** The inputs of a function's bundle, built with the deploy's esbuild options (stacks/bundling.ts). */
async function bundleInputs(handler: string): Promise<string[]> {
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
  return Object.keys(result.metafile!.inputs);
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

  it("the reaper carries the S3 client only: no DynamoDB client and no HTTP composition root", async () => {
    const inputs = await bundleInputs(REAPER_HANDLER);
    expect(inputs.some((i) => i.includes("@aws-sdk/client-s3/"))).toBe(true);
    expect(inputs.filter((i) => i.includes("@aws-sdk/client-dynamodb/") || i.includes("@aws-sdk/lib-dynamodb/"))).toEqual([]);
    expect(inputs.filter((i) => i.endsWith("composition/root.ts"))).toEqual([]);
  });
});
