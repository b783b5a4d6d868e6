import { ACTIONS, PERMISSIONS, ROLES } from "@hangar/core/roles";
import { describe, expect, it } from "vitest";
import { ApiError } from "../src/api/api-client";
import { paths } from "../src/app/paths";
import { sameOriginPath } from "../src/app/router";
import { homeFor } from "../src/app/session";
import { ACTION_WORDS, describeTeamError, roleAbilities } from "../src/app/workspace";

const account = { userId: "usr_a", email: "a@example.com", emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z" };
const invitation = paths.invitation("tok_en-1");

describe("the return path through sign-in, sign-up and the profile form", () => {
  it("goes to a same-origin next, through the profile form while the account has no display name", () => {
    expect(homeFor({ ...account, displayName: "Ada" }, invitation)).toBe(invitation);
    expect(homeFor(account, invitation)).toBe(paths.withNext("/profile", invitation));
    expect(new URLSearchParams(homeFor(account, invitation).split("?")[1]).get("next")).toBe(invitation);
  });

  it("falls back to the dashboard (or the profile form) for no next or another origin", () => {
    for (const next of [null, undefined, "", "//evil.example", "https://evil.example/x", "/\\evil"]) {
      expect(homeFor({ ...account, displayName: "Ada" }, next)).toBe("/dashboard");
      expect(homeFor(account, next)).toBe("/profile");
      expect(sameOriginPath(next)).toBeUndefined();
    }
  });

  it("keeps the invitation's token in the path it carries", () => {
    expect(sameOriginPath(invitation)).toBe("/invitations/accept?token=tok_en-1");
  });
});

describe("role descriptions", () => {
  it("are read from core's policy: each role names exactly what PERMISSIONS gives it", () => {
    for (const role of ROLES) {
      const sentence = roleAbilities(role);
      for (const action of ACTIONS) expect(sentence.includes(ACTION_WORDS[action]), `${role} ${action}`).toBe(PERMISSIONS[role].includes(action));
    }
    expect(roleAbilities("viewer")).toBe("Can see projects, builds, links and usage.");
    expect(roleAbilities("developer")).toContain("manage API keys");
    expect(roleAbilities("developer")).not.toContain("projects.manage");
    expect(roleAbilities("admin")).not.toContain("delete the workspace");
    expect(roleAbilities("owner")).toContain("delete the workspace");
  });
});

describe("team errors", () => {
  const error = (status: number, code: string, message = "refused") => new ApiError(status, code, message);
  it("say what to do next for the refusals the team pages expect", () => {
    expect(describeTeamError(error(403, "forbidden", "Your role in this workspace (viewer) does not allow members.manage"))).toMatch(/does not allow this/);
    expect(describeTeamError(error(409, "last_owner"))).toMatch(/at least one owner/);
    expect(describeTeamError(error(409, "already_member"))).toMatch(/already a member/);
    expect(describeTeamError(error(409, "already_invited"))).toMatch(/pending invitation/);
    expect(describeTeamError(error(409, "limit_reached", "The workspace has 100 members"))).toMatch(/^The workspace has 100 members\. /);
  });

  it("leave anything else as the API says it", () => {
    expect(describeTeamError(error(400, "invalid_request", "name must not be empty"))).toBe("name must not be empty.");
  });
});
