import { describe, expect, it } from "vitest";
import { CreateProject, PROJECT_COLORS, PROJECT_COLOR_NAMES, contrastRatio, parseInput } from "../../src";

describe("project color palette", () => {
  it("computes WCAG contrast ratios like the specification's examples", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    // #767676 on white is the well-known lightest gray that passes AA (4.54:1).
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it.each(PROJECT_COLOR_NAMES)("%s passes WCAG AA (4.5:1) as a badge with its text", (name) => {
    const { hex, text } = PROJECT_COLORS[name];
    expect(contrastRatio(hex, text)).toBeGreaterThanOrEqual(4.5);
  });

  it("has about ten lowercase names, including the ones the issue names", () => {
    expect(PROJECT_COLOR_NAMES.length).toBeGreaterThanOrEqual(8);
    expect(PROJECT_COLOR_NAMES.length).toBeLessThanOrEqual(12);
    for (const name of PROJECT_COLOR_NAMES) expect(name).toMatch(/^[a-z]+$/);
    expect(PROJECT_COLOR_NAMES).toEqual(expect.arrayContaining(["blue", "green", "red", "orange", "purple", "teal", "pink", "gray"]));
  });

  it("is the only set of colors a project accepts", () => {
    expect(parseInput(CreateProject, { name: "A", color: "teal" }).color).toBe("teal");
    expect(() => parseInput(CreateProject, { name: "A", color: "Teal" })).toThrow(/color: must be one of blue/);
    expect(() => parseInput(CreateProject, { name: "A", color: "#ff0000" })).toThrow(/color/);
  });
});
