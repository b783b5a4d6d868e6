// zod/mini: the same validation as zod's chained API at a fifth of the bundle (~18 KB vs ~90 KB
// minified), which every Lambda carries into its cold start.
import * as z from "zod/mini";
import { parseInput } from "../validation/parse-input";
import { DistributeInput } from "../distribution/distribution.schema";
import type { BuildDiff } from "../releases/build-diff";

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

const ObjectKeyField = z.string().check(z.minLength(1, "must not be empty"), z.maxLength(1024, "must be at most 1024 characters"));

export const Complete = z.object({
  key: ObjectKeyField,
  fileName: FileName,
  fileSize: FileSize,
  fileType: FileType,
  // Optional build context (shown on the share page); the four fields above stay enough.
  releaseNotes: z.optional(DisplayText(5000, true)),
  branch: z.optional(DisplayText(255, false)),
  commit: z.optional(DisplayText(64, false)),
  ciUrl: z.optional(CiUrl),
  // Hangar's extension (README "Send the build to testers"): the build goes to these groups and
  // addresses once completed, beside the project's default groups.
  distribute: z.optional(DistributeInput),
});
export type Complete = z.infer<typeof Complete>;

/** S3 part numbers run from 1 to 10,000. */
const PartNumber = z.number({ error: "must be an integer from 1 to 10000" }).check(
  z.int("must be an integer from 1 to 10000"),
  z.minimum(1, "must be an integer from 1 to 10000"),
  z.maximum(10_000, "must be an integer from 1 to 10000"),
);
/** A CRC32C is 4 bytes: 8 base64 characters, the last two "==". */
const Crc32c = z.string().check(z.regex(/^[A-Za-z0-9+/]{6}==$/, "must be a base64 CRC32C (4 bytes, e.g. \"yZRlqg==\")"));
/** A CRC32 (ISO-HDLC, zlib's) is 4 bytes too. */
const Crc32 = z.string().check(z.regex(/^[A-Za-z0-9+/]{6}==$/, "must be a base64 CRC32 (4 bytes, e.g. \"NhCmhg==\")"));
const UploadId = z.string().check(z.minLength(1, "must not be empty"), z.maxLength(1024, "must be at most 1024 characters"));

/** Part URLs handed out per request: 1,000 URLs are ~600 KB of JSON, well under a Lambda answer's 6 MB. */
export const MAX_PART_URLS_PER_REQUEST = 1000;

const distinctParts = (parts: { partNumber: number }[]) => new Set(parts.map((p) => p.partNumber)).size === parts.length;

/** Each part names exactly one checksum: the one of the upload's algorithm (checked by the use case). */
const PartChecksum = z
  .object({ partNumber: PartNumber, checksumCRC32C: z.optional(Crc32c), checksumCRC32: z.optional(Crc32) })
  .check(z.refine((p) => (p.checksumCRC32C === undefined) !== (p.checksumCRC32 === undefined), "must give exactly one of checksumCRC32C and checksumCRC32"));
const PartChecksums = z.array(PartChecksum).check(
  z.maxLength(MAX_PART_URLS_PER_REQUEST, `must list at most ${MAX_PART_URLS_PER_REQUEST} parts; ask for the rest later`),
  z.refine(distinctParts, "must not list a part number twice"),
);
export type PartChecksums = z.infer<typeof PartChecksums>;

export const StartMultipart = z.object({
  fileName: FileName,
  fileSize: FileSize,
  fileType: FileType,
  /**
   * The checksum every part carries, fixed for the upload (S3's rule): CRC32C unless given. CRC32
   * for a client with a native CRC32 (Node's zlib.crc32, several GB/s) where CRC32C would be
   * computed in JavaScript (~1 GB/s).
   */
  checksumAlgorithm: z.optional(z.enum(["CRC32C", "CRC32"])),
  /** The parts to presign right away (any, possibly none); the rest through the parts route. */
  partChecksums: z.optional(PartChecksums),
});
export type StartMultipart = z.infer<typeof StartMultipart>;

export const PartUrls = z.object({
  key: ObjectKeyField,
  uploadId: UploadId,
  partChecksums: PartChecksums.check(z.minLength(1, "must list at least one part")),
});
export type PartUrls = z.infer<typeof PartUrls>;

export const AbortMultipart = z.object({ key: ObjectKeyField, uploadId: UploadId });
export type AbortMultipart = z.infer<typeof AbortMultipart>;

/**
 * Complete of a multipart upload: the key, the upload id and every part with the ETag its PUT
 * answered. The name, size and type are known from the start request; sent, they must match.
 */
export const CompleteMultipart = z.object({
  key: ObjectKeyField,
  uploadId: UploadId,
  parts: z
    .array(
      z.object({
        partNumber: PartNumber,
        etag: z.string().check(z.minLength(1, "must not be empty"), z.maxLength(128, "must be at most 128 characters")),
        checksumCRC32C: z.optional(Crc32c),
        checksumCRC32: z.optional(Crc32),
      }),
    )
    .check(
      z.minLength(1, "must list at least one part"),
      z.maxLength(10_000, "must list at most 10000 parts"),
      z.refine(distinctParts, "must not list a part number twice"),
    ),
  fileName: z.optional(FileName),
  fileSize: z.optional(FileSize),
  fileType: z.optional(FileType),
  releaseNotes: Complete.shape.releaseNotes,
  branch: Complete.shape.branch,
  commit: Complete.shape.commit,
  ciUrl: Complete.shape.ciUrl,
  distribute: Complete.shape.distribute,
});
export type CompleteMultipart = z.infer<typeof CompleteMultipart>;

export interface PresignResult {
  fileId: string;
  key: string;
  uploadUrl: string;
  expireAt: string;
}

export interface PartUrl {
  partNumber: number;
  uploadUrl: string;
}

export interface StartMultipartResult {
  fileId: string;
  key: string;
  uploadId: string;
  partSize: number;
  partCount: number;
  /** URLs for the parts whose checksums the request listed, ascending. */
  parts: PartUrl[];
  expireAt: string;
}

export interface PartUrlsResult {
  parts: PartUrl[];
  expireAt: string;
}

export interface CompleteResult {
  message: string;
  fileId: string;
  userKey: string;
  downloadUrl: string;
  shareUrl: string;
  metadata: Record<string, unknown> & { appName: string; bundleId: string; version: string };
  /**
   * What changed from the previous build of the same app (docs/release-safety.md), most severe
   * first; null for a first build. Hangar's addition: the spec's fields are unchanged.
   */
  diff: BuildDiff | null;
}

/**
 * The complete route's body: an `uploadId` makes it a multipart complete, without one it is the
 * spec's complete exactly as before. Parsed with the one schema that applies, so the field names
 * and messages of a refusal are that schema's.
 */
export type CompleteBody = { multipart: false; input: Complete } | { multipart: true; input: CompleteMultipart };
export function parseCompleteBody(raw: unknown): CompleteBody {
  return raw !== null && typeof raw === "object" && "uploadId" in raw
    ? { multipart: true, input: parseInput(CompleteMultipart, raw) }
    : { multipart: false, input: parseInput(Complete, raw) };
}
