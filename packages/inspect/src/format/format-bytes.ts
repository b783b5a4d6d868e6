/**
 * Byte counts for people, one rule everywhere Hangar shows a size (CLI progress and summary,
 * the share page): decimal SI units, 1 kB = 1000 B, written "kB", "MB", "GB", "TB".
 *
 * Why decimal: the numbers people compare ours with are decimal. Android Studio, the Play Console,
 * App Store Connect, Finder and `ls -h --si`-style CI logs all say "MB" for 10^6 bytes; a binary
 * 1024 rule labelled "KB"/"MB" would show a 125 MB build as 119.2 MB beside them.
 */
const UNITS = ["B", "kB", "MB", "GB", "TB"] as const;

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
