import { GroupNotFoundError } from "../tester-groups/tester-group-errors";

/**
 * Group refs (ids or names) that name no group of the build's workspace: another workspace's
 * group id is missing exactly like an unknown one. tester-groups' one `group_not_found`, with
 * `missing` listing the refs, so `--groups qa,qe` says which one was the typo. Raised before
 * anything is written (complete checks it before completing).
 */
export const groupsNotFound = (missing: string[]) =>
  new GroupNotFoundError(`No tester group ${missing.map((m) => `"${m}"`).join(", ")} in this workspace`, { missing });
