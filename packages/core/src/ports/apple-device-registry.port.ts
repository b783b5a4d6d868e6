/**
 * The team's Apple developer account, as far as devices go (docs/devices.md, "Register with
 * Apple"): adding a tester's iPhone to the account so the next ad-hoc or development profile can
 * include it. The App Store Connect API is the one adapter (devices/app-store-connect.ts); the
 * tests put a local fake of that API behind it, never a stub of this port.
 */
export interface AppleDeviceRegistry {
  /** Adds one iOS device (`platform: IOS`). Never throws for Apple's answers: they are outcomes. */
  register(device: { name: string; udid: string }): Promise<AppleRegistrationOutcome>;
}

/**
 * What Apple made of one device: added now (with Apple's id of it), there before (Apple's id when
 * a lookup found it), or refused with Apple's own words (an invalid UDID, the yearly device limit,
 * a key without the right role) or a network failure.
 */
export type AppleRegistrationOutcome =
  | { kind: "registered"; appleDeviceId: string }
  | { kind: "already"; appleDeviceId: string | null }
  | { kind: "failed"; message: string };

/** A workspace's devices as registering them needs them: read by id, marked once Apple has them. */
export interface AppleDeviceStore {
  /** The workspace's devices by deviceId (at most the workspace limit, 1,000). */
  devicesOf(workspaceId: string): Promise<Map<string, RegistrableDevice>>;
  /** Records Apple's registration (and Apple's id of the device) on the device; false when the device is gone meanwhile. */
  markRegistered(workspaceId: string, udid: string, registration: { at: string; appleDeviceId: string }): Promise<boolean>;
}

export interface RegistrableDevice {
  deviceId: string;
  udid: string;
  name: string;
  model: string | null;
  appleRegistration: { at: string; appleDeviceId: string } | null;
}
