/**
 * The two character rules of every person-typed text the service stores (names, passwords,
 * messages). Dependency-free: the browser-safe schemas (`*.schema.ts`) import them.
 */

/**
 * C0, DEL and C1 controls, invisible and bidirectional format characters, line and paragraph
 * separators: a name is shown in lists, badges and mails, where they would hide or reorder text.
 */
export const CONTROL_OR_INVISIBLE = /[\u0000-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * A half of a UTF-16 surrogate pair standing alone: JSON can carry one (`"\ud800"`), no keyboard or
 * browser form can (it becomes U+FFFD), and it would become U+FFFD in any UTF-8 store or mail. With
 * the `u` flag the class matches only unpaired halves: a pair is one code point.
 */
export const LONE_SURROGATE = /[\ud800-\udfff]/u;
