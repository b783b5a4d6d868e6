import { createHmac, timingSafeEqual } from "node:crypto";
import type { ProjectCatalog, StageSecret } from "../ports";
import type { DistributionStore } from "./distribution.port";

/**
 * One-click unsubscribe from a project's build mail (RFC 8058; docs/testers.md).
 *
 * The token names (workspace, project, address) and carries an HMAC of them under the stage
 * secret named `unsubscribe`, used for nothing else: it can only ever unsubscribe that address
 * from that project, it cannot be made without the secret, and it opens nothing else (an install
 * link's or a session's token is a different secret's MAC or a random value). Stateless rather
 * than a stored random token: every mail of a project to an address carries the same link, and
 * a link in a mail years old still works, without an item per mail.
 * Rejected: the recipient's install-link token (it would let anyone who forwards the unsubscribe
 * link open the personal install page, and the other way round).
 */
export const UNSUBSCRIBE_SECRET = "unsubscribe";

export interface UnsubscribeSubject {
  workspaceId: string;
  projectId: string;
  email: string;
}

const mac = (secret: Uint8Array, payload: string) => createHmac("sha256", secret).update(`unsubscribe\n${payload}`, "utf8").digest();

export function unsubscribeToken(secret: Uint8Array, subject: UnsubscribeSubject): string {
  const payload = `${subject.workspaceId}\n${subject.projectId}\n${subject.email}`;
  return `${Buffer.from(payload, "utf8").toString("base64url")}.${mac(secret, payload).toString("base64url")}`;
}

/** The subject of a well-formed token with a valid MAC (constant-time compare); undefined otherwise. */
export function unsubscribeSubjectOf(secret: Uint8Array, token: string): UnsubscribeSubject | undefined {
  const m = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const payload = Buffer.from(m[1]!, "base64url").toString("utf8");
  const given = Buffer.from(m[2]!, "base64url");
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [workspaceId, projectId, email, ...rest] = payload.split("\n");
  if (!workspaceId || !projectId || !email || rest.length > 0) return undefined;
  return { workspaceId, projectId, email };
}

export const unsubscribeUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl.replace(/\/+$/, "")}/unsubscribe/${token}`;

export interface UnsubscribeDeps {
  secret: StageSecret;
  projects: Pick<ProjectCatalog, "get">;
  distributions: Pick<DistributionStore, "unsubscribe">;
  clock: { now(): Date };
}

/** What the page shows: the project's name and the address, or undefined for a token that names nothing (404 page). */
export async function unsubscribePreview(deps: UnsubscribeDeps, token: string): Promise<{ projectName: string; email: string } | undefined> {
  const subject = unsubscribeSubjectOf(await deps.secret.bytes(), token);
  if (!subject) return undefined;
  const project = await deps.projects.get(subject.workspaceId, subject.projectId);
  // A deleted project's link still unsubscribes nothing harmful; it just has no name to show.
  return { projectName: project?.name ?? "this app", email: subject.email };
}

/** POST /unsubscribe/{token}: writes the opt-out (idempotent). undefined for a bad token. */
export async function unsubscribe(deps: UnsubscribeDeps, token: string): Promise<{ projectName: string; email: string } | undefined> {
  const secret = await deps.secret.bytes();
  const subject = unsubscribeSubjectOf(secret, token);
  if (!subject) return undefined;
  const [project] = await Promise.all([
    deps.projects.get(subject.workspaceId, subject.projectId),
    deps.distributions.unsubscribe(subject.projectId, subject.email, deps.clock.now().toISOString()),
  ]);
  return { projectName: project?.name ?? "this app", email: subject.email };
}
