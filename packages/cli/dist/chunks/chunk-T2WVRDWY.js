var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __reExport = (target, mod, secondTarget) => (__copyProps(target, mod, "default"), secondTarget && __copyProps(secondTarget, mod, "default"));

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
  __export,
  __reExport,
  EXIT_OK,
  EXIT_FAILURE,
  EXIT_USAGE,
  UsageError,
  usageText,
  parseCommandArgs
};
