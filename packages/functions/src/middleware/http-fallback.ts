import type { HangarContext, HttpEvent, HttpResult } from "./http-context";
import { baseStack } from "./http-stack";

/** API Gateway's `$default` route: no auth, no body, no storage, no settings. */
export function httpFallback(handler: (event: HttpEvent, context: HangarContext) => Promise<HttpResult>) {
  return baseStack().handler(handler);
}
