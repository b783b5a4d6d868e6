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

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
