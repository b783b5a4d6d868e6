import type { Command } from "../command";
import { inspectCommand } from "./inspect";

/** Every subcommand, in `hangar --help` order. A new command is one import and one entry. */
export const commands: Command[] = [inspectCommand];
