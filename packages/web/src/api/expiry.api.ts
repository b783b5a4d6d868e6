import type { ExpiringAnswer } from "@hangar/core/expiry-schema";
import { apiRequest } from "./api-client";

// The answer is defined once, in core, and shared as a type (no code reaches the bundle).
export type { ExpiringAnswer, ExpiringItem } from "@hangar/core/expiry-schema";

/** Issue 24 item 4 (docs/release-safety.md, "Expiry warnings"). */
export const expiryApi = {
  expiring: (workspaceId: string) => apiRequest<ExpiringAnswer>("GET", `/api/workspaces/${encodeURIComponent(workspaceId)}/expiring`),
};
