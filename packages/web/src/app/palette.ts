/**
 * The project colors come from core (one definition: names, badge and text colors, and their
 * WCAG AA test); `@hangar/core/palette` imports nothing, so the web bundle stays free of core.
 */
import { PROJECT_COLORS, PROJECT_COLOR_NAMES, type ProjectColor } from "@hangar/core/palette";

export { PROJECT_COLORS, PROJECT_COLOR_NAMES, type ProjectColor };

export const colorLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The CSS class painting a color (CSP forbids style attributes; styles/palette.css has one rule per color). */
export const colorClass = (name: string) => `color-${name in PROJECT_COLORS ? name : "gray"}`;
