import { sendExpiryWarnings } from "@hangar/core";
import { expiryRunDeps } from "../composition/expiry";

/**
 * Issue 24 item 4 (docs/release-safety.md, "Expiry warnings"): mails the warnings due at `now`
 * to each workspace's owners and admins, once per threshold and build. `now` is the caller's: the
 * daily handler passes the run's time, the local stack's trigger and the tests any day they like.
 * Counts only in the answer (the handler logs them; never an address).
 */
export async function runDailyExpiryWarnings(now: Date): Promise<Record<string, number>> {
  return { ...(await sendExpiryWarnings(expiryRunDeps(), now)) };
}
