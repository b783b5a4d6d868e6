// src/command.ts
import { parseArgs } from "node:util";
var EXIT_OK = 0;
var EXIT_FAILURE = 1;
var EXIT_USAGE = 2;
var UsageError = class extends Error {
  constructor(message, showHelp = false) {
    super(message);
    this.showHelp = showHelp;
    this.name = "UsageError";
  }
};
function usageText(command, error, help) {
  return error.showHelp ? `hangar ${command}: ${error.message}

${help}` : `hangar ${command}: ${error.message}
`;
}
var HELP_OPTION = { help: { type: "boolean", short: "h", default: false } };
function parseCommandArgs(args, options, messages) {
  let parsed;
  try {
    const all = { ...options, ...HELP_OPTION };
    parsed = parseArgs({ args, options: all, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error.message, true);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  const [file, ...extra] = positionals;
  if (file === void 0) throw new UsageError(messages.missing, true);
  if (extra.length > 0) throw new UsageError(messages.tooMany, true);
  return { values, file };
}

export {
  EXIT_OK,
  EXIT_FAILURE,
  EXIT_USAGE,
  UsageError,
  usageText,
  parseCommandArgs
};
