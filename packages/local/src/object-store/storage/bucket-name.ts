/**
 * S3's bucket naming rules (3–63 chars of lower-case letters, digits, dots and hyphens, starting and ending
 * with a letter or digit, no `..`, not an IP address). They also make every valid name a safe folder name:
 * no separators, and nothing that starts with `.` (the store keeps `.tmp` beside the buckets).
 */
export function isValidBucketName(name: string): boolean {
  return (
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) &&
    !name.includes("..") &&
    !name.includes(".-") &&
    !name.includes("-.") &&
    !/^\d+\.\d+\.\d+\.\d+$/.test(name)
  );
}
