// iOS devices (issue 22, docs/devices.md). The devsrv helper fills this module; the device cookie is shared.
export * from "./device-cookie";
// Register with Apple (devdash): the App Store Connect adapter, the use case and its table store.
export * from "./app-store-connect";
export * from "./register-with-apple";
export * from "./apple-devices.dynamo";
