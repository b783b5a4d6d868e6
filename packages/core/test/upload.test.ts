import { beforeEach, describe, expect, it } from "vitest";
import {
  ConflictError,
  InvalidPackageError,
  NotFoundError,
  PayloadTooLargeError,
  Presign,
  UnsupportedMediaTypeError,
  ValidationError,
  completeUpload,
  defaultUploadSettings,
  parseInput,
  presignUpload,
  safeObjectName,
  type CompleteResult,
} from "../src";
import { FakeInspector, MemoryFiles, MemoryStorage, apiKey, fixedClock, sequentialIds } from "./support/fakes";

const links = { publicBaseUrl: "https://api.test", shareBaseUrl: "https://share.test" };
const metadata = { appName: "Demo", bundleId: "com.example.demo", version: "1.0.4 [BETA]", platform: "android" as const };

function setup() {
  const files = new MemoryFiles();
  const storage = new MemoryStorage();
  const inspector = new FakeInspector({ metadata, icon: new Uint8Array([137, 80, 78, 71]) });
  const clock = fixedClock();
  const deps = { files, storage, signer: storage, inspector, clock, ids: sequentialIds(), settings: defaultUploadSettings };
  return { files, storage, inspector, clock, deps };
}

const presignInput = { fileName: "My App (β).apk", fileSize: 1234, fileType: "application/vnd.android.package-archive" };

