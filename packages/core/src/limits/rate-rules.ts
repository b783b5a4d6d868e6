import type { RateRule } from "../ports";

/**
 * Every rate rule of the service, in one place: the numbers docs/accounts.md, docs/share-links.md
 * and the README quote. All are fixed windows counted in DynamoDB (rate-limiter.dynamo.ts); each
 * can be changed per stage with HANGAR_RATE_RULES (`name=limit/windowSeconds,…`). "Client"
 * is the caller's address (IPv6: its /64), as client-info.ts takes it.
 *
 * The per-client rules of the public routes sit far below API Gateway's per-route throttle,
 * which stays as the ceiling of the whole stage: one client hits its own 429 long before it
 * could use up the route's rate for everybody else.
 */
export const defaultRateRules = {
  /**
   * Presign and complete per API key (HANGAR_RATE_LIMIT per HANGAR_RATE_WINDOW_SECONDS), counted on
   * the key's own item by the write that checks its secret (DynamoRateLimiter.onItem, api-key-gate.dynamo.ts).
   */
  apiKey: { limit: 100, windowSeconds: 60 },

  /** Sign-in attempts per client, whatever the account (offices share an address, so high). */
  signIn: { limit: 100, windowSeconds: 15 * 60 },
  /** Failed sign-ins (and wrong current passwords) per account and client, or per session. */
  signInFailures: { limit: 10, windowSeconds: 15 * 60 },
  /** Failed sign-ins per device cookie: a browser that signed in before has its own allowance. */
  signInDevice: { limit: 10, windowSeconds: 15 * 60 },
  /**
   * Sign-in attempts per account from browsers without its device cookie: the ceiling that stops
   * guessing from many addresses. It never holds a browser that carries the device cookie, and a
   * completed password reset clears it.
   */
  signInCeiling: { limit: 20, windowSeconds: 15 * 60 },
  /** Sign-ups, resends and reset requests per e-mail address: Hangar must not flood an inbox. */
  mailPerRecipient: { limit: 5, windowSeconds: 60 * 60 },
  /** Sign-ups, resends and reset requests per client. */
  mailPerClient: { limit: 30, windowSeconds: 15 * 60 },

  /** Share pages, their QR codes, icons and install manifests per client (personal install pages too, docs/testers.md). */
  sharePage: { limit: 120, windowSeconds: 60 },
  /** Requests to download links per client (counted or not: HEAD, bots, refusals), personal install links' included. */
  download: { limit: 60, windowSeconds: 60 },
  /**
   * Counted downloads of one link per client and UTC day: one client cannot use up a link's cap
   * (or inflate its counts) alone. Refused with 429; the refusal never uses up the cap.
   */
  downloadPerLink: { limit: 20, windowSeconds: 24 * 3600 },
  /** Link-password attempts per client, whatever the link. */
  linkPassword: { limit: 30, windowSeconds: 15 * 60 },
  /** Wrong link passwords per link and client: enough for typos, far too few to guess. */
  linkPasswordPerLink: { limit: 10, windowSeconds: 15 * 60 },
  /**
   * Wrong passwords per link from all clients together. Past it, a wrong answer uses up that
   * client's whole allowance on the link for the window (one try per address instead of ten);
   * a right answer from a client within its allowance still opens the link.
   */
  linkPasswordCeiling: { limit: 30, windowSeconds: 15 * 60 },

  /**
   * Presign, multipart and complete requests per account from the dashboard (browser uploads):
   * the API keys' allowance, counted per account as it is per key for CI.
   */
  dashboardUpload: { limit: 100, windowSeconds: 60 },

  /**
   * Invitation mails (new and re-sent) per workspace and UTC day: a team adding its people sends a
   * few dozen at most; a compromised admin account cannot turn the workspace into a spam cannon.
   */
  invitationsPerWorkspace: { limit: 50, windowSeconds: 24 * 3600 },
  /** Invitation mails (new and re-sent) per inviting member and hour, whatever the workspace. */
  invitationsPerInviter: { limit: 20, windowSeconds: 60 * 60 },
  /** Looks at an invitation link before signing in (the accept page) per client. */
  invitationPreview: { limit: 60, windowSeconds: 15 * 60 },

  // Tester access (issue 20, docs/testers.md "Tester sign-in and the portal API").
  /** Magic-link requests of the tester portal per client (a test lab shares one address, so not tiny). */
  testerSignIn: { limit: 30, windowSeconds: 15 * 60 },
  /** Magic links (sign-in and join confirmations) per tester address: Hangar must not flood an inbox. */
  testerMailPerAddress: { limit: 5, windowSeconds: 60 * 60 },
  /** Join requests and invite-link previews per client. */
  joinPerClient: { limit: 60, windowSeconds: 15 * 60 },
  /**
   * Join requests per invite link from all clients together: a link posted in the team's chat has
   * thirty people joining within minutes; a leaked link cannot mail the world through Hangar.
   */
  joinPerLink: { limit: 200, windowSeconds: 60 * 60 },
  /**
   * In-app update checks per update token (GET /api/updates/latest): a token ships inside every
   * copy of a test build, so this is the whole tester base's allowance — an app checks at launch,
   * thirty testers a few times an hour each stay far below it; a leaked token cannot be used to
   * hammer the table.
   */
  updateCheck: { limit: 600, windowSeconds: 60 },
  /**
   * Build mails per workspace and UTC day (docs/testers.md): thirty testers and a few builds a day
   * are far below; a script that distributes in a loop stops here (status `capped`), not at SES's
   * daily quota, which every workspace of the stage shares.
   */
  buildMailPerWorkspace: { limit: 2000, windowSeconds: 24 * 3600 },

  // iOS devices (issue 22, docs/devices.md).
  /** Enroll profiles handed out per client: a test lab registering its phones shares one address. */
  deviceEnroll: { limit: 60, windowSeconds: 15 * 60 },
  /** Signed device answers posted per client (each costs a signature check). */
  deviceEnrollAnswer: { limit: 60, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateRule>;

export type RateRuleName = keyof typeof defaultRateRules;
export type RateRules = Record<RateRuleName, RateRule>;

export const isRateRuleName = (name: string): name is RateRuleName => Object.hasOwn(defaultRateRules, name);

/**
 * `signIn=200/900, download=120/60`: the rules to change (limit per window in seconds), or the
 * reason the text is not that. Unknown names are refused, so a typo cannot silently keep a default.
 */
export function parseRateRuleOverrides(text: string): { rules: Partial<RateRules> } | { problem: string } {
  const rules: Partial<RateRules> = {};
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\d{1,7})\/(\d{1,6})$/.exec(part);
    if (!m) return { problem: `"${part.slice(0, 40)}" is not name=limit/windowSeconds` };
    const [, name, limit, window] = m as unknown as [string, string, string, string];
    if (!isRateRuleName(name)) return { problem: `unknown rule "${name}" (one of ${Object.keys(defaultRateRules).join(", ")})` };
    if (Number(limit) < 1 || Number(window) < 1 || Number(window) > 7 * 24 * 3600) {
      return { problem: `${name}: the limit must be at least 1 and the window from 1 s to 7 days` };
    }
    rules[name] = { limit: Number(limit), windowSeconds: Number(window) };
  }
  return { rules };
}
