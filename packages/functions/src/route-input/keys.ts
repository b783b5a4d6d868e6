import { CreateKey, KeyRef, WorkspaceQuery, keyNotFound } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { dashboard, type RouteInput } from "./rows";

const key = { params: KeyRef, notFound: keyNotFound } as const;

/** The keys function's routes (routes.ts). */
export const input = {
  "POST /api/keys": dashboard({ body: CreateKey }),
  "GET /api/keys": dashboard({ query: WorkspaceQuery }),
  "DELETE /api/keys/{clientId}": dashboard(key),
  "POST /api/keys/{clientId}/regenerate": dashboard(key),
  "GET /api/keys/{clientId}/usage": dashboard(key),
} as const satisfies Record<RouteKeyOf<"keys">, RouteInput>;
