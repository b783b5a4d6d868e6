import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { inspectApk } from "../../src/apk";
import { createInspectContext } from "../../src/inspect-context";
import { InspectError } from "../../src/inspect-result";
import type { InspectErrorCode } from "../../src/inspect-result";
import { TYPE, buildArsc, resId } from "./helpers/arsc-builder";
import type { TypeSpec } from "./helpers/arsc-builder";
import { ANDROID_NS, Attr, buildAxml, buildManifest, manifestTree, sampleManifest as base } from "./helpers/axml-builder";
import { T } from "./helpers/encode";
import { memoryZip, testContext } from "./helpers/memory-zip";

const S = TYPE.string;
const M = TYPE.mipmap;
const ref = (type: number, index: number) => ({ type: T.REFERENCE, data: resId(type, index) });

function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, deflateSync(Buffer.alloc(8))]);
}

async function inspect(files: Record<string, Buffer | string>, ctx = testContext()) {
  return inspectApk(memoryZip(files), ctx);
}

async function inspectError(files: Record<string, Buffer | string>): Promise<InspectError> {
  try {
    await inspect(files);
  } catch (error) {
    if (error instanceof InspectError) return error;
    throw error;
  }
  throw new Error("expected an InspectError");
}

async function expectCode(files: Record<string, Buffer | string>, code: InspectErrorCode, message: RegExp) {
  const error = await inspectError(files);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(message);
}

const localizedStrings: TypeSpec[] = [
  {
    typeId: S,
    entries: [
      { index: 0, key: "app_name", string: "Hangar" },
      { index: 1, key: "version_name", string: "2.0 (β) 日本語" },
      { index: 2, key: "code", type: T.INT_HEX, data: 0x2a },
    ],
  },
  { typeId: S, config: { language: "fr" }, entries: [{ index: 0, key: "app_name", string: "Hangar FR" }] },
  { typeId: S, config: { language: "zh", region: "CN" }, entries: [{ index: 0, key: "app_name", string: "机库" }] },
  { typeId: S, config: { language: "sr", script: "Latn" }, entries: [{ index: 0, key: "app_name", string: "Hangar SR" }] },
  { typeId: S, config: { language: "de" }, entries: [{ index: 1, key: "version_name", string: "not the label" }] },
];

