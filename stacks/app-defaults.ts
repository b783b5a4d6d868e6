import type { App } from "sst/constructs";
import { lambdaNodejs } from "./bundling";
import { stageSettings } from "./settings";

/**
 * App-wide defaults, applied before any stack: every function is ESM on Node 24 / Graviton,
 * bundled and minified by SST's esbuild step.
 */
export function configureApp(app: App): void {
  const settings = stageSettings(app.stage);
  // S3 server access logs are delivered through a bucket policy on the log bucket, not ACLs
  // (every bucket has ACLs disabled); CDK's default without this flag would need them.
  app.node.setContext("@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy", true);
  app.setDefaultFunctionProps({
    runtime: "nodejs24.x",
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
