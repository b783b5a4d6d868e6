import type { App } from "sst/constructs";
import { lambdaNodejs } from "./bundling";
import { stageSettings } from "./settings";

/**
 * App-wide defaults, applied before any stack: every function is ESM on Node 22 / Graviton,
 * bundled and minified by SST's esbuild step.
 */
export function configureApp(app: App): void {
  const settings = stageSettings(app.stage);
  app.setDefaultFunctionProps({
    runtime: "nodejs22.x",
    // Graviton: ~20% cheaper per GB-second than x86 and no native modules in the bundle.
    architecture: "arm_64",
    // No X-Ray tracer in the code: active tracing would only add xray:* grants and cost.
    tracing: "disabled",
    nodejs: { ...lambdaNodejs, esbuild: { ...lambdaNodejs.esbuild, plugins: [...lambdaNodejs.esbuild.plugins] } },
  });
  // Non-production stages are disposable: `sst remove` must leave nothing behind (SST also
  // empties the bucket first). Production keeps CDK's defaults plus explicit RETAIN on data.
  if (!settings.production) app.setDefaultRemovalPolicy("destroy");
}
