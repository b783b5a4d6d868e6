import {
  HELP,
  UPLOAD_EXIT,
  cacheDirectory,
  ciContext,
  describeFields,
  gateFailure,
  githubOutputs,
  installWarning,
  parseSize,
  parseUploadArgs,
  run,
  uploadCommand,
  uploadExitCode
} from "./chunk-S7BQQWCH.js";
import "./chunk-3WA5LAVB.js";
import "./chunk-3VOYXSK4.js";
import "./chunk-OA5U4LFR.js";
import "./chunk-LM7JBYQ3.js";
export {
  UPLOAD_EXIT,
  HELP as UPLOAD_HELP,
  cacheDirectory,
  ciContext,
  describeFields,
  gateFailure,
  githubOutputs,
  installWarning,
  parseSize,
  parseUploadArgs,
  run as runUpload,
  uploadCommand,
  uploadExitCode
};
