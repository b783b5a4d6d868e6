import * as z from "zod/mini";

/**
 * "Register with Apple" (docs/devices.md): the request of
 * `POST /api/workspaces/{workspaceId}/devices/apple` and its answer. Browser-safe (zod/mini and
 * types only): the dashboard imports it through `@hangar/core/devices-apple-schema`.
 */

/** How many devices one request may register: one page of the Devices table, well inside the function's 29 s. */
export const MAX_APPLE_REGISTRATIONS = 100;

export const APPLE_DEVICE_ID = /^dev_[0-9A-Za-z]{16}$/;

export const RegisterWithApple = z.object({
  deviceIds: z
    .array(z.string().check(z.regex(APPLE_DEVICE_ID, "is not a device id")))
    .check(z.minLength(1, "must name at least one device"), z.maxLength(MAX_APPLE_REGISTRATIONS, `must name at most ${MAX_APPLE_REGISTRATIONS} devices`)),
});
export type RegisterWithApple = z.infer<typeof RegisterWithApple>;

/**
 * Per device: `registered` now, `already` in the Apple account (registered before, from Hangar or
 * by hand), or `failed` with Apple's reason (or "not a device of this workspace").
 */
export interface AppleRegistrationAnswer {
  registered: string[];
  already: string[];
  failed: { deviceId: string; message: string }[];
}
