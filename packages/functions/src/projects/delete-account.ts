import { deleteAccount } from "@hangar/core";
import { clearedSessionCookie } from "../accounts/session-cookie";
import { actorOf } from "../middleware/actor";
import { deleteAccountDeps, inlineBudget } from "../composition/dashboard";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import type { Endpoint } from "../middleware/http-function";
import { deleted } from "./answers";

/**
 * `DELETE /api/account {password}`: served by the projects function because it is a purge of
 * every project (the same code, permissions and background path as a project delete).
 */
export const deleteAccountEndpoint: Endpoint<"DELETE /api/account"> = {
  handler: async (event, context) => {
    const { status } = await deleteAccount(deleteAccountDeps(), actorOf(context), context.body, inlineBudget());
    // Every session ended: the browser drops its cookie too.
    return { ...deleted(status), cookies: [clearedSessionCookie(linkBases(event, getRuntime().settings).publicBaseUrl)] };
  },
};
