import { describe, expect, it } from "vitest";
import { escapeHtml, html, raw } from "../../src/html/html";

const HOSTILE = `<script>alert("x")</script> & 'single' \`tick\``;
const ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;single&#39; &#96;tick&#96;";

describe("html, the template that escapes by default", () => {
  it("escapes every character markup could use, the backtick included", () => {
    expect(escapeHtml(HOSTILE)).toBe(ESCAPED);
    expect(escapeHtml("plain text, 🚀 and ünïcode")).toBe("plain text, 🚀 and ünïcode");
  });

  it("escapes interpolated values in text and in attributes, and never the template's own markup", () => {
    expect(html`<p title="${HOSTILE}">${HOSTILE}</p>`.toString()).toBe(`<p title="${ESCAPED}">${ESCAPED}</p>`);
    expect(html`<b>${42}</b>`.toString()).toBe("<b>42</b>");
  });

  it("inserts html results and raw(...) as they are, and escapes a string that merely looks like markup", () => {
    const inner = html`<i>${HOSTILE}</i>`;
    expect(html`<p>${inner}</p>`.toString()).toBe(`<p><i>${ESCAPED}</i></p>`);
    expect(html`<p>${raw("<svg></svg>")}</p>`.toString()).toBe("<p><svg></svg></p>");
    expect(html`<p>${inner.toString()}</p>`.toString()).toBe(`<p>&lt;i&gt;${ESCAPED.replace(/&/g, "&amp;")}&lt;/i&gt;</p>`);
  });

  it("joins arrays by the same rule, and renders nothing for undefined, null and booleans", () => {
    expect(html`<ul>${["<a>", html`<li>b</li>`, ["c", undefined]]}</ul>`.toString()).toBe("<ul>&lt;a&gt;<li>b</li>c</ul>");
    const shown = (n: number) => n > 1 && html`<b>many</b>`;
    expect(html`[${undefined}${null}${false}${true}${shown(1)}]`.toString()).toBe("[]");
    expect(html`[${shown(2)}]`.toString()).toBe("[<b>many</b>]");
  });
});
