#!/usr/bin/env node
// Development launcher: runs the TypeScript sources through tsx, so a change needs no build.
// The published package's bin is dist/hangar.js (`npm run build:cli`), which needs neither.
import { register } from "tsx/esm/api";

register();
await import("../src/bin.ts");
