/**
 * The branch filter of an endpoint: a glob where `*` matches any characters but `/` and `**` any
 * characters at all (`release/*` takes `release/2.4` but not `release/2.4/hotfix`; `feature/**`
 * takes both levels). Compiled to an anchored regular expression with everything else literal, so
 * a filter cannot become a pattern that backtracks badly (the schema allows only
 * `[A-Za-z0-9._/*@+-]`).
 */
export function matchesBranch(filter: string, branch: string): boolean {
  const source = filter
    .split(/(\*\*|\*)/)
    .map((part) => (part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`).test(branch);
}
