import type { LinkBases } from "@hangar/core";
import type { HttpEvent } from "../middleware/http-context";
import type { Settings } from "./settings.schema";

/** Configured bases win; otherwise links point back at the API's own domain, as API Gateway saw it. */
export function linkBases(event: HttpEvent, settings: Settings): LinkBases {
  const publicBaseUrl = settings.HANGAR_PUBLIC_URL ?? `https://${event.requestContext.domainName}`;
  return { publicBaseUrl, shareBaseUrl: settings.HANGAR_SHARE_BASE_URL ?? publicBaseUrl };
}
