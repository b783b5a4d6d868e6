// iOS devices (issue 22, docs/devices.md). The devsrv helper fills this module; the device cookie is shared.
export * from "./device-cookie";
export * from "./device-verdict";
export * from "./build-verdicts";
export * from "./build-devices.dynamo";
export * from "./device-models";
