import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const inspectBrowser = (file: string) => fileURLToPath(new URL(`../inspect/src/browser/${file}`, import.meta.url));

/**
 * The dashboard is served under a strict Content-Security-Policy (`script-src 'self'`,
 * `style-src 'self'`), so the build must not put any script or style inline in index.html.
 * Vite's modulepreload polyfill is an inline script: it is turned off (every browser Hangar
 * supports has native modulepreload). `npm run dev` proxies the API to a running local stack.
 */
export default defineConfig({
  plugins: [react()],
  // The workspace root holds another React (18, for a tool's own UI) beside this package's 19;
  // @tanstack/react-query is hoisted there, and must use the app's React, not that one.
  // The extractor's Node builtins, for its browser entry (@hangar/inspect/browser, a lazy chunk
  // of the upload panel): zlib's inflateRaw and crc32 over DecompressionStream, no file system.
  resolve: {
    dedupe: ["react", "react-dom"],
    alias: { "node:zlib": inspectBrowser("zlib-browser.ts"), "node:fs/promises": inspectBrowser("no-fs.ts") },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    // Never inline assets as data: URLs into scripts/styles; small files stay files.
    assetsInlineLimit: 0,
    target: "es2022",
  },
  server: {
    proxy: {
      "/api": process.env.HANGAR_API_URL ?? "http://127.0.0.1:3000",
      "/share": process.env.HANGAR_API_URL ?? "http://127.0.0.1:3000",
      "/download": process.env.HANGAR_API_URL ?? "http://127.0.0.1:3000",
    },
  },
});
