// Issue 20 (docs/testers.md, "Personal install links and who installed what"): node code.
export * from "./installs.schema";
export * from "./install-records.port";
export * from "./install-records.dynamo";
export * from "./device-family";
export * from "./personal-link";
export * from "./install-history";
