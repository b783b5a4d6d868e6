import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));

/**
 * A resolve hook that refuses `@aws-sdk/*`: any module that would load the SDK fails to import. Runs in a
 * fresh Node process (with tsx for TypeScript), so it sees the real module graph of the entry point.
 */
const DENY_SDK_HOOK = `
export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith("@aws-sdk/")) throw new Error("SDK_LOADED " + specifier + " from " + context.parentURL);
  return nextResolve(specifier, context);
}`;

async function importWithoutSdk(specifier: string): Promise<{ ok: boolean; output: string }> {
  const script =
    `import { register } from "node:module";` +
    `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(DENY_SDK_HOOK)}`)});` +
    `try { const m = await import(${JSON.stringify(specifier)}); console.log("EXPORTS " + Object.keys(m).sort().join(",")); }` +
    `catch (e) { console.log(String(e && e.message)); process.exitCode = 3; }`;
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: packageDir });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

describe("@hangar/inspect entry points", () => {
  it("the main entry point loads the extractor without the AWS SDK", async () => {
    const result = await importWithoutSdk("@hangar/inspect");
    expect(result.output).toContain("inspectPackage");
    expect(result.output).not.toContain("SDK_LOADED");
    expect(result.output).not.toContain("S3RangeReader");
    expect(result.ok).toBe(true);
  });

  it("the S3 reader lives behind @hangar/inspect/s3, which does load the SDK", async () => {
    // The control: the same hook does catch the SDK when it is imported.
    const result = await importWithoutSdk("@hangar/inspect/s3");
    expect(result.ok).toBe(false);
    expect(result.output).toContain("SDK_LOADED @aws-sdk/client-s3");
  });
});
