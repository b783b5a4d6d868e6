import { buildVerdicts, DEVICE_COOKIE, type PageVerdict, type VerdictRequest } from "@hangar/core/devices";
import { deviceOfUserAgent } from "@hangar/core/links";
import { buildVerdictDeps } from "../composition/device-verdicts";
import { header, type HttpEvent } from "../middleware/http-context";
import { logger } from "../observability";
import { readTesterCookie } from "../tester/tester-cookie";
import { isHead } from "./share-access";

/**
 * The HTTP side of the verdict (core's devices/build-verdicts.ts) for the pages on the share host:
 * the `hangar_ios_device` cookie's values, and the verdicts of the builds a page shows.
 */

/** Every `hangar_ios_device` value of the request (payload v2 splits cookies into `cookies`); a name may come twice, see build-verdicts.ts. */
export function deviceCookies(event: HttpEvent): string[] {
  const name = `${DEVICE_COOKIE}=`;
  return (event.cookies ?? []).filter((c) => c.startsWith(name)).map((c) => c.slice(name.length));
}

/**
 * The verdicts on an iPhone or iPad (none elsewhere: a desktop is not the device that installs),
 * and none for a HEAD, which writes nothing. A courtesy like the newer-build notice: when its reads
 * fail the page still shows the build and its Install button, without a verdict.
 */
export async function pageVerdicts(event: HttpEvent, builds: VerdictRequest["builds"], email: string | null): Promise<Map<string, PageVerdict>> {
  if (isHead(event) || deviceOfUserAgent(header(event, "user-agent")) !== "ios") return new Map();
  try {
    // `email` null (share and app pages): a device recorded is the signed-in tester's, if any.
    return await buildVerdicts(buildVerdictDeps(), { builds, cookies: deviceCookies(event), email, testerCookie: readTesterCookie(event) });
  } catch (error) {
    logger.warn("device verdict failed", { error });
    return new Map();
  }
}
