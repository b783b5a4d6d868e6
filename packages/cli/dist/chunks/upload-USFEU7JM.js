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
} from "./chunk-YQGG353A.js";
import "./chunk-3WA5LAVB.js";
import "./chunk-OA5U4LFR.js";
import "./chunk-LM7JBYQ3.js";
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
