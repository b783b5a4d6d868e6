/**
 * Which of two builds of one app is newer, as the update check and the share page's "a newer
 * build is available" decide it (docs/testers.md, "The app page and the update check"):
 *
 * 1. When both build numbers are numeric (`42`, or dotted like iOS's `1.0.3`), the build numbers
 *    decide, part by part as numbers: Android's versionCode and most CI counters only grow.
 * 2. Otherwise (or when the build numbers are equal) the versions decide, by their leading dotted
 *    numbers (`2.10.0` > `2.9.1`; a suffix like `-beta` is ignored; a missing part is 0).
 * 3. A side without a usable number is never newer: the check would rather stay quiet than prompt
 *    for a build it cannot order.
 *
 * Pure and dependency-free: the web app may import it.
 */
export interface BuildNumbers {
  version: string | undefined;
  build: string | undefined;
}

// Parts of at most 15 digits: exact as JavaScript numbers; a longer one is not a version anyone ships.
const NUMERIC = /^\d{1,15}(\.\d{1,15}){0,5}$/;

function parts(value: string | undefined, whole: boolean): number[] | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (whole) return NUMERIC.test(trimmed) ? trimmed.split(".").map(Number) : undefined;
  const leading = /^v?(\d{1,15}(?:\.\d{1,15}){0,5})(?![\d.]*\d)/i.exec(trimmed);
  return leading ? leading[1]!.split(".").map(Number) : undefined;
}

function compareParts(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** > 0 when `a` is newer than `b`, < 0 when older, 0 when equal or not comparable. */
export function compareBuilds(a: BuildNumbers, b: BuildNumbers): number {
  const buildA = parts(a.build, true);
  const buildB = parts(b.build, true);
  if (buildA && buildB) {
    const byBuild = compareParts(buildA, buildB);
    if (byBuild !== 0) return byBuild;
  }
  const versionA = parts(a.version, false);
  const versionB = parts(b.version, false);
  return versionA && versionB ? compareParts(versionA, versionB) : 0;
}

/** "1.4.0 (42)", or the version alone without a build number. */
export const versionLabel = (version: string, build: string | undefined | null) => (build ? `${version} (${build})` : version);
