import type { Command } from "../command";

/**
 * A command's module is imported only when that command runs: `inspect` pulls in the extractor
 * and the S3 SDK (~18 MB of heap), which `upload` — streaming GBs in CI — must not carry.
 */
function lazy(name: string, summary: string, load: () => Promise<Command>): Command {
  return { name, summary, run: async (args, io) => (await load()).run(args, io) };
}

/** Every subcommand, in `hangar --help` order. A new command is one entry. */
export const commands: Command[] = [
  lazy("upload", "Upload an APK or IPA to Hangar and print its share and download links", async () => (await import("./upload")).uploadCommand),
  lazy("inspect", "Print the metadata of an APK or IPA (name, bundle id, version, icon, ...)", async () => (await import("./inspect")).inspectCommand),
];
