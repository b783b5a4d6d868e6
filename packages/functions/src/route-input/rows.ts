/**
 * What every function's table of route inputs (route-input/<function>.ts) is built from: the row
 * type, its three kinds (index.ts says what each means) and the params rows several functions
 * share. Schemas of one function's routes stay in that function's file, so that a function's
 * bundle carries its own rows' schemas only (index.ts says how).
 */
import { FileRef, ProjectRef, WorkspaceRef, fileNotFound, projectNotFound, workspaceNotFound } from "@hangar/core";
import { UnknownLinkError } from "@hangar/core/link-errors";
import { ShareKeyRef } from "@hangar/core/links";
import type * as z from "zod/mini";

export type RouteKind = "api" | "dashboard" | "page";

/** A zod schema, or a function that parses with the right one of several (complete's two bodies). */
type BodyParser = z.ZodMiniType | ((raw: unknown) => unknown);

export interface RouteInput {
  kind: RouteKind;
  /** The JSON body's schema; a route without one reads no body (or reads its own, as the share form). */
  body?: BodyParser;
  /** The body's bound in bytes when not the default 64 KiB (middleware/json-body.ts). */
  maxBodyBytes?: number;
  query?: z.ZodMiniType;
  params?: z.ZodMiniObject;
  /** What a params value that fails its schema answers: the resource's own 404. */
  notFound?: () => Error;
}

export const api = <const I extends Omit<RouteInput, "kind">>(input: I) => ({ kind: "api" as const, ...input });
export const dashboard = <const I extends Omit<RouteInput, "kind">>(input: I) => ({ kind: "dashboard" as const, ...input });
export const page = <const I extends Omit<RouteInput, "kind">>(input: I) => ({ kind: "page" as const, ...input });

// Object literals only: a function that uses none of these carries none of their schemas (core has no side effects).
/** Share and download keys: JSON clients read this 404; browsers get the function's page for it. */
export const shareKey = { params: ShareKeyRef, notFound: () => new UnknownLinkError() } as const;
export const project = { params: ProjectRef, notFound: projectNotFound } as const;
export const file = { params: FileRef, notFound: fileNotFound } as const;
export const workspace = { params: WorkspaceRef, notFound: workspaceNotFound } as const;
