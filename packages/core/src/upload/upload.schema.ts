// zod/mini: the same validation as zod's chained API at a fifth of the bundle (~18 KB vs ~90 KB
// minified), which every Lambda carries into its cold start.
import * as z from "zod/mini";

export const APK_MEDIA_TYPE = "application/vnd.android.package-archive";
export const GENERIC_MEDIA_TYPE = "application/octet-stream";

// C0, DEL and C1 controls: they break headers, logs and terminals when a name is echoed back.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
// With the u flag a surrogate class matches only unpaired halves: a pair is one code point.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
/**
 * Invisible and bidirectional format characters (Unicode Cf: U+202A–202E embeddings and
 * overrides, U+2066–2069 isolates, U+200B–200F zero-width and marks, U+FEFF, U+00AD, tags…) and
 * the line/paragraph separators U+2028/2029 (Zl/Zp, not Cf): they make "gpa.apk" read as
 * "kpa.exe" on a share page or in a save dialog, or hide text, so a name that holds one is refused.
 */
const INVISIBLE_CHAR = /[\p{Cf}\p{Zl}\p{Zp}]/u;

/** "U+202E, U+200B": the distinct code points of `s` that `pattern` matches, three at most. */
function codePointsMatching(s: string, pattern: RegExp): string {
  const found = [...new Set(s.match(new RegExp(pattern.source, "gu")) ?? [])].slice(0, 3);
  return found.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`).join(", ");
}

/**
 * Names arrive from CI scripts and end up in headers, HTML and save dialogs. A string that is not
 * well-formed UTF-16 cannot be encoded as UTF-8 at all (the download would fail), so it is refused
 * before anything else. The rest of the rules apply to the NFC form, which is what is stored and
 * compared at complete: "é" typed as e + U+0301 (NFD, as macOS file systems produce) and as
 * U+00E9 are the same name.
 */
export const FileName = z.pipe(
  z.string().check(
    z.refine((n) => !LONE_SURROGATE.test(n), {
      error: (issue) => `must be well-formed Unicode (unpaired surrogate ${codePointsMatching(String(issue.input), LONE_SURROGATE)})`,
      abort: true,
    }),
  ),
  z.transform((n) => n.normalize("NFC")),
).check(
  z.minLength(1, "must not be empty"),
  z.maxLength(255, "must be at most 255 characters"),
  z.refine((n) => !/[/\\]/.test(n), "must not contain path separators"),
  z.refine((n) => !CONTROL_CHARS.test(n), "must not contain control characters"),
  z.refine((n) => !INVISIBLE_CHAR.test(n), {
    error: (issue) =>
      `must not contain invisible or bidirectional control characters (${codePointsMatching(String(issue.input), INVISIBLE_CHAR)})`,
  }),
  z.refine((n) => /\.(apk|ipa)$/i.test(n), "must end in .apk or .ipa"),
);
export type FileName = z.infer<typeof FileName>;

/** Media types are case-insensitive (RFC 9110); we compare and store them lower-cased. */
export const FileType = z.pipe(
  z.string().check(z.minLength(1, "must not be empty"), z.maxLength(255, "must be at most 255 characters")),
  z.transform((t) => t.trim().toLowerCase()),
);
export type FileType = z.infer<typeof FileType>;

/**
 * Any size past the maximum, however absurd, gets the use case's one 413 (the bound is
 * configurable, so it cannot live here). JSON numbers beyond ~1.8e308 parse as Infinity, which
 * z.number() refuses as a wrong type: they become the largest finite number first. Every finite
 * number at or above 2^53 is an integer, so 1e300 and 2^60 pass the integer check and meet the 413.
 */
export const FileSize = z.pipe(
  z.transform((v: unknown) => (v === Infinity ? Number.MAX_VALUE : v === -Infinity ? -Number.MAX_VALUE : v)),
  z.number({ error: "must be an integer" }).check(
    z.refine((n) => Number.isInteger(n), "must be an integer"),
    z.minimum(1, "must be at least 1"),
  ),
);
export type FileSize = z.infer<typeof FileSize>;

export const Presign = z.object({
  fileName: FileName,
  fileSize: FileSize,
  fileType: FileType,
});
export type Presign = z.infer<typeof Presign>;

/**
 * Free text shown on the share page (release notes, branch, commit): the same Unicode hygiene as
 * file names (well-formed, NFC, no bidirectional or invisible controls), without the extension rule.
 * Notes may span lines (\n and \t pass); the one-line fields refuse every control character.
 */
const DisplayText = (max: number, multiline: boolean) =>
  z.pipe(
    z.string().check(
      z.refine((n) => !LONE_SURROGATE.test(n), {
        error: (issue) => `must be well-formed Unicode (unpaired surrogate ${codePointsMatching(String(issue.input), LONE_SURROGATE)})`,
        abort: true,
      }),
    ),
    z.transform((n) => n.normalize("NFC").replace(/\r\n?/g, "\n")),
  ).check(
    z.maxLength(max, `must be at most ${max} characters`),
    z.refine((n) => !(multiline ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/ : CONTROL_CHARS).test(n), "must not contain control characters"),
    z.refine((n) => !INVISIBLE_CHAR.test(n), {
      error: (issue) =>
        `must not contain invisible or bidirectional control characters (${codePointsMatching(String(issue.input), INVISIBLE_CHAR)})`,
    }),
  );

/** Where the build came from, as the CI told it; only http(s) URLs (a javascript: URL would become a link). */
const CiUrl = z.string().check(
  z.maxLength(2048, "must be at most 2048 characters"),
  z.refine((u) => {
    try {
      const url = new URL(u);
      return (url.protocol === "https:" || url.protocol === "http:") && !CONTROL_CHARS.test(u);
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL"),
);

export const Complete = z.object({
  key: z.string().check(z.minLength(1, "must not be empty"), z.maxLength(1024, "must be at most 1024 characters")),
  fileName: FileName,
  fileSize: FileSize,
  fileType: FileType,
  // Optional build context (shown on the share page); the four fields above stay enough.
  releaseNotes: z.optional(DisplayText(5000, true)),
  branch: z.optional(DisplayText(255, false)),
  commit: z.optional(DisplayText(64, false)),
  ciUrl: z.optional(CiUrl),
});
export type Complete = z.infer<typeof Complete>;

export interface PresignResult {
  fileId: string;
  key: string;
  uploadUrl: string;
  expireAt: string;
}

export interface CompleteResult {
  message: string;
  fileId: string;
  userKey: string;
  downloadUrl: string;
  shareUrl: string;
  metadata: Record<string, unknown> & { appName: string; bundleId: string; version: string };
}
