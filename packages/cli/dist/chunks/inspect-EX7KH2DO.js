import {
  FileRangeReader,
  InspectError,
  inspectPackage
} from "./chunk-3R4D53VR.js";
import "./chunk-AEPEW2SX.js";
import {
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  parseCommandArgs,
  usageText
} from "./chunk-OA5U4LFR.js";
import "./chunk-LM7JBYQ3.js";

// src/commands/inspect.ts
import { writeFile } from "node:fs/promises";
import { basename } from "node:path";
var HELP = `Usage: hangar inspect <file.apk|file.ipa> [options]

Reads an APK or IPA the way the service does (only the bytes it needs) and prints its metadata,
including who signed it: an APK's signature scheme and signer certificate SHA-256 (as
\`apksigner verify --print-certs\` prints it), an IPA profile's UUID and developer certificates.

Options:
  --json               Print JSON: the metadata, the icon as {path,width,height,bytes},
                       bytesRead and reads. An unreadable package prints {"error":{code,message}}.
  --save-icon <path>   Write the app icon (standard PNG) to <path>.
  --time-budget <ms>   Give up after this many milliseconds (default 20000).
  -h, --help           Show this help.

Exit codes (the same meanings as hangar upload's):
  0  read
  1  unexpected internal error (a bug: please report it)
  2  usage: bad arguments, or the file cannot be opened or read
  6  package rejected: not an APK/IPA the service could read (the code says why); the service
     would refuse the same file with 422 invalid_package
`;
var INSPECT_EXIT = { ok: EXIT_OK, internal: EXIT_FAILURE, usage: EXIT_USAGE, rejected: 6 };
function inspectExitCode(error) {
  if (!(error instanceof InspectError)) return INSPECT_EXIT.internal;
  return error.code === "read_failed" ? INSPECT_EXIT.usage : INSPECT_EXIT.rejected;
}
function parse(args) {
  const parsed = parseCommandArgs(
    args,
    {
      json: { type: "boolean", default: false },
      "save-icon": { type: "string" },
      "time-budget": { type: "string" }
    },
    { missing: "missing the package file", tooMany: "give exactly one package file" }
  );
  if (parsed === "help") return "help";
  const { values, file } = parsed;
  const result = { file, json: values.json === true };
  if (values["save-icon"] !== void 0) result.saveIcon = values["save-icon"];
  if (values["time-budget"] !== void 0) {
    const ms = Number(values["time-budget"]);
    if (!Number.isInteger(ms) || ms <= 0) throw new UsageError("--time-budget takes a positive whole number of milliseconds");
    result.timeBudgetMs = ms;
  }
  return result;
}
function printable(result, stats) {
  const { icon, ...rest } = result;
  return {
    ...rest,
    ...icon ? { icon: { path: icon.path, width: icon.width, height: icon.height, bytes: icon.data.length } } : {},
    bytesRead: stats.bytesRead,
    reads: stats.reads
  };
}
function groupThousands(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
var SCHEME_NAMES = {
  "v3.1": "APK Signature Scheme v3.1",
  v3: "APK Signature Scheme v3",
  v2: "APK Signature Scheme v2",
  v1: "JAR signing (v1)"
};
function summary(file, size, out) {
  const lines = [`${out.appName} (${out.bundleId})`];
  const row = (label, value) => {
    if (value !== void 0 && value !== "") lines.push(`  ${label.padEnd(12)}${value}`);
  };
  row("platform", out.platform === "ios" ? "iOS" : "Android");
  row("version", out.buildNumber ? `${out.version} (${out.buildNumber})` : out.version);
  row(out.platform === "ios" ? "minimum iOS" : "min SDK", out.minOs);
  row("target SDK", out.targetSdk);
  row("platforms", out.supportedPlatforms?.join(", "));
  if (out.provisioning) {
    const p = out.provisioning;
    row("profile", `${p.kind}: ${p.name}${p.teamId ? ` (team ${p.teamId})` : ""}${p.expiresAt ? `, expires ${p.expiresAt}` : ""}`);
    row("profile id", p.uuid);
    for (const sha of p.developerCertificateSha256) row("certificate", `SHA-256 ${sha}`);
  }
  if (out.signing) {
    const { scheme, certificateSha256 } = out.signing;
    row("signed", scheme === null ? "no (Android installs only signed APKs)" : SCHEME_NAMES[scheme]);
    for (const sha of certificateSha256) row("certificate", `SHA-256 ${sha}`);
  }
  const labels = Object.entries(out.labels ?? {}).filter(([locale]) => locale !== "");
  if (labels.length > 0) row("names", labels.map(([locale, name]) => `${locale}: ${name}`).join(", "));
  if (out.locales?.length) row("locales", out.locales.join(", "));
  if (out.permissions?.length) row("permissions", String(out.permissions.length));
  if (out.icon) row("icon", `${out.icon.path} ${out.icon.width ?? "?"}\xD7${out.icon.height ?? "?"}, ${out.icon.bytes} bytes`);
  const reads = `${out.reads} ${out.reads === 1 ? "read" : "reads"}`;
  row("read", `${groupThousands(out.bytesRead)} of ${groupThousands(size)} bytes of ${basename(file)} in ${reads}`);
  for (const warning of out.warnings) lines.push(`  warning: ${warning}`);
  return `${lines.join("\n")}
`;
}
async function run(args, io) {
  let options;
  try {
    options = parse(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(usageText("inspect", error, HELP));
    return INSPECT_EXIT.usage;
  }
  if (options === "help") {
    io.stdout(HELP);
    return EXIT_OK;
  }
  let reader;
  try {
    reader = await FileRangeReader.open(options.file);
    const result = await inspectPackage(reader, {
      fileName: options.file,
      ...options.timeBudgetMs ? { limits: { timeBudgetMs: options.timeBudgetMs } } : {}
    });
    if (options.saveIcon && result.icon) await writeFile(options.saveIcon, result.icon.data);
    const out = printable(result, reader.stats);
    io.stdout(options.json ? `${JSON.stringify(out, null, 2)}
` : summary(options.file, reader.size, out));
    return EXIT_OK;
  } catch (error) {
    const code = error instanceof InspectError ? error.code : "internal_error";
    const message = error instanceof Error ? error.message : String(error);
    if (options.json) io.stdout(`${JSON.stringify({ error: { code, message } })}
`);
    else io.stderr(`hangar inspect: ${options.file}: ${message} (${code})
`);
    return inspectExitCode(error);
  } finally {
    await reader?.close();
  }
}
var inspectCommand = {
  name: "inspect",
  summary: "Print the metadata of an APK or IPA (name, bundle id, version, icon, ...)",
  run
};
export {
  INSPECT_EXIT,
  groupThousands,
  inspectCommand,
  inspectExitCode,
  printable
};
