#!/usr/bin/env node
// The CLI is TypeScript like the rest of the repo (no build step): register tsx, then run it.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
