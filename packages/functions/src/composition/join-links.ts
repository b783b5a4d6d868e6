import { JoinLinkGoneError, type JoinLinks } from "@hangar/core/tester-access";

/**
 * The invite links of tester groups as tester access sees them (core's JoinLinks port), wired to
 * tester-groups' `previewJoinLink` and `joinGroupByLink`.
 *
 * Until the groups work is merged, no token names a link: every preview is gone and every join 410.
 */
export function joinLinks(): JoinLinks {
  return {
    preview: async () => undefined,
    join: async () => {
      throw new JoinLinkGoneError();
    },
  };
}
