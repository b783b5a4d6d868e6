import { describe, expect, it } from "vitest";
import { Presign, completeUpload, defaultUploadSettings, parseInput, presignUpload, type CompletedFile, type Uploader } from "../../src";
import { FakeInspector, MemoryFiles, MemoryStorage, apiKey, fixedClock, sequentialIds } from "../support/fakes";

const links = { publicBaseUrl: "https://api.test", shareBaseUrl: "https://share.test" };
const declared = { fileName: "App.apk", fileSize: 1234, fileType: "application/vnd.android.package-archive" };

async function ready() {
  const files = new MemoryFiles();
  const storage = new MemoryStorage();
  const counted: [CompletedFile, Uploader][] = [];
  const deps = {
    files,
    storage,
    signer: storage,
    inspector: new FakeInspector({ metadata: { appName: "A", bundleId: "a.b", version: "1" } }),
    clock: fixedClock(),
    ids: sequentialIds(),
    settings: defaultUploadSettings,
    onCompleted: async (file: CompletedFile, caller: Uploader) => {
      counted.push([file, caller]);
    },
  };
  const { key } = await presignUpload(deps, apiKey(), parseInput(Presign, declared));
  storage.objects.set(key, { size: 1234, contentType: "application/octet-stream" });
  return { deps, counted, input: { ...declared, key } };
}

describe("complete's usage hook", () => {
  it("is told once about the upload this call completed, with its size and the calling key", async () => {
    const { deps, counted, input } = await ready();
    await completeUpload(deps, apiKey(), input, links);
    expect(counted).toHaveLength(1);
    expect(counted[0]![0]).toMatchObject({ status: "completed", fileSize: 1234, projectId: "prj_A" });
    expect(counted[0]![1].clientId).toBe(apiKey().clientId);
    // A repeated complete answers the same and counts nothing more.
    await completeUpload(deps, apiKey(), input, links);
    expect(counted).toHaveLength(1);
  });

  it("is not told about a complete that lost the race to another", async () => {
    const { deps, counted, input } = await ready();
    deps.files.beforeWrite = () => {
      deps.files.beforeWrite = undefined;
      const record = deps.files.records.get([...deps.files.records.keys()][0]!)!;
      deps.files.records.set(record.fileId, { ...record, status: "completed", userKey: "winner12345", metadata: { appName: "A", bundleId: "a.b", version: "1" }, completedAt: "t" });
    };
    await completeUpload(deps, apiKey(), input, links);
    expect(counted).toHaveLength(0);
  });
});
