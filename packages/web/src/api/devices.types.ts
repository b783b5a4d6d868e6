// The device answers, as core defines them for the API (`@hangar/core/devices-schema`).
export type { Device, DeviceList, FileDevices, ProfileKind } from "@hangar/core/devices-schema";
