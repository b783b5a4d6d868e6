import { UnknownLinkError } from "@hangar/core/link-errors";
import { InstallTokenRef, TesterRef, testerNotFound } from "@hangar/core/installs";
import type { RouteKeyOf } from "../routes";
import { dashboard, file, page, type RouteInput } from "./rows";

// Personal install links: a malformed token names nothing (the share pages' 404, as a page for browsers).
const installToken = { params: InstallTokenRef, notFound: () => new UnknownLinkError() } as const;
const tester = { params: TesterRef, notFound: testerNotFound } as const;

/** The installs function's routes (routes.ts). */
export const input = {
  "GET /install/{token}": page(installToken),
  "HEAD /install/{token}": page(installToken),
  "GET /install/{token}/download": page(installToken),
  "HEAD /install/{token}/download": page(installToken),
  "GET /install/{token}/manifest.plist": page(installToken),
  "HEAD /install/{token}/manifest.plist": page(installToken),
  "GET /install/{token}/icon.png": page(installToken),
  "HEAD /install/{token}/icon.png": page(installToken),
  "GET /api/files/{fileId}/installs": dashboard(file),
  "GET /api/workspaces/{workspaceId}/testers/{email}/installs": dashboard(tester),
} as const satisfies Record<RouteKeyOf<"installs">, RouteInput>;
