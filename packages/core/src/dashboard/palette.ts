/**
 * The project colors. Sent and stored as the lowercase name; the hex values are the badge
 * background the web app paints behind the badge text (`text`). Every pair passes WCAG 2.x AA
 * for normal text (contrast ≥ 4.5:1), which packages/core/test/dashboard/palette.test.ts computes.
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
} as const satisfies Record<string, { hex: `#${string}`; text: `#${string}` }>;

export type ProjectColor = keyof typeof PROJECT_COLORS;
export const PROJECT_COLOR_NAMES = Object.keys(PROJECT_COLORS) as [ProjectColor, ...ProjectColor[]];

/** WCAG 2.x relative luminance of an sRGB `#rrggbb` color. */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2.x contrast ratio (1 to 21) of two `#rrggbb` colors. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
