/**
 * The order of version strings and build numbers as the stores apply it: dot-separated numbers
 * compared number by number (`1.10` after `1.9`, `2.0` equal to `2`), which is how Android's
 * versionCode (one integer) and Apple's CFBundleVersion / CFBundleShortVersionString (up to three
 * dot-separated integers) are ordered. Browser-safe: no imports.
 *
 * A value that is not such a list (`1.0-beta`, `abc`) has no order: `compareVersions` answers
 * undefined and callers say "changed" instead of "went up" or "went down".
 */
const DOTTED = /^\d{1,18}(?:\.\d{1,18}){0,9}$/;

export function compareVersions(a: string, b: string): -1 | 0 | 1 | undefined {
  const left = a.trim();
  const right = b.trim();
  if (!DOTTED.test(left) || !DOTTED.test(right)) return left === right ? 0 : undefined;
  const x = left.split(".").map(BigInt);
  const y = right.split(".").map(BigInt);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? 0n;
    const q = y[i] ?? 0n;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}
