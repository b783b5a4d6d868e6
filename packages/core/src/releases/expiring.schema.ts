/**
 * The answer of `GET /api/workspaces/{workspaceId}/expiring` (docs/release-safety.md, "Expiry
 * warnings"), shared with the dashboard's banner as a type. Browser-safe: no imports.
 */
import type { ExpiryKind } from "./expiry-warnings";

export interface ExpiringItem {
  fileId: string;
  projectId: string;
  projectName: string;
  platform: string | null;
  version: string | null;
  build: string | null;
  /** What expires: the build's provisioning profile, or its share link. */
  kind: ExpiryKind;
  expiresAt: string;
  /** Whole days left, rounded up (0: expires within the day). */
  daysLeft: number;
}

export interface ExpiringAnswer {
  /** Soonest first. */
  items: ExpiringItem[];
}
