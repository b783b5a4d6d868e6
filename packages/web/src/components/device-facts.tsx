import type { Device } from "../api/devices.api";

/** A device's model in words ("iPhone 14 Pro"), else Apple's identifier (`iPhone15,2`) when Hangar's table does not know it yet. */
export const deviceModel = (device: Pick<Device, "model" | "product">) => device.model ?? device.product;

/**
 * How devices get here, for the empty Devices page and a build without any: the tester runs
 * Apple's profile service from a page they already have (docs/devices.md, "Enrollment").
 */
export function EnrollmentHelp() {
  return (
    <>
      <p>
        Testers register an iPhone or iPad themselves: on a build’s share link, their personal install link or the app page, <strong>Check this iPhone</strong> downloads a small
        profile from Apple’s profile service. Installing it (Settings → Profile Downloaded) sends Hangar the device’s UDID, model and iOS version; it installs nothing on the
        device.
      </p>
      <p>Each device then shows here with the tester who registered it. Export them for Apple’s developer portal, add them to your ad-hoc or development profile, and upload the new build.</p>
    </>
  );
}
