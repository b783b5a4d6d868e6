import { ConflictError, HangarError } from "../errors/domain-errors";
import type { Action, Role } from "./roles";

/**
 * A member asked for something their role does not allow: 403 `forbidden`, naming the missing
 * permission so a person (or a script) knows what to ask an owner for. Non-members never see
 * this: for them a workspace, and everything in it, is a 404 like an unknown id.
 */
export class ForbiddenError extends HangarError {
  readonly code = "forbidden";
  constructor(
    readonly role: Role,
    readonly permission: Action,
  ) {
    super(`Your role in this workspace (${role}) does not allow ${permission}`, { permission, role });
  }
}

/** 409 `last_owner`: a workspace always keeps an owner (transfer ownership, or delete the workspace). */
export const lastOwner = () =>
  new ConflictError("last_owner", "A workspace needs an owner: make another member owner first, or delete the workspace");
