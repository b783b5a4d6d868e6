// sst loads aws-sdk v2 (its maintenance notice is noise here); set before it is imported.
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = "1";
const { nagFindings, synthesize } = await import("../stacks/synthesize");

/**
 * `npm run synth [-- <stage>]`: CloudFormation templates of a stage, offline (no AWS
 * credentials). Prints the templates' folder on its last line, for scripts to pick up; exits 1
 * when cdk-nag (AwsSolutions, Serverless) reports a finding that is not suppressed in the stacks.
 */
const stage = process.argv[2] ?? process.env.SST_STAGE ?? "dev";
// A refused setting (a bare domain as HANGAR_MAIL_FROM, a share host no zone holds…) is the
// operator's to fix: its message says what to write, a stack trace would only bury it. By name:
// the stacks run from SST's own bundle of sst.config.ts, with their own copy of the class.
const { assembly, outdir } = await synthesize({ stage }).catch((error: unknown) => {
  if (!(error instanceof Error && error.name === "StageSettingsError")) throw error;
  console.error(`error: ${error.message}`);
  process.exit(1);
});
for (const stack of assembly.stacks) {
  const resources = Object.keys((stack.template as { Resources?: object }).Resources ?? {}).length;
  console.log(`${stack.stackName}: ${resources} resources (${stack.templateFile})`);
}
// Warnings worth reading before a deploy (a placeholder dashboard, mail without HANGAR_MAIL_FROM…).
for (const stack of assembly.stacks) {
  for (const message of stack.messages.filter((m) => m.level === "warning")) console.error(`warning: ${message.id}: ${String(message.entry.data)}`);
}
const findings = nagFindings(assembly);
for (const finding of findings) console.error(`cdk-nag: ${finding}`);
if (findings.length > 0) process.exitCode = 1;
console.log(outdir);
export {};
