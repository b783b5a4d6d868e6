import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { basename } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OVERSIZED_NAME_LENGTH, oversizedNameIpa } from "../packages/inspect/fixtures/oversized-metadata";
import { call, complete, db, mediaType, newKey, presign, put, readFixture, stack, upload, type Key, type Reply } from "./support/api";
import { fixtures } from "./support/fixtures";

const PRESIGN = "/api/upload/api-key/presign";
const ok = { fileName: "app.apk", fileSize: 100, fileType: "application/vnd.android.package-archive" };

let key: Key;
beforeAll(async () => {
  key = await newKey();
});

function expectInvalid(reply: Reply, fields: [string, string | RegExp][]) {
  expect(reply.status, reply.text).toBe(400);
  expect(reply.json.error.code).toBe("invalid_request");
  expect(reply.json.error.fields).toEqual(fields.map(([field, message]) => ({ field, message: message instanceof RegExp ? expect.stringMatching(message) : message })));
}

const item = async (pk: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk, sk } }))).Item;

/** The download link, followed to the object store as a browser would. */
async function download(userKey: string): Promise<{ link: Reply; object?: Response }> {
  const link = await call(`/download/${userKey}`);
  if (link.status !== 302) return { link };
  return { link, object: await fetch(link.headers.get("location")!) };
}

describe("fileName must be well-formed, visible Unicode", () => {
  it("answers 400 for a lone surrogate (once accepted, then a 500 on every download)", async () => {
    // JSON.stringify writes the half pair as \ud800: valid JSON, not valid Unicode.
    for (const fileName of ["a\ud800b.apk", "\udc00.ipa"]) {
      expectInvalid(await presign(key, { ...ok, fileName, fileType: "application/octet-stream" }), [
        ["fileName", /^must be well-formed Unicode \(unpaired surrogate U\+D[89A-F][0-9A-F]{2}\)$/],
      ]);
    }
  });

  it("answers 400 naming the invisible or bidirectional character", async () => {
    for (const [char, name] of [
      ["\u202e", "U+202E"],
      ["\u2066", "U+2066"],
      ["\u2069", "U+2069"],
      ["\u200b", "U+200B"],
      ["\u200f", "U+200F"],
      ["\u2028", "U+2028"],
      ["\u2029", "U+2029"],
      ["\ufeff", "U+FEFF"],
    ]) {
      // Sent as raw UTF-8, as a shell script would, not as a JSON escape.
      const raw = `{"fileName":"invoice${char}kpa.apk","fileSize":100,"fileType":"${ok.fileType}"}`;
      const reply = await call(PRESIGN, { key, rawBody: raw, headers: { "Content-Type": "application/json" } });
      expectInvalid(reply, [["fileName", `must not contain invisible or bidirectional control characters (${name})`]]);
    }
  });
});

describe("fileName is compared in NFC", () => {
  const nfc = "Caf\u00e9 \u00e0 Z\u00fcrich.apk";
  const nfd = nfc.normalize("NFD");

  it("stores NFC at presign and completes with the NFD spelling of the same name", async () => {
    const path = fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!;
    const bytes = readFixture(path);
    const presigned = await presign(key, { fileName: nfd, fileSize: bytes.length, fileType: mediaType(nfd) });
    expect(presigned.status, presigned.text).toBe(200);
    const record = await item(`FILE#${presigned.json.fileId}`, "FILE");
    expect(record?.fileName).toBe(nfc);
    expect((await put(presigned.json.uploadUrl, bytes)).status).toBe(200);
    // Presign NFD (stored NFC), complete NFD; then NFC at presign and NFD at complete.
    const first = await complete(key, { fileName: nfd, fileSize: bytes.length, fileType: mediaType(nfd), key: presigned.json.key });
    expect(first.status, first.text).toBe(200);
    const again = await complete(key, { fileName: nfc, fileSize: bytes.length, fileType: mediaType(nfc), key: presigned.json.key });
    expect(again.status, again.text).toBe(200);
    expect(again.json.userKey).toBe(first.json.userKey);

    const other = await presign(key, { fileName: nfc, fileSize: bytes.length, fileType: mediaType(nfc) });
    expect((await put(other.json.uploadUrl, bytes)).status).toBe(200);
    const viaNfd = await complete(key, { fileName: nfd, fileSize: bytes.length, fileType: mediaType(nfd), key: other.json.key });
    expect(viaNfd.status, viaNfd.text).toBe(200);
  });
});

