import type { RateLimitState } from "../errors/domain-errors";
import type { PasswordHasher, RateLimitDecision, RateLimiter } from "../ports";
import type { ShareLink } from "./share-link.port";

/** The three rules of link passwords (limits/rate-rules.ts: linkPassword, linkPasswordPerLink, linkPasswordCeiling). */
export interface LinkPasswordLimits {
  /** Attempts per client, whatever the link. */
  perClient: RateLimiter;
  /** Wrong answers per link and client. */
  perLinkClient: RateLimiter;
  /** Wrong answers per link from everyone. */
  ceiling: RateLimiter;
}

export interface LinkPasswordDeps {
  hasher: PasswordHasher;
  limits: LinkPasswordLimits;
}

export type LinkPasswordOutcome = { outcome: "right" } | { outcome: "wrong" } | { outcome: "limited"; retryAfterSeconds: number; rateLimit: RateLimitState };

/** More than any limit: a hit of this cost uses up what is left of a window. */
const WHOLE_ALLOWANCE = 1_000_000;

/** The refusal that lasts longest: its state, and the seconds until it ends (at least one). */
function limited(decisions: RateLimitDecision[], now: Date): LinkPasswordOutcome {
  const refusal = decisions.filter((d) => !d.allowed).reduce((a, b) => (b.state.resetAt > a.state.resetAt ? b : a));
  return { outcome: "limited", retryAfterSeconds: Math.max(1, refusal.state.resetAt - Math.floor(now.getTime() / 1000)), rateLimit: refusal.state };
}

/**
 * Checks a link password for one client. The limits are counted per client before the
 * (expensive) hash, so a client over its allowance costs no CPU; a right answer gives its
 * per-link count back, so only wrong ones add up.
 *
 * What an attacker can no longer do (issue 17, M3): lock everybody out of a link. Wrong answers
 * are counted per link *and client*; the per-link ceiling only makes wrong answers more costly
 * (past it, one wrong answer uses up that client's allowance on the link for the window, so a
 * guesser with many addresses gets one try per address instead of ten). A right answer from a
 * client within its own allowance is always checked and always let in.
 */
export async function checkLinkPassword(
  deps: LinkPasswordDeps,
  link: Pick<ShareLink, "userKey" | "passwordHash">,
  password: string | undefined,
  client: string,
  now: Date,
): Promise<LinkPasswordOutcome> {
  const linkClient = `${link.userKey}:${client}`;
  const decisions = await Promise.all([deps.limits.perClient.hit(client, now), deps.limits.perLinkClient.hit(linkClient, now)]);
  if (decisions.some((d) => !d.allowed)) return limited(decisions, now);

  // No password given: the same work against a dummy, so the answer's time tells nothing.
  const check = await deps.hasher.verify(password ?? "", password ? link.passwordHash : undefined);
  if (check.valid && password) {
    await deps.limits.perLinkClient.refund(linkClient, now);
    return { outcome: "right" };
  }
  const ceiling = await deps.limits.ceiling.hit(link.userKey, now);
  if (!ceiling.allowed) await deps.limits.perLinkClient.hit(linkClient, now, WHOLE_ALLOWANCE);
  return { outcome: "wrong" };
}
