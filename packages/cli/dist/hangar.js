#!/usr/bin/env node
import {
  VERSION
} from "./chunks/chunk-3WA5LAVB.js";
import {
  EXIT_OK,
  EXIT_USAGE
} from "./chunks/chunk-OA5U4LFR.js";
import "./chunks/chunk-LM7JBYQ3.js";

// src/commands/index.ts
function lazy(name, summary, load) {
  return { name, summary, run: async (args, io) => (await load()).run(args, io) };
}
var commands = [
  lazy("upload", "Upload an APK or IPA to Hangar and print its share and download links", async () => (await import("./chunks/upload-A6VWSVLW.js")).uploadCommand),
  lazy("inspect", "Print the metadata of an APK or IPA (name, bundle id, version, icon, ...)", async () => (await import("./chunks/inspect-EX7KH2DO.js")).inspectCommand)
];

// src/main.ts
var defaultIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text)
};
function mainHelp() {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "Usage: hangar <command> [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Options:",
    "  --version  Print the version",
    "  --help     Show this help",
    "",
    "Run `hangar <command> --help` for a command's options.",
    ""
  ].join("\n");
}
async function main(argv, io = defaultIo) {
  const [name, ...rest] = argv;
  if (name === void 0) {
    io.stderr(mainHelp());
    return EXIT_USAGE;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${VERSION}
`);
    return EXIT_OK;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(mainHelp());
    return EXIT_OK;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`hangar: unknown command "${name}"

${mainHelp()}`);
    return EXIT_USAGE;
  }
  return command.run(rest, io);
}

// src/bin.ts
process.exitCode = await main(process.argv.slice(2));