describe("inspectApk", () => {
  it("reads literal values", async () => {
    const result = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, permissions: ["a.P1", "a.P2", "a.P1"] }),
    });
    expect(result).toMatchObject({
      platform: "android",
      appName: "My App",
      bundleId: "com.example.app",
      version: "1.0.4 [BETA]",
      buildNumber: "42",
      minOs: "21",
      targetSdk: "34",
      permissions: ["a.P1", "a.P2"],
      labels: { "": "My App" },
      locales: [],
      warnings: [],
    });
    expect(result.icon).toBeUndefined();
  });

  it("resolves @string label and versionName, per locale, and lists every locale", async () => {
    const result = await inspect({
      "AndroidManifest.xml": buildManifest({
        ...base,
        label: { type: T.REFERENCE, data: resId(S, 0) },
        versionName: { type: T.REFERENCE, data: resId(S, 1) },
        versionCode: { type: T.REFERENCE, data: resId(S, 2) },
      }),
      "resources.arsc": buildArsc({ types: localizedStrings }),
    });
    expect(result.appName).toBe("Hangar");
    expect(result.version).toBe("2.0 (β) 日本語");
    expect(result.buildNumber).toBe("42");
    expect(result.labels).toEqual({ "": "Hangar", fr: "Hangar FR", "zh-CN": "机库", "b+sr+Latn": "Hangar SR" });
    expect(result.locales).toEqual(["b+sr+Latn", "de", "fr", "zh-CN"]);
    expect(result.warnings).toEqual([]);
  });

  it.each([
    [{ type: T.INT_HEX, data: 0x2a }, "42"],
    [{ type: T.INT_DEC, data: 0xffffffff }, "-1"],
    [{ string: "0x10" }, "16"],
    [{ string: " 77 " }, "77"],
  ])("gives versionCode %j as the decimal %s", async (versionCode, expected) => {
    const result = await inspect({ "AndroidManifest.xml": buildManifest({ ...base, versionCode }) });
    expect(result.buildNumber).toBe(expected);
  });

  it("says so when versionCode is not a number or absent (Android's 0)", async () => {
    const bad = await inspect({ "AndroidManifest.xml": buildManifest({ ...base, versionCode: { string: "one" } }) });
    expect(bad.buildNumber).toBe("0");
    expect(bad.warnings.join()).toMatch(/versionCode is not an integer/);
    const { versionCode: _omitted, ...rest } = base;
    const absent = await inspect({ "AndroidManifest.xml": buildManifest(rest) });
    expect(absent.buildNumber).toBe("0");
    expect(absent.warnings.join()).toMatch(/no versionCode/);
  });

  it("coerces a non-string versionName like Android's TypedArray.getString", async () => {
    const int = await inspect({ "AndroidManifest.xml": buildManifest({ ...base, versionName: { type: T.INT_DEC, data: 3 } }) });
    expect(int.version).toBe("3");
    const float = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, versionName: { type: T.FLOAT, data: 0x3fc00000 } }),
    });
    expect(float.version).toBe("1.5");
  });

  it("keeps version a string: empty with a warning when versionName is absent or unresolvable", async () => {
    const { versionName: _omitted, ...rest } = base;
    const absent = await inspect({ "AndroidManifest.xml": buildManifest(rest) });
    expect(absent.version).toBe("");
    expect(absent.warnings.join()).toMatch(/no versionName/);
    const dangling = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, versionName: { type: T.REFERENCE, data: resId(S, 9) } }),
    });
    expect(dangling.version).toBe("");
    expect(dangling.warnings.join()).toMatch(/versionName could not be read .*without resources.arsc/);
  });

  it("reads SDK codenames, defaults targetSdk to minSdk and minSdk to 1", async () => {
    const codename = await inspect({ "AndroidManifest.xml": buildManifest({ ...base, minSdk: "Tiramisu", targetSdk: undefined }) });
    expect(codename.minOs).toBe("Tiramisu");
    expect(codename.targetSdk).toBe("Tiramisu");
    const none = await inspect({ "AndroidManifest.xml": buildManifest({ ...base, minSdk: undefined, targetSdk: undefined }) });
    expect(none.minOs).toBe("1");
    expect(none.targetSdk).toBeUndefined();
  });

  it("falls back to the English label when there is no default one, with a warning", async () => {
    const result = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, label: { type: T.REFERENCE, data: resId(S, 0) } }),
      "resources.arsc": buildArsc({
        types: [
          { typeId: S, config: { language: "fr" }, entries: [{ index: 0, key: "app_name", string: "Sans défaut" }] },
          { typeId: S, config: { language: "en", region: "GB" }, entries: [{ index: 0, key: "app_name", string: "No default" }] },
        ],
      }),
    });
    expect(result.appName).toBe("No default");
    expect(result.labels).toEqual({ fr: "Sans défaut", "en-GB": "No default" });
    expect(result.warnings.join()).toMatch(/no default .* "en-GB" label/);
  });

  it("falls back to the first localized label when there is no English one either", async () => {
    const result = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, label: { type: T.REFERENCE, data: resId(S, 0) } }),
      "resources.arsc": buildArsc({
        types: [
          { typeId: S, config: { language: "fr" }, entries: [{ index: 0, key: "app_name", string: "Français" }] },
          { typeId: S, config: { language: "de" }, entries: [{ index: 0, key: "app_name", string: "Deutsch" }] },
        ],
      }),
    });
    expect(result.appName).toBe("Deutsch");
    expect(result.warnings.join()).toMatch(/"de" label/);
  });

  it("uses the package name, with a warning, when the label is absent, looping or unreadable", async () => {
    const absent = await inspect({ "AndroidManifest.xml": buildManifest({ ...base, label: undefined }) });
    expect(absent.appName).toBe("com.example.app");
    expect(absent.warnings.join()).toMatch(/no application label/);

    const looping = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, label: { type: T.REFERENCE, data: resId(S, 0) } }),
      "resources.arsc": buildArsc({
        types: [{ typeId: S, entries: [{ index: 0, key: "app_name", type: T.REFERENCE, data: resId(S, 0) }] }],
      }),
    });
    expect(looping.appName).toBe("com.example.app");
    expect(looping.warnings.join()).toMatch(/reference loop through @string\/app_name/);

    const garbage = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, label: { type: T.REFERENCE, data: resId(S, 0) } }),
      "resources.arsc": Buffer.from("not a resource table at all"),
    });
    expect(garbage.appName).toBe("com.example.app");
    expect(garbage.version).toBe("1.0.4 [BETA]");
    expect(garbage.warnings.join()).toMatch(/resources.arsc is unreadable/);
  });

  it("refuses split APKs, App Bundles, APK sets and archives without a manifest", async () => {
    await expectCode({ "AndroidManifest.xml": buildManifest({ ...base, split: "config.xxhdpi" }) }, "unsupported_bundle", /split APK/);
    await expectCode({ "base/manifest/AndroidManifest.xml": Buffer.from([0x0a, 0x02]) }, "unsupported_bundle", /App Bundle/);
    await expectCode({ "toc.pb": "x", "splits/base-master.apk": "x" }, "unsupported_bundle", /split APKs/);
    await expectCode({ "classes.dex": "x" }, "not_an_apk", /no AndroidManifest.xml/);
  });

  it("refuses manifests that are not binary XML, saying what they are", async () => {
    await expectCode(
      { "AndroidManifest.xml": '\uFEFF<?xml version="1.0"?>\n<manifest package="a.b"/>' },
      "manifest_unreadable",
      /plain-text XML/,
    );
    await expectCode(
      { "AndroidManifest.xml": Buffer.from([0x0a, 0x30, 0x0a, 0x07, 0x61, 0x6e, 0x64, 0x72, 0x6f, 0x69, 0x64]) },
      "manifest_unreadable",
      /protobuf/,
    );
    await expectCode({ "AndroidManifest.xml": Buffer.alloc(3) }, "manifest_unreadable", /not readable binary XML/);
    await expectCode(
      { "AndroidManifest.xml": buildAxml({ name: "application", attrs: [{ name: "package", string: "a.b" }] }) },
      "manifest_unreadable",
      /root element is <application>/,
    );
    await expectCode({ "AndroidManifest.xml": buildManifest({ ...base, package: undefined }) }, "manifest_unreadable", /no package name/);
  });

  it("warns when the APK is a base that needs its splits to install", async () => {
    const tree = manifestTree(base);
    const application = tree.children?.find((c) => c.name === "application");
    application?.attrs?.push({ ns: ANDROID_NS, name: "isSplitRequired", resId: 0x01010591, type: T.BOOLEAN, data: 0xffffffff });
    const result = await inspect({ "AndroidManifest.xml": buildAxml(tree) });
    expect(result.appName).toBe("My App");
    expect(result.warnings.join()).toMatch(/isSplitRequired/);
  });

  it("warns about a damaged manifest but still reads it", async () => {
    const xml = buildManifest(base);
    xml.writeUInt32LE(xml.length + 100, 4);
    const result = await inspect({ "AndroidManifest.xml": xml });
    expect(result.bundleId).toBe("com.example.app");
    expect(result.warnings.join()).toMatch(/damaged/);
  });

  it("reads attributes whose names were obfuscated away", async () => {
    const result = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, permissions: ["a.P"], attributeName: () => "" }),
    });
    expect(result).toMatchObject({ appName: "My App", version: "1.0.4 [BETA]", buildNumber: "42", minOs: "21", permissions: ["a.P"] });
  });

  it("reads only the manifest, resources.arsc and the chosen icon", async () => {
    const zip = memoryZip({
      "AndroidManifest.xml": buildManifest({ ...base, icon: ref(M, 0) }),
      "resources.arsc": buildArsc({
        types: [
          { typeId: M, config: { density: 160 }, entries: [{ index: 0, key: "ic_launcher", string: "res/mipmap-mdpi/ic_launcher.png" }] },
          { typeId: M, config: { density: 640 }, entries: [{ index: 0, key: "ic_launcher", string: "res/mipmap-xxxhdpi/ic_launcher.png" }] },
          { typeId: M, config: { density: 240 }, entries: [{ index: 0, key: "ic_launcher", string: "res/mipmap-hdpi/ic_launcher.png" }] },
        ],
      }),
      "res/mipmap-mdpi/ic_launcher.png": png(48, 48),
      "res/mipmap-hdpi/ic_launcher.png": png(72, 72),
      "res/mipmap-xxxhdpi/ic_launcher.png": png(192, 192),
      "classes.dex": Buffer.alloc(1000),
    });
    const result = await inspectApk(zip, testContext());
    expect(result.icon).toMatchObject({ path: "res/mipmap-xxxhdpi/ic_launcher.png", width: 192, height: 192 });
    expect(zip.reads).toEqual(["AndroidManifest.xml", "resources.arsc", "res/mipmap-xxxhdpi/ic_launcher.png"]);
  });

  it("honours the entry size limit for the manifest", async () => {
    const error = await inspectApk(
      memoryZip({ "AndroidManifest.xml": buildManifest(base) }),
      testContext({ maxEntryBytes: 100 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InspectError);
    expect((error as InspectError).code).toBe("too_large");
  });

  it("stops with a timeout inside a large manifest once the deadline has passed", async () => {
    let clock = 0;
    const ctx = createInspectContext({ timeBudgetMs: 1000 }, () => clock);
    const permissions = Array.from({ length: 2000 }, (_, i) => `p.P${i}`);
    const xml = buildManifest({ ...base, permissions });
    clock = 5000;
    const error = await inspectApk(memoryZip({ "AndroidManifest.xml": xml }), ctx).catch((e: unknown) => e);
    expect((error as InspectError).code).toBe("timeout");
  });
});

