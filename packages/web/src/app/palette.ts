/**
 * The project colors, mirrored from packages/core/src/dashboard/palette.ts (the web bundle does
 * not import core). packages/web/test/palette.test.ts fails if the two ever differ.
 */
export const PROJECT_COLORS = {
  blue: { hex: "#1d4ed8", text: "#ffffff" },
  green: { hex: "#15803d", text: "#ffffff" },
  red: { hex: "#b91c1c", text: "#ffffff" },
  orange: { hex: "#c2410c", text: "#ffffff" },
  purple: { hex: "#7e22ce", text: "#ffffff" },
  teal: { hex: "#0f766e", text: "#ffffff" },
  pink: { hex: "#be185d", text: "#ffffff" },
  gray: { hex: "#4b5563", text: "#ffffff" },
  indigo: { hex: "#4338ca", text: "#ffffff" },
  amber: { hex: "#b45309", text: "#ffffff" },
} as const;

export type ProjectColor = keyof typeof PROJECT_COLORS;
export const PROJECT_COLOR_NAMES = Object.keys(PROJECT_COLORS) as ProjectColor[];

export const colorLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The CSS class painting a color (CSP forbids style attributes; app.css has one rule per color). */
export const colorClass = (name: string) => `color-${name in PROJECT_COLORS ? name : "gray"}`;
