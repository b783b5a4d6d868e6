import {
  FileRangeReader,
  InspectError,
  inspectPackage
} from "./chunk-3R4D53VR.js";
import "./chunk-AEPEW2SX.js";
import "./chunk-LM7JBYQ3.js";

// src/commands/check-package.ts
var PackageRefusedError = class extends Error {
  constructor(reason, message, options) {
    super(message, options);
    this.reason = reason;
    this.name = "PackageRefusedError";
  }
  code = "invalid_package";
};
var NOT_A_VERDICT = /* @__PURE__ */ new Set(["read_failed", "timeout"]);
async function checkPackage(path, fileName) {
  let reader;
  try {
    reader = await FileRangeReader.open(path);
  } catch {
    return;
  }
  try {
    await inspectPackage(reader, { fileName });
  } catch (error) {
    if (error instanceof InspectError && !NOT_A_VERDICT.has(error.code)) throw new PackageRefusedError(error.code, error.message, { cause: error });
    if (!(error instanceof InspectError)) throw error;
  } finally {
    await reader.close();
  }
}
export {
  PackageRefusedError,
  checkPackage
};
