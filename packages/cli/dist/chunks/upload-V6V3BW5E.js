import {
  HELP,
  UPLOAD_EXIT,
  ciContext,
  describeFields,
  githubOutputs,
  installWarning,
  parseUploadArgs,
  run,
  uploadCommand,
  uploadExitCode
} from "./chunk-L5RARQJB.js";
import "./chunk-3WA5LAVB.js";
import "./chunk-T2WVRDWY.js";
export {
  UPLOAD_EXIT,
  HELP as UPLOAD_HELP,
  ciContext,
  describeFields,
  githubOutputs,
  installWarning,
  parseUploadArgs,
  run as runUpload,
  uploadCommand,
  uploadExitCode
};
