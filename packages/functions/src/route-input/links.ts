import { FileRef } from "@hangar/core";
import { linkNotFound, ShareSettings } from "@hangar/core/links";
import type { RouteKeyOf } from "../routes";
import { dashboard, type RouteInput } from "./rows";

const sharedFile = { params: FileRef, notFound: linkNotFound } as const;

/** The links function's routes (routes.ts). */
export const input = {
  "PATCH /api/files/{fileId}/share": dashboard({ ...sharedFile, body: ShareSettings }),
  "POST /api/files/{fileId}/share/regenerate": dashboard(sharedFile),
} as const satisfies Record<RouteKeyOf<"links">, RouteInput>;
