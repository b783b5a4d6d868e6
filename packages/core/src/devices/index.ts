// iOS devices (issue 22, docs/devices.md): node code. The browser-safe schemas are `@hangar/core/devices-schema`.
export * from "./device-cookie";
export * from "./devices.schema";
export * from "./device-models";
export * from "./device-store.port";
export * from "./devices.dynamo";
export * from "./signed-data";
export * from "./enroll-profile";
export * from "./enrollment";
export * from "./device-handoff";
export * from "./device-admin";
export * from "./device-verdict";
export * from "./build-verdicts";
export * from "./build-profiles.dynamo";
// Register with Apple (devdash): the App Store Connect adapter, the use case and its table store.
export * from "./app-store-connect";
export * from "./register-with-apple";
export * from "./apple-devices.dynamo";
