import type { FileRecord } from "../ports/file-repository.port";
import type { LinkBases } from "../upload/upload-settings";
import { isDashboardUpload } from "../upload/uploader";
import type { Actor } from "../workspaces/actor";
import type { BuildLinks, BuildPayload, EventActor, WebhookEvent } from "./webhook-events";

/**
 * Builders of event payloads from the records the use cases already hold, so a publisher adds
 * no read to its request: a build's payload comes from its file record and the link bases.
 */

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

/** The share page, the download, the QR code and the icon of a build's link (routes.ts `/share/…`). */
export function buildLinks(userKey: string, hasIcon: boolean, links: LinkBases): BuildLinks {
  const share = `${links.shareBaseUrl}/share/${userKey}`;
  return {
    share,
    download: `${links.publicBaseUrl}/download/${userKey}`,
    qr: `${share}/qr.svg`,
    icon: hasIcon ? `${share}/icon.png` : null,
  };
}

export function buildPayload(file: FileRecord, links: LinkBases | null): BuildPayload {
  const m = file.metadata;
  const platform = m?.platform === "android" || m?.platform === "ios" ? m.platform : null;
  return {
    fileId: file.fileId,
    projectId: file.projectId,
    fileName: file.fileName,
    fileSize: file.fileSize,
    appName: str(m?.appName),
    bundleId: str(m?.bundleId),
    version: str(m?.version),
    buildNumber: str(m?.buildNumber),
    platform,
    minOs: str(m?.minOs),
    releaseNotes: file.buildContext?.releaseNotes ?? null,
    branch: file.buildContext?.branch ?? null,
    commit: file.buildContext?.commit ?? null,
    ciUrl: file.buildContext?.ciUrl ?? null,
    createdAt: file.createdAt,
    completedAt: file.completedAt ?? null,
    links: links && file.userKey ? buildLinks(file.userKey, Boolean(file.iconKey), links) : null,
  };
}

export const userActor = (actor: Actor, email?: string | null): EventActor => ({ kind: "user", userId: actor.userId, email: email ?? null });

/** Who uploaded: the dashboard member, or the API key. */
export function uploaderActor(caller: { clientId: string; actor?: Actor }): EventActor {
  // A dashboard upload always names its actor (uploader.ts); an API key's never does.
  return caller.actor && isDashboardUpload(caller) ? userActor(caller.actor) : { kind: "apiKey", clientId: caller.clientId };
}

/** The routing fields of a build's event (project and branch filters). */
export function buildRouting(file: FileRecord): Pick<WebhookEvent, "projectId" | "branch"> {
  return { projectId: file.projectId, branch: file.buildContext?.branch ?? null };
}