describe("validation messages", () => {
  it("says what a wrong type must be", async () => {
    expectInvalid(await presign(key, { fileName: 42, fileSize: "100", fileType: ["x"] }), [
      ["fileName", "must be a string"],
      ["fileSize", "must be an integer"],
      ["fileType", "must be a string"],
    ]);
    expectInvalid(await presign(key, { fileSize: 100 }), [
      ["fileName", "is required"],
      ["fileType", "is required"],
    ]);
  });

  it("answers every size past the maximum with 413 file_too_large and one message", async () => {
    const replies: Reply[] = [];
    for (const fileSize of ["4294967297", "9007199254740993", String(2 ** 60), "1e300", "1e400"]) {
      // Raw JSON: 2^53 + 1 and 1e400 cannot be written from a JavaScript number.
      const raw = `{"fileName":"app.apk","fileSize":${fileSize},"fileType":"${ok.fileType}"}`;
      replies.push(await call(PRESIGN, { key, rawBody: raw, headers: { "Content-Type": "application/json" } }));
    }
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(413);
      expect(reply.json.error).toEqual({
        code: "file_too_large",
        message: replies[0]!.json.error.message,
        maxFileSize: 4 * 1024 ** 3,
        requestId: reply.headers.get("x-request-id"),
      });
    }
    expect(replies[0]!.json.error.message).toBe(`fileSize exceeds the maximum of ${4 * 1024 ** 3} bytes`);
  });

  it("gives upload_mismatch the same fields shape as invalid_request", async () => {
    const presigned = await presign(key, ok);
    const reply = await complete(key, { ...ok, fileName: "other.apk", fileSize: 101, key: presigned.json.key });
    expect(reply.status).toBe(409);
    expect(reply.json.error.fields).toEqual([
      { field: "fileName", message: expect.any(String) },
      { field: "fileSize", message: expect.any(String) },
    ]);
  });
});

describe("a package whose metadata is larger than a DynamoDB item", () => {
  it("completes with its name cut and a warning, never a 5xx", async () => {
    const bytes = new Uint8Array(await oversizedNameIpa());
    expect(bytes.length).toBeLessThan(4096);
    const { declared, presigned, completed } = await upload(key, "tiny.ipa", bytes);
    expect(completed.status, completed.text.slice(0, 500)).toBe(200);
    const { metadata } = completed.json;
    expect(metadata.appName).toBe("A".repeat(256));
    expect(metadata.warnings).toContain(`appName was cut to 256 characters (it had ${OVERSIZED_NAME_LENGTH})`);
    expect(Buffer.byteLength(completed.text)).toBeLessThan(70 * 1024);

    const record = await item(`FILE#${presigned.json.fileId}`, "FILE");
    expect(record?.status).toBe("completed");
    // Completing again answers the same: the record is settled, not left pending.
    const again = await complete(key, { ...declared, key: presigned.json.key });
    expect(again.status).toBe(200);
    expect(again.json.userKey).toBe(completed.json.userKey);
    expect((await call(`/share/${completed.json.userKey}`)).status).toBe(200);
  });
});

describe("odd names that are accepted", () => {
  const names = [
    'quote "double" and \'single\'.apk',
    "percent %41 %zz; semicolon=1 *(x).apk",
    "emoji 🚀📦 𠮷野家.apk",
    "עברית العربية.apk", // right-to-left letters are fine; only the invisible controls are not
    "e\u0301te\u0301 NFD.apk",
    "\ufdfa expands eighteen times in NFKD.apk",
    "日本語のアプリ".repeat(35) + ".apk", // 249 characters, most of three UTF-8 bytes
    ". leading dot and trailing spaces  .APK",
    "<img src=x onerror=alert(1)>&amp;.apk",
  ];

  it.each(names.map((n) => [n.slice(0, 40), n]))("%s: presign, complete, share and download never 5xx", async (_, fileName) => {
    const path = fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!;
    const bytes = readFixture(path);
    const { completed } = await upload(key, fileName, bytes);
    expect(completed.status, `${basename(path)}: ${completed.text}`).toBe(200);
    expect((await call(`/share/${completed.json.userKey}`)).status).toBe(200);
    const { link, object } = await download(completed.json.userKey);
    expect(link.status).toBe(302);
    expect(object?.status).toBe(200);
    const disposition = object!.headers.get("content-disposition") ?? "";
    const encoded = /filename\*=UTF-8''(.*)$/.exec(disposition)?.[1];
    expect(encoded !== undefined ? decodeURIComponent(encoded) : /filename="(.*)"$/.exec(disposition)?.[1]).toBe(
      fileName.normalize("NFC"),
    );
  });

  it("a record holding a lone surrogate from before the rule still downloads (once a 500)", async () => {
    const path = fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!;
    const { completed } = await upload(key, "legacy.apk", readFixture(path));
    expect(completed.status).toBe(200);
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `SHARE#${completed.json.userKey}`, sk: "SHARE" },
        UpdateExpression: "SET fileName = :name",
        ExpressionAttributeValues: { ":name": "legacy\ud800\u202e.apk" },
      }),
    );
    expect((await item(`SHARE#${completed.json.userKey}`, "SHARE"))?.fileName).toBe("legacy\ud800\u202e.apk");
    const { link, object } = await download(completed.json.userKey);
    expect(link.status, link.text).toBe(302);
    expect(object?.status).toBe(200);
    expect((await call(`/share/${completed.json.userKey}`)).status).toBeLessThan(500);
  });
});
