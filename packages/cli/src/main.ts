import { EXIT_OK, EXIT_USAGE } from "./command";
import type { CommandIo } from "./command";
import { commands } from "./commands";
import { VERSION } from "./version";

const defaultIo: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export function mainHelp(): string {
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
    "",
  ].join("\n");
}

/** Entry point of bin/hangar.js; returns the exit code instead of exiting, for tests. */
export async function main(argv: string[], io: CommandIo = defaultIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(mainHelp());
    return EXIT_USAGE;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${VERSION}\n`);
    return EXIT_OK;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(mainHelp());
    return EXIT_OK;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`hangar: unknown command "${name}"\n\n${mainHelp()}`);
    return EXIT_USAGE;
  }
  return command.run(rest, io);
}
