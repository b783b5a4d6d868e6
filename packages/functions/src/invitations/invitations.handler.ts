import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  previewInvitation,
  resendInvitation,
  revokeInvitation,
} from "@hangar/core/invitations";
import { clientInfo } from "../accounts/client-info";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { invitationDeps } from "../composition/invitations";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import type { HttpEvent } from "../middleware/http-context";
import { actorOf } from "../middleware/actor";
import { httpFunction, json } from "../middleware/http-function";
import { noContent } from "../projects/answers";

/**
 * Invitations to workspaces (docs/teams.md, "Invitations"). Every route is of the dashboard kind
 * (same-origin guard, security headers); all but the preview authenticate by session. Bodies and
 * ids arrive parsed; the use cases (core/invitations) check the caller's role. The mails go out
 * from the request: the inviter is a member, so there is nothing to hide in the answer's timing,
 * and the answer can say whether the mail was sent.
 */
const client = (event: HttpEvent) => clientInfo(event, getRuntime().settings);
const links = (event: HttpEvent) => ({ publicBaseUrl: linkBases(event, getRuntime().settings).publicBaseUrl });

export const handler = httpFunction(
  "invitations",
  {
    "POST /api/workspaces/{workspaceId}/invitations": {
      handler: async (event, c) =>
        json(201, await createInvitation(invitationDeps(), actorOf(c), { ...c.params, ...c.body }, links(event))),
    },
    "GET /api/workspaces/{workspaceId}/invitations": {
      handler: async (_event, c) => json(200, { items: await listInvitations(invitationDeps(), actorOf(c), c.params) }),
    },
    "DELETE /api/workspaces/{workspaceId}/invitations/{invitationId}": {
      handler: async (_event, c) => {
        await revokeInvitation(invitationDeps(), actorOf(c), c.params);
        return noContent();
      },
    },
    "POST /api/workspaces/{workspaceId}/invitations/{invitationId}/resend": {
      handler: async (event, c) => json(200, await resendInvitation(invitationDeps(), actorOf(c), c.params, links(event))),
    },
    "POST /api/invitations/preview": {
      handler: async (event, c) => json(200, await previewInvitation(invitationDeps(), c.body, client(event))),
    },
    "POST /api/invitations/accept": {
      handler: async (_event, c) => json(200, await acceptInvitation(invitationDeps(), actorOf(c), c.body)),
    },
  },
  dashboardRouteMiddlewares(),
);
