import { describe, expect, it } from "vitest";
import {
  Complete,
  DependencyError,
  HangarError,
  PayloadTooLargeError,
  Presign,
  ValidationError,
  completeUpload,
  contentDisposition,
  defaultUploadSettings,
  parseInput,
  presignUpload,
} from "../src";
import { dynamoFailure } from "../src/adapters/dynamo/dynamo-errors";
import { FakeInspector, MemoryFiles, MemoryStorage, apiKey, fixedClock, sequentialIds } from "./support/fakes";

const ok = { fileName: "app.apk", fileSize: 1234, fileType: "application/octet-stream" };

/** The issues parseInput raises for `input`, as [field, message] pairs. */
function issuesOf(input: unknown, schema: typeof Presign | typeof Complete = Presign): [string, string][] {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((i) => [i.field, i.message]);
  }
  return [];
}

function setup() {
  const files = new MemoryFiles();
  const storage = new MemoryStorage();
  const metadata = { appName: "Demo", bundleId: "com.example.demo", version: "1.0", platform: "android" as const };
  const deps = {
    files,
    storage,
    // The same memory store signs presign's URLs.
    signer: storage,
    inspector: new FakeInspector({ metadata }),
    clock: fixedClock(),
    ids: sequentialIds(),
    settings: defaultUploadSettings,
  };
  return { files, storage, deps };
}

