import { describe, expect, it } from "vitest";
import { auditActor, userAgentFamily } from "../../src/audit";

// Real User-Agent headers, as these clients send them.
const SEEN: [string, string][] = [
  ["Chrome", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"],
  ["Chrome", "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"],
  // Chrome on iOS runs on Safari's WebKit and says so; its own token is CriOS.
  ["Chrome", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1"],
  // Edge is Chrome's string plus Edg/.
  ["Edge", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86"],
  ["Edge", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 EdgiOS/131.2903.65 Mobile/15E148 Safari/605.1.15"],
  ["Firefox", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0"],
  ["Firefox", "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"],
  ["Firefox", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15"],
  ["Safari", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"],
  ["Safari", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"],
  ["Safari", "Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1"],
  ["Opera", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0"],
  ["Samsung Internet", "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36"],
  ["curl", "curl/8.5.0"],
  ["Wget", "Wget/1.21.4"],
  // Node's fetch (undici) sends "node" from Node 20 on, "undici" before.
  ["Node.js", "node"],
  ["Node.js", "undici"],
  ["Node.js", "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)"],
  ["axios", "axios/1.7.9"],
  ["Python", "python-requests/2.32.3"],
  ["Go", "Go-http-client/2.0"],
  ["Postman", "PostmanRuntime/7.43.0"],
  // packages/cli/src/client/hangar-client.ts: `hangar-cli/<version> node/<node version>`.
  ["Hangar CLI", "hangar-cli/0.4.0 node/22.11.0"],
  ["GitHub Actions", "GitHubActionsRunner-linux-x64/2.321.0"],
  ["GitHub Actions", "actions/http-client"],
];

describe("userAgentFamily", () => {
  it.each(SEEN)("%s ← %s", (family, userAgent) => {
    expect(userAgentFamily(userAgent)).toBe(family);
  });

  it("answers Other for what it does not know, an empty or missing header", () => {
    for (const ua of ["Mozilla/5.0", "Xbox Live Client/2.0", "MyCompanyBot", "", undefined]) expect(userAgentFamily(ua)).toBe("Other");
  });

  it("never returns more of the header than a family name (hostile input included)", () => {
    const hostile = `curl/${"9".repeat(5_000)}<script>`;
    expect(userAgentFamily(hostile)).toBe("curl");
    expect(userAgentFamily(`Mozilla/5.0 ${"(".repeat(10_000)}`)).toBe("Other");
  });
});

describe("auditActor", () => {
  it("keeps the user, the client's address and the family of its user agent, never the header", () => {
    const ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15";
    const actor = auditActor({ userId: "usr_a", client: { ip: "2001:db8:1:2::/64", userAgent: ua } });
    expect(actor).toEqual({ userId: "usr_a", ip: "2001:db8:1:2::/64", userAgentFamily: "Safari" });
    expect(JSON.stringify(actor)).not.toContain("Macintosh");
  });

  it("adds the address when the use case has it, and nothing for a client it was not told about", () => {
    expect(auditActor({ userId: "usr_a" }, "a@example.com")).toEqual({ userId: "usr_a", email: "a@example.com" });
    expect(auditActor({ userId: "usr_a", client: { ip: "203.0.113.9" } })).toEqual({ userId: "usr_a", ip: "203.0.113.9", userAgentFamily: "Other" });
  });
});
