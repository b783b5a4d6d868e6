/**
 * The family of a User-Agent header ("Chrome", "Firefox", "curl", "Hangar CLI", …): what the audit
 * log keeps of it. A full header is close to a fingerprint (exact versions, OS build, device
 * model) and says little more to a person reading "who did this, from where"; the family answers
 * "was that the CLI in CI or someone's browser" and is the same for everyone on that client.
 *
 * Order matters: browsers all claim to be each other ("Mozilla/5.0 … Chrome/… Safari/…", Edge
 * adds "Edg/" to Chrome's string, Chrome on iOS is "CriOS" on Safari's WebKit), so the most
 * specific token is tested first. Pure and bounded: the HTTP layer already cut the header to
 * 256 characters, and the patterns are anchored or literal (no backtracking on hostile input).
 * A parser library (ua-parser-js) would name more families; these are the clients of this
 * service, and everything else is honestly "Other".
 */
const FAMILIES: readonly (readonly [RegExp, string])[] = [
  // Programs first: their strings are short and never pretend to be browsers.
  [/^hangar-cli\//i, "Hangar CLI"],
  [/GitHubActionsRunner|^actions\/|@actions\//, "GitHub Actions"],
  [/^curl\//i, "curl"],
  [/^Wget\//i, "Wget"],
  // Node's built-in fetch (undici) sends "node" (Node 20+) or "undici" (18); node-fetch and axios name themselves.
  [/^(?:node|undici)(?:\/|$)|^node-fetch\b/i, "Node.js"],
  [/^axios\//i, "axios"],
  [/^python-(?:requests|urllib3|httpx)\/|^Python-urllib\/|^aiohttp\//i, "Python"],
  [/^Go-http-client\//, "Go"],
  [/^PostmanRuntime\//, "Postman"],
  // Browsers, most specific token first.
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+ (?:Mobile\/\w+ )?Safari\//, "Safari"],
];

export const OTHER_USER_AGENT = "Other";

export function userAgentFamily(userAgent: string | undefined): string {
  if (!userAgent) return OTHER_USER_AGENT;
  const ua = userAgent.slice(0, 256);
  for (const [pattern, family] of FAMILIES) if (pattern.test(ua)) return family;
  return OTHER_USER_AGENT;
}
