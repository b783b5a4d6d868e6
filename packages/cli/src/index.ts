/**
 * `hangar-cli` as a library: the typed upload client the `hangar upload` command is built on,
 * for scripts that want the links without parsing CLI output.
 */
export * from "./client";
export { UPLOAD_EXIT, uploadExitCode } from "./commands/upload";
