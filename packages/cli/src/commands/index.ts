import type { Command } from "../command";
import { inspectCommand } from "./inspect";
import { uploadCommand } from "./upload";

/** Every subcommand, in `hangar --help` order. A new command is one import and one entry. */
export const commands: Command[] = [uploadCommand, inspectCommand];
