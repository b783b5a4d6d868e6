import { describe, expect, it } from "vitest";
import { zipToBuffer } from "../fixtures/zip-writer";
import { BufferRangeReader, InspectError, inspectPackage } from "../src";
import type { RandomAccessReader } from "../src";
import { errorCode } from "./helpers/error-code";

const file = (name: string, data = "x") => ({ name, data: Buffer.from(data) });

async function codeFor(entries: { name: string; data: Buffer }[], fileName?: string): Promise<string> {
  const bytes = await zipToBuffer(entries);
  return errorCode(inspectPackage(new BufferRangeReader(bytes), fileName ? { fileName } : {}));
}

describe("inspectPackage dispatch and error codes", () => {
  it("not_a_zip for bytes without a ZIP end record", async () => {
    expect(await errorCode(inspectPackage(new BufferRangeReader(Buffer.alloc(10_000, 0x42))))).toBe("not_a_zip");
    expect(await errorCode(inspectPackage(new BufferRangeReader(Buffer.alloc(0))))).toBe("not_a_zip");
  });

  it("uses the file name only as a hint when the ZIP is neither kind", async () => {
    const entries = [file("readme.txt"), file("lib/thing.jar")];
    expect(await codeFor(entries, "build.apk")).toBe("not_an_apk");
    expect(await codeFor(entries, "Build.IPA")).toBe("not_an_ipa");
    expect(await codeFor(entries)).toBe("not_an_apk");
    expect(await codeFor(entries, "archive.zip")).toBe("not_an_apk");
  });

  it("not_an_ipa for a Payload folder without an app bundle", async () => {
    expect(await codeFor([file("Payload/readme.txt"), file("Payload/Thing.app/Thing")])).toBe("not_an_ipa");
  });

  it("unsupported_bundle for App Bundles, .apks and .xapk", async () => {
    expect(await codeFor([file("base/manifest/AndroidManifest.xml"), file("BundleConfig.pb")], "app.aab")).toBe(
      "unsupported_bundle",
    );
    expect(await codeFor([file("toc.pb"), file("splits/base-master.apk")], "app.apks")).toBe("unsupported_bundle");
    expect(
      await codeFor([file("manifest.json", "{}"), file("com.example.apk"), file("config.arm64_v8a.apk"), file("icon.png")], "app.xapk"),
    ).toBe("unsupported_bundle");
  });

  it("hands ZIPs with a root AndroidManifest.xml to the APK reader", async () => {
    // Not binary XML: the APK reader's own error code proves the dispatch.
    expect(await codeFor([file("AndroidManifest.xml", "garbage manifest")], "x.ipa")).toBe("manifest_unreadable");
  });

  it("wraps unexpected exceptions into InspectError, keeping the cause", async () => {
    const boom = new TypeError("boom");
    const reader: RandomAccessReader = {
      size: 1000,
      stats: { bytesRead: 0, reads: 0 },
      read: async () => {
        throw boom;
      },
      close: async () => {},
    };
    const error = await inspectPackage(reader).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InspectError);
    expect((error as InspectError).cause).toBe(boom);
  });

  it("timeout when a read never answers (stalled network)", async () => {
    const reader: RandomAccessReader = {
      size: 1000,
      stats: { bytesRead: 0, reads: 0 },
      read: () => new Promise<Buffer>(() => {}),
      close: async () => {},
    };
    expect(await errorCode(inspectPackage(reader, { limits: { timeBudgetMs: 50 } }))).toBe("timeout");
  });

  it("timeout when the budget is already spent", async () => {
    const bytes = await zipToBuffer([file("Payload/A.app/Info.plist", "<plist/>")]);
    expect(await errorCode(inspectPackage(new BufferRangeReader(bytes), { limits: { timeBudgetMs: -1 } }))).toBe("timeout");
  });

  it("too_large when an entry passes the configured limit", async () => {
    const big = "<plist>" + " ".repeat(5000) + "</plist>";
    const bytes = await zipToBuffer([file("Payload/A.app/Info.plist", big)]);
    expect(await errorCode(inspectPackage(new BufferRangeReader(bytes), { limits: { maxEntryBytes: 1000 } }))).toBe(
      "too_large",
    );
  });
});