describe("inspectApk icons", () => {
  const adaptive = buildAxml({
    name: "adaptive-icon",
    children: [
      { name: "background", attrs: [{ ns: ANDROID_NS, name: "drawable", resId: 0x01010199, type: T.REFERENCE, data: 0x0106000b }] },
      { name: "foreground", attrs: [{ ns: ANDROID_NS, name: "drawable", resId: 0x01010199, type: T.REFERENCE, data: resId(M, 1) }] },
    ],
  });
  const manifest = buildManifest({ ...base, icon: ref(M, 0) });

  it("prefers a PNG variant of an adaptive icon resource", async () => {
    const result = await inspect({
      "AndroidManifest.xml": manifest,
      "resources.arsc": buildArsc({
        types: [
          { typeId: M, config: { density: 0xfffe, sdk: 26 }, entries: [{ index: 0, key: "ic_launcher", string: "res/mipmap-anydpi-v26/ic_launcher.xml" }] },
          { typeId: M, config: { density: 480, sdk: 4 }, entries: [{ index: 0, key: "ic_launcher", string: "res/mipmap-xxhdpi-v4/ic_launcher.png" }] },
        ],
      }),
      "res/mipmap-anydpi-v26/ic_launcher.xml": adaptive,
      "res/mipmap-xxhdpi-v4/ic_launcher.png": png(144, 144),
    });
    expect(result.icon).toMatchObject({ path: "res/mipmap-xxhdpi-v4/ic_launcher.png", width: 144 });
    expect(result.warnings).toEqual([]);
  });

  it("finds a PNG of the same name in another folder, else uses the foreground layer, else warns", async () => {
    const arsc = buildArsc({
      types: [
        {
          typeId: M,
          config: { density: 0xfffe, sdk: 26 },
          entries: [
            { index: 0, key: "ic_launcher", string: "res/mipmap-anydpi-v26/ic_launcher.xml" },
            { index: 1, key: "ic_fg", string: "res/mipmap-xxxhdpi/ic_fg.png" },
          ],
        },
      ],
    });
    const sameName = await inspect({
      "AndroidManifest.xml": manifest,
      "resources.arsc": arsc,
      "res/mipmap-anydpi-v26/ic_launcher.xml": adaptive,
      "res/mipmap-hdpi/ic_launcher.png": png(72, 72),
      "res/drawable-xhdpi/ic_launcher.png": png(96, 96),
      "res/mipmap-xxxhdpi/ic_fg.png": png(432, 432),
    });
    expect(sameName.icon?.path).toBe("res/drawable-xhdpi/ic_launcher.png");

    const foreground = await inspect({
      "AndroidManifest.xml": manifest,
      "resources.arsc": arsc,
      "res/mipmap-anydpi-v26/ic_launcher.xml": adaptive,
      "res/mipmap-xxxhdpi/ic_fg.png": png(432, 432),
    });
    expect(foreground.icon).toMatchObject({ path: "res/mipmap-xxxhdpi/ic_fg.png", width: 432 });
    expect(foreground.warnings.join()).toMatch(/foreground layer/);

    const nothing = await inspect({
      "AndroidManifest.xml": manifest,
      "resources.arsc": arsc,
      "res/mipmap-anydpi-v26/ic_launcher.xml": Buffer.from("garbage"),
    });
    expect(nothing.icon).toBeUndefined();
    expect(nothing.warnings.join()).toMatch(/XML drawable .* no PNG/);
  });

  it("skips an icon that is not a PNG or too large, with a warning", async () => {
    const arsc = buildArsc({
      types: [
        { typeId: M, config: { density: 640 }, entries: [{ index: 0, key: "ic", string: "res/a.png" }] },
        { typeId: M, config: { density: 480 }, entries: [{ index: 0, key: "ic", string: "res/b.png" }] },
        { typeId: M, config: { density: 160 }, entries: [{ index: 0, key: "ic", string: "res/c.png" }] },
      ],
    });
    const result = await inspect(
      {
        "AndroidManifest.xml": manifest,
        "resources.arsc": arsc,
        "res/a.png": Buffer.from("JFIF not a png"),
        "res/b.png": Buffer.concat([png(1, 1), Buffer.alloc(20_000)]),
        "res/c.png": png(48, 48),
      },
      testContext({ maxEntryBytes: 10_000 }),
    );
    expect(result.icon?.path).toBe("res/c.png");
    expect(result.warnings.join("\n")).toMatch(/res\/a.png is not a PNG/);
    expect(result.warnings.join("\n")).toMatch(/res\/b.png was skipped/);
  });

  it("follows an icon alias and ignores the android: namespace id of a literal icon", async () => {
    const alias = await inspect({
      "AndroidManifest.xml": manifest,
      "resources.arsc": buildArsc({
        types: [
          { typeId: M, entries: [{ index: 0, key: "ic_launcher", type: T.REFERENCE, data: resId(TYPE.drawable, 0) }] },
          { typeId: TYPE.drawable, config: { density: 320 }, entries: [{ index: 0, key: "icon", string: "res/drawable-xhdpi/icon.png" }] },
        ],
      }),
      "res/drawable-xhdpi/icon.png": png(96, 96),
    });
    expect(alias.icon?.path).toBe("res/drawable-xhdpi/icon.png");

    const literal = await inspect({
      "AndroidManifest.xml": buildManifest({ ...base, icon: { ns: ANDROID_NS, name: "icon", resId: Attr.icon, string: "res/x.png" } }),
    });
    expect(literal.icon).toBeUndefined();
    expect(literal.warnings.join()).toMatch(/icon could not be resolved/);
  });
});