describe("fileName: well-formed Unicode only", () => {
  it.each(["a\ud800b.apk", "\udfffapp.apk", "app\udbff.ipa", "x\udc00\ud800.apk"])("refuses the lone surrogate in %j", (fileName) => {
    const issues = issuesOf({ ...ok, fileName });
    expect(issues).toHaveLength(1);
    expect(issues[0]![0]).toBe("fileName");
    expect(issues[0]![1]).toMatch(/^must be well-formed Unicode \(unpaired surrogate U\+D[89A-F][0-9A-F]{2}/);
  });

  it("accepts surrogate pairs (emoji, supplementary CJK)", () => {
    expect(parseInput(Presign, { ...ok, fileName: "🚀 app 𠮷.apk" }).fileName).toBe("🚀 app 𠮷.apk");
  });
});

describe("fileName: no invisible or bidirectional characters", () => {
  const refused: [string, string][] = [
    ["\u202e", "U+202E"], // right-to-left override: "gpa.exe" shown for "exe.apk"
    ["\u202a", "U+202A"],
    ["\u2066", "U+2066"],
    ["\u2067", "U+2067"],
    ["\u2068", "U+2068"],
    ["\u2069", "U+2069"],
    ["\u200b", "U+200B"],
    ["\u200c", "U+200C"],
    ["\u200d", "U+200D"],
    ["\u200e", "U+200E"],
    ["\u200f", "U+200F"],
    ["\u2028", "U+2028"],
    ["\u2029", "U+2029"],
    ["\ufeff", "U+FEFF"],
    ["\u00ad", "U+00AD"],
    ["\u061c", "U+061C"],
    ["\u{e0041}", "U+E0041"],
  ];
  it.each(refused)("refuses %j, naming %s", (char, name) => {
    expect(issuesOf({ ...ok, fileName: `my${char}app.apk` })).toEqual([
      ["fileName", `must not contain invisible or bidirectional control characters (${name})`],
    ]);
  });

  it("names each distinct offender, at most three", () => {
    const [[, message]] = issuesOf({ ...ok, fileName: "a\u202eb\u202ec\u200bd\u2066e\u2069.apk" }) as [[string, string]];
    expect(message).toBe("must not contain invisible or bidirectional control characters (U+202E, U+200B, U+2066)");
  });
});

describe("fileName: NFC", () => {
  const nfd = "Cafe\u0301 Bre\u0301sil.apk";
  const nfc = "Caf\u00e9 Br\u00e9sil.apk";

  it("stores the NFC form at presign", async () => {
    const { deps, files } = setup();
    const result = await presignUpload(deps, apiKey(), parseInput(Presign, { ...ok, fileName: nfd }));
    expect(files.records.get(result.fileId)?.fileName).toBe(nfc);
  });

  it.each([
    ["NFC at presign, NFD at complete", nfc, nfd],
    ["NFD at presign, NFC at complete", nfd, nfc],
  ])("completes with %s", async (_, atPresign, atComplete) => {
    const { deps, storage } = setup();
    const { key } = await presignUpload(deps, apiKey(), parseInput(Presign, { ...ok, fileName: atPresign }));
    storage.objects.set(key, { size: ok.fileSize, contentType: "application/octet-stream" });
    const input = parseInput(Complete, { ...ok, key, fileName: atComplete });
    const links = { publicBaseUrl: "https://api.test", shareBaseUrl: "https://share.test" };
    await expect(completeUpload(deps, apiKey(), input, links)).resolves.toMatchObject({ message: "Upload completed" });
  });

  it("applies the length rule to the NFC form", () => {
    // 126 × (e + U+0301) is 252 + ".apk" = 256 UTF-16 units in NFD, 130 in NFC.
    expect(parseInput(Presign, { ...ok, fileName: `${"e\u0301".repeat(126)}.apk` }).fileName).toHaveLength(130);
  });
});

describe("validation messages", () => {
  it("says what a wrong type must be, and 'is required' only when absent", () => {
    expect(issuesOf({ fileName: 5, fileSize: "12", fileType: null })).toEqual([
      ["fileName", "must be a string"],
      ["fileSize", "must be an integer"],
      ["fileType", "must be a string"],
    ]);
    expect(issuesOf({ fileName: ["a.apk"], fileSize: true, fileType: {} })).toEqual([
      ["fileName", "must be a string"],
      ["fileSize", "must be an integer"],
      ["fileType", "must be a string"],
    ]);
    expect(issuesOf({})).toEqual([
      ["fileName", "is required"],
      ["fileSize", "is required"],
      ["fileType", "is required"],
    ]);
    expect(issuesOf({ ...ok, key: 42 }, Complete)).toEqual([["key", "must be a string"]]);
    expect(issuesOf({ ...ok, fileSize: 1.5 })).toEqual([["fileSize", "must be an integer"]]);
    expect(issuesOf({ ...ok, fileSize: 0 })).toEqual([["fileSize", "must be at least 1"]]);
  });

  it("answers every size past the maximum with one 413 message, however large", async () => {
    const { deps, files } = setup();
    const messages = new Set<string>();
    // JSON.parse("1e400") is Infinity: the largest of all sizes.
    for (const fileSize of [4 * 1024 ** 3 + 1, 2 ** 53, 2 ** 53 + 2, 2 ** 60, 1e300, Number.MAX_VALUE, JSON.parse("1e400") as number]) {
      const error = await presignUpload(deps, apiKey(), parseInput(Presign, { ...ok, fileSize })).catch((e: unknown) => e);
      expect(error, String(fileSize)).toBeInstanceOf(PayloadTooLargeError);
      expect(error).toMatchObject({ code: "file_too_large", details: { maxFileSize: defaultUploadSettings.maxFileSize } });
      messages.add((error as Error).message);
    }
    expect([...messages]).toEqual([`fileSize exceeds the maximum of ${defaultUploadSettings.maxFileSize} bytes`]);
    expect(files.records.size).toBe(0);
  });
});

/** mulberry32, so a failing case reproduces from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random strings biased towards what breaks headers: halves of pairs, controls, quotes, marks. */
function hostileString(random: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const pieces = [
    () => String.fromCharCode(0xd800 + Math.floor(random() * 0x800)), // either half, alone
    () => pick(['"', "\\", "'", "%", ";", "*", "(", ")", "=", " ", "/", ".", "\u0000", "\r", "\n", "\u007f", "\u0085"]),
    () => pick(["\u202e", "\u2066", "\u200b", "\u2028", "\ufeff", "\u00ad", "\u{e0041}"]),
    () => pick(["\u0301", "é", "ß", "ǅ", "\ufdfa", "\u2126", "日本", "😀", "𠮷", "\ufffd", "\uffff"]),
    () => String.fromCharCode(Math.floor(random() * 0x10000)),
    () => String.fromCodePoint(Math.floor(random() * 0x110000)),
    () => "abcdefghij".repeat(Math.floor(random() * 60)),
  ];
  const length = random() < 0.1 ? 2000 + Math.floor(random() * 3000) : Math.floor(random() * 40);
  let s = "";
  for (let i = 0; i < length; i++) s += pick(pieces)();
  return s + pick(["", ".apk", ".ipa", ".APK"]);
}

// token = quoted ASCII without " or \ ; ext-value = UTF-8''<attr-chars and %XX> (RFC 6266 / 8187).
const HEADER = /^(attachment|inline); filename="[\x20\x21\x23-\x5b\x5d-\x7e]*"(; filename\*=UTF-8''(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})*)?$/;

