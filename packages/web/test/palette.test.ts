import { describe, expect, it } from "vitest";
import { PROJECT_COLORS as CORE_COLORS } from "../../core/src/dashboard/palette";
import { PROJECT_COLORS, colorClass } from "../src/app/palette";
import { readFileSync } from "node:fs";

describe("project palette", () => {
  it("is exactly core's palette (names, order, badge and text colors)", () => {
    expect(PROJECT_COLORS).toEqual(CORE_COLORS);
    expect(Object.keys(PROJECT_COLORS)).toEqual(Object.keys(CORE_COLORS));
  });

  it("has a stylesheet rule painting each color with its hex value", () => {
    const css = readFileSync(new URL("../src/styles/palette.css", import.meta.url), "utf8");
    for (const [name, { hex, text }] of Object.entries(CORE_COLORS)) {
      const rule = new RegExp(`\\.${colorClass(name)}\\s*\\{[^}]*--swatch:\\s*${hex};[^}]*--swatch-text:\\s*${text};`, "i");
      expect(css, name).toMatch(rule);
    }
  });

  it("paints an unknown color gray rather than nothing", () => {
    expect(colorClass("chartreuse")).toBe("color-gray");
  });
});
