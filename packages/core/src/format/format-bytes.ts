/**
 * The one byte formatter (packages/inspect/src/format/format-bytes.ts), passed on for the web app,
 * which depends on core only: this subpath imports nothing else, so the dashboard bundle stays free
 * of core and shows the sizes the CLI and the share page show.
 */
export { formatBytes } from "@hangar/inspect/format";
