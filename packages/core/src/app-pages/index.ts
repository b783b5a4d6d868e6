// Issue 20 (docs/testers.md, "The app page and the update check"): one stable page per app and the in-app update check.
export * from "./app-pages.schema";
export * from "./app-page-store.port";
export * from "./app-page-errors";
export * from "./compare-builds";
export * from "./newer-build";
export * from "./app-page-settings";
export * from "./visit-app-page";
export * from "./update-tokens";
export { DynamoAppPages, DynamoUpdateTokens } from "./app-pages.dynamo";
