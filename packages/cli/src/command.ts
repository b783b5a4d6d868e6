import { parseArgs } from "node:util";
import type { ParseArgsConfig } from "node:util";

/** One `hangar <name>` subcommand. Returns the process exit code. */
export interface Command {
  name: string;
  /** One line for `hangar --help`. */
  summary: string;
  run(args: string[], io: CommandIo): Promise<number>;
}

/** Where a command writes; injectable so tests need not spawn a process. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit codes shared by all commands. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * A mistake in how the command was called (exit 2). `showHelp` is for mistakes in the argument
 * syntax itself (unknown flag, missing file), where the options list is the answer; a wrong value
 * (a .zip, a missing credential) is said in one line, so the cause is not buried in a CI log.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly showHelp = false,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** How a command reports a usage error on stderr: one line, plus the help when the syntax was wrong. */
export function usageText(command: string, error: UsageError, help: string): string {
  return error.showHelp ? `hangar ${command}: ${error.message}\n\n${help}` : `hangar ${command}: ${error.message}\n`;
}

type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

const HELP_OPTION = { help: { type: "boolean", short: "h", default: false } } as const;

/** The typed `values` parseArgs gives for these options (strict, so no unknown keys). */
export type CommandValues<O extends CommandOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>["values"];

/**
 * The argument shape every command shares: `hangar <command> <file> [options]`, with -h/--help.
 * Bad flags and anything but exactly one file are UsageErrors with the help attached, so each
 * command answers them the same way (message, help text, EXIT_USAGE).
 */
export function parseCommandArgs<O extends CommandOptions>(
  args: string[],
  options: O,
  messages: { missing: string; tooMany: string },
): "help" | { values: CommandValues<O>; file: string } {
  let parsed;
  try {
    // Widened on purpose: parseArgs cannot type a generic O; the result is typed on return.
    const all: CommandOptions = { ...options, ...HELP_OPTION };
    parsed = parseArgs({ args, options: all, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message, true);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError(messages.missing, true);
  if (extra.length > 0) throw new UsageError(messages.tooMany, true);
  return { values: values as CommandValues<O>, file };
}
