import {
  HELP,
  UPLOAD_EXIT,
  ciContext,
  describeFields,
  githubOutputs,
  parseUploadArgs,
  run,
  uploadCommand,
  uploadExitCode
} from "./chunk-R3JHRP4M.js";
import "./chunk-3WA5LAVB.js";
import "./chunk-T2WVRDWY.js";
export {
  UPLOAD_EXIT,
  HELP as UPLOAD_HELP,
  ciContext,
  describeFields,
  githubOutputs,
  parseUploadArgs,
  run as runUpload,
  uploadCommand,
  uploadExitCode
};
