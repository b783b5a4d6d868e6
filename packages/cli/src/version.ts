/**
 * The package's version, for `hangar --version` and the client's User-Agent. A module of its own
 * so `--version` loads nothing else; packages/cli/test/package.test.ts keeps it equal to
 * package.json's.
 */
export const VERSION = "0.1.0";
