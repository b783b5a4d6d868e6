import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Aspects } from "aws-cdk-lib";
import type { CloudAssembly } from "aws-cdk-lib/cx-api";
import { AwsSolutionsChecks, ServerlessChecks } from "cdk-nag";
import type { SSTConfig } from "sst";
import { App } from "sst/constructs";
import { initProject, useProject } from "sst/project.js";
import { load } from "sst/stacks/build.js";

export interface SynthesizeOptions {
  stage: string;
  /** Where the cloud assembly (templates + bundled functions) is written. */
  outdir?: string;
  region?: string;
  /** Any 12 digits: nothing is looked up, the account only ends up inside ARNs. */
  account?: string;
  /**
   * Deploy settings to use instead of the process environment (undefined unsets). Applied
   * after SST has loaded the .env files, so a developer's .env cannot leak into tests.
   */
  env?: Record<string, string | undefined>;
}

export interface Synthesized {
  app: App;
  assembly: CloudAssembly;
  outdir: string;
}

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const FAKE_ACCOUNT = "123456789012";

/**
 * What `sst build` does, minus the AWS calls: load sst.config.ts through SST's own loader, run
 * its stacks on an App in deploy mode, let SST bundle every function with esbuild (local, no
 * Docker), synthesize.
 *
 * SST's `sst build` asks STS for the account and, outside tests, looks up its bootstrap
 * stack when finishing the app. NODE_ENV=test is SST's own switch to skip that lookup (it only
 * serves the upload of source maps, which this app does not produce), so it is forced here.
 */
export async function synthesize(options: SynthesizeOptions): Promise<Synthesized> {
  process.env.NODE_ENV = "test";
  const cwd = process.cwd();
  const saved = Object.fromEntries([...Object.keys(options.env ?? {}), "HANGAR_SYNTH_ONLY"].map((k) => [k, process.env[k]]));
  // SST resolves handler paths and writes .sst/ relative to the working directory.
  process.chdir(REPO_ROOT);
  try {
    await initProject({ stage: options.stage, root: REPO_ROOT, ...(options.region ? { region: options.region } : {}) });
    for (const [key, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    // Templates only: the web stack may stand in a placeholder for an unbuilt dashboard.
    process.env.HANGAR_SYNTH_ONLY = "1";
    const project = useProject();
    const outdir = options.outdir ?? path.join(REPO_ROOT, ".sst", "synth", options.stage);
    // Stale assets of a previous synth would otherwise pile up beside the new ones.
    await rm(outdir, { recursive: true, force: true });
    const app = new App(
      {
        mode: "deploy",
        stage: project.config.stage,
        name: project.config.name,
        region: project.config.region ?? "us-east-1",
        account: options.account ?? FAKE_ACCOUNT,
      },
      { outdir },
    );
    // initProject loads sst.config.ts shallowly (without `stacks`); `sst build` and
    // `sst deploy` then bundle and load it in full like this, and run its stacks.
    const [, config] = (await load(project.paths.config)) as readonly [unknown, SSTConfig];
    await config.stacks(app);
    await app.finish();
    // cdk-nag's rule packs report as error annotations (see nagFindings); accepted findings are
    // suppressed in the stacks, each with its reason, so a new one shows up here.
    Aspects.of(app).add(new AwsSolutionsChecks());
    Aspects.of(app).add(new ServerlessChecks());
    const assembly = app.synth();
    return { app, assembly, outdir };
  } finally {
    process.chdir(cwd);
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** Unsuppressed cdk-nag findings (and any other error annotation) of a synthesized assembly. */
export function nagFindings(assembly: CloudAssembly): string[] {
  return assembly.stacks.flatMap((stack) =>
    stack.messages.filter((m) => m.level === "error").map((m) => `${stack.stackName}${m.id}: ${String(m.entry.data)}`),
  );
}
