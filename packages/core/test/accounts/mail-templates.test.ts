import { describe, expect, it } from "vitest";
import { accountExistsMail, passwordResetMail, verificationMail } from "../../src/accounts";

/** What a person can type where a mail repeats it: markup, both quotes, a backtick, an ampersand. */
const HOSTILE = `<script>alert("x")</script>'q'\`t\`&@example.com`;
const ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;q&#39;&#96;t&#96;&amp;@example.com";
const URL_WITH_QUOTES = `https://h.example/x?token=a&b="c"'d'\`e\``;

describe("every mail's HTML part", () => {
  it.each([
    ["verification", verificationMail(HOSTILE, URL_WITH_QUOTES, 24)],
    ["account exists", accountExistsMail(HOSTILE, { signIn: URL_WITH_QUOTES, forgotPassword: URL_WITH_QUOTES })],
    ["password reset", passwordResetMail(HOSTILE, URL_WITH_QUOTES, 30)],
  ])("%s: escapes the address and the links wherever they land, and keeps them in the text part as typed", (_name, mail) => {
    expect(mail.html).toContain(ESCAPED);
    expect(mail.html).not.toMatch(/<script|alert\("x"\)|'q'|`t`/);
    // The link's quotes cannot end its attribute.
    expect(mail.html).toContain(`href="https://h.example/x?token=a&amp;b=&quot;c&quot;&#39;d&#39;&#96;e&#96;"`);
    expect(mail.html.match(/<a /g)).toHaveLength(1);
    expect(mail.text).toContain(HOSTILE);
    expect(mail.html).toMatch(/^<!doctype html><html lang="en"><head><meta charset="utf-8"><title>[^<]+<\/title><\/head><body /);
  });
});
