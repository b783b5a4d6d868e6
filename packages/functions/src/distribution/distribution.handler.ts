import { expiryUnsubscribe, expiryUnsubscribePreview } from "@hangar/core";
import { distributeBuild, getDefaultGroups, listDistributions, setDefaultGroups, unsubscribe, unsubscribePreview } from "@hangar/core/distribution";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { distributionDeps, unsubscribeDeps } from "../composition/distribution";
import { expiryUnsubscribeDeps } from "../composition/expiry";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { actorOf } from "../middleware/actor";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { htmlResult } from "../share/share-access";
import { renderExpiryUnsubscribedPage, renderExpiryUnsubscribePage, renderUnknownUnsubscribePage, renderUnsubscribedPage, renderUnsubscribePage } from "./unsubscribe-page";

/**
 * Sending builds to testers (docs/testers.md "Distribution and build mail"): the dashboard's
 * distribute (202: the mails go out from the queue), the distributions of a build, a project's
 * default groups, and the build mail's unsubscribe page. File and project ids of workspaces the
 * caller is not a member of answer 404 like unknown ones.
 */

const tokenOf = (event: HttpEvent) => event.pathParameters?.token ?? "";

/** GET: the question and its button. A token that names nothing: 404, its page. */
async function unsubscribeQuestion(event: HttpEvent): Promise<HttpResult> {
  const token = tokenOf(event);
  const shown = await unsubscribePreview(unsubscribeDeps(), token);
  if (!shown) return htmlResult(404, renderUnknownUnsubscribePage());
  return htmlResult(200, renderUnsubscribePage(`/unsubscribe/${token}`, shown.projectName, shown.email));
}

/**
 * POST: RFC 8058's one-click (the mail client posts `List-Unsubscribe=One-Click`) and the page's
 * button alike. The body is not needed to decide anything (the token says who and what), so it is
 * not read: a mail client that posts another body is still unsubscribed, as the RFC intends.
 */
async function unsubscribeNow(event: HttpEvent): Promise<HttpResult> {
  const done = await unsubscribe(unsubscribeDeps(), tokenOf(event));
  if (!done) return htmlResult(404, renderUnknownUnsubscribePage());
  return htmlResult(200, renderUnsubscribedPage(done.projectName, done.email));
}

/** The expiry-warning mail's opt-out (docs/release-safety.md): the same two steps, per person instead of per project. */
async function expiryUnsubscribeQuestion(event: HttpEvent): Promise<HttpResult> {
  const token = tokenOf(event);
  const shown = await expiryUnsubscribePreview(expiryUnsubscribeDeps(), token);
  if (!shown) return htmlResult(404, renderUnknownUnsubscribePage());
  return htmlResult(200, renderExpiryUnsubscribePage(`/unsubscribe/expiry/${token}`, shown.email));
}

async function expiryUnsubscribeNow(event: HttpEvent): Promise<HttpResult> {
  const done = await expiryUnsubscribe(expiryUnsubscribeDeps(), tokenOf(event));
  if (!done) return htmlResult(404, renderUnknownUnsubscribePage());
  return htmlResult(200, renderExpiryUnsubscribedPage(done.email));
}

export const handler = httpFunction(
  "distribution",
  {
    "POST /api/files/{fileId}/distribute": {
      handler: async (e, c) => json(202, await distributeBuild(distributionDeps(), actorOf(c), { ...c.params, ...c.body }, linkBases(e, getRuntime().settings))),
    },
    "GET /api/files/{fileId}/distributions": { handler: async (_e, c) => json(200, await listDistributions(distributionDeps(), actorOf(c), c.params)) },
    "GET /api/projects/{projectId}/default-groups": { handler: async (_e, c) => json(200, await getDefaultGroups(distributionDeps(), actorOf(c), c.params)) },
    "PUT /api/projects/{projectId}/default-groups": {
      handler: async (_e, c) => json(200, await setDefaultGroups(distributionDeps(), actorOf(c), { ...c.params, ...c.body })),
    },
    "GET /unsubscribe/{token}": { handler: async (e) => unsubscribeQuestion(e) },
    "POST /unsubscribe/{token}": { handler: async (e) => unsubscribeNow(e) },
    "GET /unsubscribe/expiry/{token}": { handler: async (e) => expiryUnsubscribeQuestion(e) },
    "POST /unsubscribe/expiry/{token}": { handler: async (e) => expiryUnsubscribeNow(e) },
  },
  dashboardRouteMiddlewares(),
);
