// sst loads aws-sdk v2 (its maintenance notice is noise here); set before it is imported.
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = "1";
const { nagFindings, synthesize } = await import("../stacks/synthesize");

/**
 * `npm run synth [-- <stage>]`: CloudFormation templates of a stage, offline (no AWS
 * credentials). Prints the templates' folder on its last line, for scripts to pick up; exits 1
 * when cdk-nag (AwsSolutions, Serverless) reports a finding that is not suppressed in the stacks.
 */
const stage = process.argv[2] ?? process.env.SST_STAGE ?? "dev";
const { assembly, outdir } = await synthesize({ stage });
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