describe("presign", () => {
  it("records a pending upload and signs a 15-minute PUT of the declared size", async () => {
    const { deps, files, storage } = setup();
    const result = await presignUpload(deps, apiKey(), parseInput(Presign, presignInput));
    expect(result.key).toBe(`uploads/prj_A/${result.fileId}/My_App.apk`);
    expect(result.expireAt).toBe("2026-11-21T23:15:00.000Z");
    expect(storage.presigned).toEqual([
      { key: result.key, size: 1234, contentType: "application/octet-stream", expiresInSeconds: 900 },
    ]);
    const record = files.records.get(result.fileId)!;
    expect(record).toMatchObject({ status: "pending", projectId: "prj_A", clientId: "hgr_client1", fileName: "My App (β).apk", fileSize: 1234 });
    expect(record.expiresAt).toBe(Date.parse("2026-11-21T23:00:00Z") / 1000 + 24 * 3600);
  });

  it.each([
    [{ ...presignInput, fileName: "" }, "fileName"],
    [{ ...presignInput, fileName: "a/b.apk" }, "fileName"],
    [{ ...presignInput, fileName: "a\\b.apk" }, "fileName"],
    [{ ...presignInput, fileName: "evil\u0000.apk" }, "fileName"],
    [{ ...presignInput, fileName: "x".repeat(252) + ".apk" }, "fileName"],
    [{ ...presignInput, fileName: "app.zip" }, "fileName"],
    [{ ...presignInput, fileSize: 0 }, "fileSize"],
    [{ ...presignInput, fileSize: 1.5 }, "fileSize"],
    [{ ...presignInput, fileSize: "12" }, "fileSize"],
    [{ fileName: "a.apk", fileType: "application/octet-stream" }, "fileSize"],
  ])("rejects %j naming %s", (input, field) => {
    try {
      parseInput(Presign, input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    }
  });

  it("accepts upper-case extensions and media types in any case", () => {
    expect(parseInput(Presign, { ...presignInput, fileName: "A.APK", fileType: "Application/Octet-Stream" }).fileType).toBe(
      "application/octet-stream",
    );
  });

  it("refuses other media types with 415, and the APK type on an .ipa", async () => {
    const { deps } = setup();
    for (const [fileName, fileType] of [
      ["a.apk", "application/zip"],
      ["a.ipa", "application/vnd.android.package-archive"],
    ]) {
      await expect(presignUpload(deps, apiKey(), parseInput(Presign, { fileName, fileType, fileSize: 1 }))).rejects.toMatchObject({
        code: "unsupported_file_type",
        constructor: UnsupportedMediaTypeError,
      });
    }
  });

  it("refuses sizes above the configured maximum with 413 and writes nothing", async () => {
    const { deps, files } = setup();
    const settings = { ...defaultUploadSettings, maxFileSize: 1000 };
    await expect(presignUpload({ ...deps, settings }, apiKey(), parseInput(Presign, presignInput))).rejects.toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect(files.records.size).toBe(0);
  });

  it("accepts exactly the maximum size and refuses one byte more", async () => {
    const { deps, files, storage } = setup();
    const settings = { ...defaultUploadSettings, maxFileSize: 1234 };
    const atMax = await presignUpload({ ...deps, settings }, apiKey(), parseInput(Presign, presignInput));
    expect(storage.presigned).toEqual([expect.objectContaining({ key: atMax.key, size: 1234 })]);
    const over = await presignUpload({ ...deps, settings }, apiKey(), parseInput(Presign, { ...presignInput, fileSize: 1235 })).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(PayloadTooLargeError);
    expect(over).toMatchObject({ code: "file_too_large", details: { maxFileSize: 1234 } });
    expect([...files.records.values()].map((r) => r.fileSize)).toEqual([1234]);
  });

  it("never puts the raw name into the key", () => {
    expect(safeObjectName("../../etc/passwd.ipa")).toBe("etc_passwd.ipa");
    expect(safeObjectName("日本語.IPA")).toBe("package.ipa");
    expect(safeObjectName(`${"a".repeat(300)}.apk`)).toHaveLength(100);
  });
});

describe("complete", () => {
  let s: ReturnType<typeof setup>;
  let key: string;
  let fileId: string;
  const input = () => ({ key, fileName: presignInput.fileName, fileType: presignInput.fileType, fileSize: presignInput.fileSize });

  beforeEach(async () => {
    s = setup();
    ({ key, fileId } = await presignUpload(s.deps, apiKey(), parseInput(Presign, presignInput)));
  });

  it("answers links and metadata, stores the icon and keeps answering the same", async () => {
    s.storage.objects.set(key, { size: 1234, contentType: "application/octet-stream" });
    const first = await completeUpload(s.deps, apiKey(), input(), links);
    expect(first).toEqual<CompleteResult>({
      message: "Upload completed",
      fileId,
      userKey: first.userKey,
      downloadUrl: `https://api.test/download/${first.userKey}`,
      shareUrl: `https://share.test/share/${first.userKey}`,
      // An APK installs wherever sideloading is allowed: always installable.
      metadata: { ...metadata, installable: true },
      // No history port in these deps: nothing to compare with (test/complete-diff.test.ts has the real one).
      diff: null,
    });
    expect(s.storage.objects.get(`uploads/prj_A/${fileId}/icon.png`)?.contentType).toBe("image/png");
    expect(s.files.records.get(fileId)).toMatchObject({ status: "completed" });
    expect(s.files.records.get(fileId)).not.toHaveProperty("expiresAt");
    expect(await completeUpload(s.deps, apiKey(), input(), links)).toEqual(first);
    expect(s.inspector.calls).toHaveLength(1);
  });

  it("hides other projects' uploads and unknown keys behind the same 404", async () => {
    s.storage.objects.set(key, { size: 1234, contentType: "x" });
    const other = apiKey({ clientId: "hgr_other", projectId: "prj_B" });
    for (const [caller, k] of [
      [other, key],
      [apiKey(), key.replace(fileId, "fil_unknown")],
      [apiKey(), "uploads/../x"],
      [apiKey(), `${key}x`],
    ] as const) {
      await expect(completeUpload(s.deps, caller, { ...input(), key: k }, links)).rejects.toMatchObject({
        constructor: NotFoundError,
        code: "upload_not_found",
      });
    }
  });

  it("treats an expired pending upload as not found", async () => {
    s.storage.objects.set(key, { size: 1234, contentType: "x" });
    s.clock.set("2026-11-23T00:00:00.000Z");
    await expect(completeUpload(s.deps, apiKey(), input(), links)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("names the fields that differ from the presign", async () => {
    await expect(
      completeUpload(s.deps, apiKey(), { ...input(), fileName: "other.apk", fileSize: 99 }, links),
    ).rejects.toMatchObject({
      code: "upload_mismatch",
      details: {
        fields: [
          { field: "fileName", message: expect.any(String) },
          { field: "fileSize", message: expect.any(String) },
        ],
      },
    });
  });

  it("answers object_missing before the PUT and size_mismatch for a wrong-sized object", async () => {
    await expect(completeUpload(s.deps, apiKey(), input(), links)).rejects.toMatchObject({ code: "object_missing" });
    s.storage.objects.set(key, { size: 1000, contentType: "x" });
    await expect(completeUpload(s.deps, apiKey(), input(), links)).rejects.toMatchObject({
      constructor: ConflictError,
      code: "size_mismatch",
    });
    expect(s.files.records.get(fileId)?.status).toBe("pending");
  });

  it("rejects an unreadable package, keeps the object and repeats the same answer", async () => {
    s.storage.objects.set(key, { size: 1234, contentType: "x" });
    s.inspector.outcome = new InvalidPackageError("not_a_zip", "Not a ZIP archive");
    for (let i = 0; i < 2; i++) {
      await expect(completeUpload(s.deps, apiKey(), input(), links)).rejects.toMatchObject({
        code: "invalid_package",
        reason: "not_a_zip",
      });
    }
    expect(s.inspector.calls).toHaveLength(1);
    expect(s.files.records.get(fileId)).toMatchObject({ status: "rejected", rejection: { reason: "not_a_zip" } });
    expect(s.storage.objects.has(key)).toBe(true);
  });

  it("answers with the winner's record when a concurrent complete lands first", async () => {
    s.storage.objects.set(key, { size: 1234, contentType: "x" });
    const winner = { ...s.files.records.get(fileId)!, status: "completed" as const, userKey: "WINNER", metadata, completedAt: "t" };
    s.files.beforeWrite = () => s.files.records.set(fileId, winner);
    const result = await completeUpload(s.deps, apiKey(), input(), links);
    expect(result.userKey).toBe("WINNER");
  });
});
