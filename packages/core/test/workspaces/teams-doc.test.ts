import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ACTIONS, can, ROLES } from "../../src/workspaces/roles";

/** docs/teams.md's roles table is the policy for people: it must say what roles.ts does. */
const doc = readFileSync(join(import.meta.dirname, "../../../../docs/teams.md"), "utf8");

function rolesTable(): { header: string[]; rows: string[][] } {
  const block = /<!-- roles-table:start -->\n([\s\S]*?)\n<!-- roles-table:end -->/.exec(doc);
  if (!block) throw new Error("docs/teams.md has no roles table between its markers");
  const [header, , ...rows] = block[1]!.split("\n").map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
  return { header: header!, rows };
}

describe("docs/teams.md roles table", () => {
  it("has a column per role, in roles.ts's order", () => {
    expect(rolesTable().header).toEqual(["action", "what it allows", ...ROLES]);
  });

  it("has a row per action, in roles.ts's order, with a ✓ exactly where can(role, action) holds", () => {
    const { rows } = rolesTable();
    expect(rows.map((r) => r[0])).toEqual(ACTIONS.map((a) => `\`${a}\``));
    for (const row of rows) {
      const action = row[0]!.slice(1, -1) as (typeof ACTIONS)[number];
      expect(row.slice(2), action).toEqual(ROLES.map((role) => (can(role, action) ? "✓" : "")));
      expect(row[1], action).not.toBe("");
    }
  });
});
