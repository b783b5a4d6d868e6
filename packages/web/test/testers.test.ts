import { describe, expect, it } from "vitest";
import { ApiError } from "../src/api/api-client";
import { describeTesterError, inviteLinkState, parseAddresses } from "../src/app/testers";

describe("parseAddresses (the Add testers box and imported files)", () => {
  it("splits a pasted list on commas, semicolons, new lines and spaces, once per address", () => {
    expect(parseAddresses("ada@example.com, grace@example.org;\nlin@example.net  Ada@Example.com\n\n")).toEqual([
      "ada@example.com",
      "grace@example.org",
      "lin@example.net",
    ]);
  });

  it("finds the addresses of a CSV export (header row and other columns ignored) and of “Name <address>” entries", () => {
    const csv = 'Name,Email,Device\r\n"Ada Lovelace","ada@example.com",iPhone\r\nGrace,<grace@example.org>,Pixel\r\n';
    expect(parseAddresses(csv)).toEqual(["ada@example.com", "grace@example.org"]);
    expect(parseAddresses("Lin Wu <lin@example.net>")).toEqual(["lin@example.net"]);
  });

  it("keeps what merely looks like an address for the server to refuse by name", () => {
    expect(parseAddresses("not-an-address, half@")).toEqual(["half@"]);
    expect(parseAddresses("")).toEqual([]);
  });
});

describe("describeTesterError", () => {
  it("names the permission a 403 refused, in words, and who to ask", () => {
    const error = new ApiError(403, "forbidden", "Your role in this workspace (viewer) does not allow testers.manage");
    const said = describeTesterError(error);
    expect(said).toContain("manage tester groups");
    expect(said).toContain("testers.manage");
    expect(said).toContain("Ask an owner or admin");
  });

  it("says what to do about a taken group name", () => {
    expect(describeTesterError(new ApiError(409, "group_name_taken", "A group named QA exists"))).toContain("Choose another name");
  });
});

describe("inviteLinkState", () => {
  const link = { url: "https://h.example/join/t", createdAt: "2026-01-01T00:00:00Z", expiresAt: null, maxMembers: null, joinedCount: 0 };
  const now = Date.parse("2026-06-01T00:00:00Z");
  it("is none, open, expired or full", () => {
    expect(inviteLinkState(null, now)).toBe("none");
    expect(inviteLinkState(link, now)).toBe("open");
    expect(inviteLinkState({ ...link, expiresAt: "2026-05-31T00:00:00Z" }, now)).toBe("expired");
    expect(inviteLinkState({ ...link, maxMembers: 3, joinedCount: 3 }, now)).toBe("full");
    expect(inviteLinkState({ ...link, maxMembers: 3, joinedCount: 2, expiresAt: "2026-06-02T00:00:00Z" }, now)).toBe("open");
  });
});
