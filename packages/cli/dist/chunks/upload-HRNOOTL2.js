import {
  HELP,
  UPLOAD_EXIT,
  describeFields,
  githubOutputs,
  parseUploadArgs,
  run,
  uploadCommand,
  uploadExitCode
} from "./chunk-XZR2JHYS.js";
import "./chunk-3WA5LAVB.js";
import "./chunk-T2WVRDWY.js";
export {
  UPLOAD_EXIT,
  HELP as UPLOAD_HELP,
  describeFields,
  githubOutputs,
  parseUploadArgs,
  run as runUpload,
  uploadCommand,
  uploadExitCode
};
