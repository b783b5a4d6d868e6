/**
 * The types of `@hangar/inspect/browser` as the web app sees them (tsconfig.json `paths` points
 * here). Its sources are written against Node's types (Buffer, node:zlib), which the web app does
 * not load: the bundler provides those at build (vite.config.ts), and type-checking them here
 * would need @types/node in a browser project. Kept to what the app calls; the entry is
 * packages/inspect/src/browser.ts.
 */
export interface PackagePreview {
  platform: "android" | "ios";
  appName: string;
  bundleId: string;
  version: string;
  buildNumber: string;
}

export function inspectBlob(blob: Blob, fileName: string): Promise<PackagePreview>;