describe("Content-Disposition is total", () => {
  it("gives a valid, bounded header for any string (1,000 random hostile names)", () => {
    const random = prng(20261124);
    for (let i = 0; i < 1000; i++) {
      const name = hostileString(random);
      let header = "";
      expect(() => (header = contentDisposition(name, i % 2 ? "inline" : "attachment")), JSON.stringify(name)).not.toThrow();
      expect(header, JSON.stringify(name)).toMatch(HEADER);
      expect(header.length).toBeLessThan(8 * 1024);
      const encoded = /filename\*=UTF-8''(.*)$/.exec(header)?.[1];
      if (encoded !== undefined) {
        const decoded = decodeURIComponent(encoded);
        expect(decoded).not.toMatch(/[\ud800-\udfff]|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
        expect(Array.from(decoded).length).toBeLessThanOrEqual(255);
      }
    }
  });

  it("gives back the exact name for every name presign accepts", () => {
    const random = prng(7);
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const candidate = `${hostileString(random).slice(0, 200)}.ipa`;
      let fileName: string;
      try {
        fileName = parseInput(Presign, { ...ok, fileName: candidate }).fileName;
      } catch {
        continue;
      }
      accepted++;
      const header = contentDisposition(fileName);
      const encoded = /filename\*=UTF-8''(.*)$/.exec(header)?.[1];
      expect(encoded !== undefined ? decodeURIComponent(encoded) : /filename="(.*)"$/.exec(header)?.[1]).toBe(fileName);
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it("cuts very long names but keeps their extension", () => {
    const header = contentDisposition(`${"é".repeat(5000)}.apk`);
    expect(decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(header)![1]!)).toBe(`${"é".repeat(251)}.apk`);
    expect(contentDisposition(`${"a".repeat(1000)}.ipa`)).toBe(`attachment; filename="${"a".repeat(251)}.ipa"`);
  });

  it("never lets a lone surrogate through (once a URIError on every download)", () => {
    expect(contentDisposition("a\ud800b.apk")).toBe(`attachment; filename="a_b.apk"`);
  });
});

describe("DynamoDB failures", () => {
  const sdkError = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`${name} happened`), { name, ...extra });

  it("treats deterministic refusals (item too large, bad request) as bugs, never as retryable outages", () => {
    for (const error of [
      sdkError("ValidationException", { message: "Item size has exceeded the maximum allowed size" }),
      sdkError("SerializationException"),
      sdkError("TransactionCanceledException", { CancellationReasons: [{ Code: "ValidationError" }, { Code: "None" }] }),
    ]) {
      const failure = dynamoFailure("TransactWriteItems(complete)", error);
      expect(failure).not.toBeInstanceOf(HangarError); // the HTTP layer answers 500 internal_error and logs it
      expect(failure.cause).toBe(error);
    }
  });

  it("keeps outages and throttling retryable", () => {
    for (const error of [
      sdkError("ProvisionedThroughputExceededException"),
      sdkError("ThrottlingException"),
      sdkError("InternalServerError"),
      sdkError("TimeoutError"),
      sdkError("TransactionCanceledException", { CancellationReasons: [{ Code: "TransactionConflict" }] }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8000"), { code: "ECONNREFUSED" }),
      "not even an error",
    ]) {
      expect(dynamoFailure("PutItem(file)", error)).toBeInstanceOf(DependencyError);
    }
  });
});
