import { DefaultGroupsInput, DistributeInput, UnsubscribeRef } from "@hangar/core/distribution-schema";
import { RouteNotFoundError } from "../middleware/http-errors";
import type { RouteKeyOf } from "../routes";
import { dashboard, file, page, project, type RouteInput } from "./rows";

/** The distribution function's routes (routes.ts). */
export const input = {
  // Issue 20, distribute (docs/testers.md). The unsubscribe token is checked by its MAC in the use case.
  "POST /api/files/{fileId}/distribute": dashboard({ ...file, body: DistributeInput }),
  "GET /api/files/{fileId}/distributions": dashboard(file),
  "GET /api/projects/{projectId}/default-groups": dashboard(project),
  "PUT /api/projects/{projectId}/default-groups": dashboard({ ...project, body: DefaultGroupsInput }),
  "GET /unsubscribe/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
  "POST /unsubscribe/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
  "GET /unsubscribe/expiry/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
  "POST /unsubscribe/expiry/{token}": page({ params: UnsubscribeRef, notFound: () => new RouteNotFoundError("unsubscribe_not_found", "No unsubscribe link at this address") }),
} as const satisfies Record<RouteKeyOf<"distribution">, RouteInput>;
