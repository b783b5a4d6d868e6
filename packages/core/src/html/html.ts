/**
 * HTML that escapes by default, as hono's `html` helper does: every value interpolated into an
 * `html` template is text, escaped, unless it is itself an `html` result or wrapped in `raw(...)`.
 * Arrays are joined (each item by the same rule); `undefined`, `null` and booleans render nothing,
 * so `${cond && html`…`}` reads as it means. The share pages and the mails are written with it, so
 * a forgotten escape is a visible `raw(` rather than an invisible omission.
 *
 * Not a DOM or a component library: the pages are a few hundred lines of static markup with no
 * script, and a tagged template keeps them one request and dependency-free.
 */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

/**
 * Text for HTML element content and for quoted attribute values: every character markup could use
 * is escaped, the backtick included (old IE took it as an attribute quote). The one escape of the tree.
 */
export const escapeHtml = (text: string) => text.replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);

/** Markup that is already safe: an `html` result, or a string its author vouches for with `raw`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Markup we wrote or a library drew (the QR code's SVG, the inline stylesheet): inserted as is. */
export const raw = (markup: string) => new SafeHtml(markup);

/** A value a template may hold. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === undefined || value === null || typeof value === "boolean") return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}
