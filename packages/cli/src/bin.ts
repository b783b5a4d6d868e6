#!/usr/bin/env node
// Entry of the published `hangar` bin (built to dist/hangar.js by scripts/build.ts). Commands
// are imported lazily by main(), so `hangar --version` loads nothing but this and main.
import { main } from "./main";

process.exitCode = await main(process.argv.slice(2));
