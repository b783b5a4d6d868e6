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
} from "./chunk-VGBY4Y3E.js";
import "./chunk-3WA5LAVB.js";
import "./chunk-OA5U4LFR.js";
import "./chunk-LM7JBYQ3.js";
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
