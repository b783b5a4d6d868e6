import { HangarError } from "../errors/domain-errors";
import { GroupNotFoundError } from "../tester-groups/tester-group-errors";

/**
 * Group refs (ids or names) that name no group of the build's workspace: another workspace's
 * group id is missing exactly like an unknown one. tester-groups' one `group_not_found`, with
 * `missing` listing the refs, so `--groups qa,qe` says which one was the typo. Raised before
 * anything is written (complete checks it before completing).
 */
export const groupsNotFound = (missing: string[]) =>
  new GroupNotFoundError(`No tester group ${missing.map((m) => `"${m}"`).join(", ")} in this workspace`, { missing });

/** The build is not a completed upload (still pending, or rejected): nothing to send yet. */
export class BuildNotCompletedError extends HangarError {
  readonly code = "build_not_completed";
  constructor() {
    super("Only a completed build can be sent to testers");
  }
}
