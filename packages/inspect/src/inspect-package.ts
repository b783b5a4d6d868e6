import { inspectApk } from "./apk";
import { boundMetadata } from "./bound-metadata";
import { createInspectContext, timeoutError } from "./inspect-context";
import type { InspectContext } from "./inspect-context";
import { InspectError, messageOf } from "./inspect-result";
import type { InspectErrorCode, InspectLimits, InspectResult } from "./inspect-result";
import { findAppInfoPlists, inspectIpa } from "./ipa";
import type { RandomAccessReader } from "./reader/random-access-reader";
import { openZip } from "./zip/open-zip";
import type { ZipArchive } from "./zip/zip-archive";

export interface InspectOptions {
  limits?: Partial<InspectLimits>;
  /** The uploaded file's name: only a hint for the error code when the content is neither kind. */
  fileName?: string;
}

type Stage = "zip" | "apk" | "ipa";

/** What an unexpected exception inside a stage most likely means for the caller. */
const STAGE_CODE: Record<Stage, InspectErrorCode> = {
  zip: "zip_corrupt",
  apk: "manifest_unreadable",
  ipa: "plist_unreadable",
};

/**
 * Reads an APK or IPA through `reader` and answers its metadata. Decides by content, not by
 * name. Every failure is an InspectError with a stable code, including bugs a hostile package
 * may trigger in a parser (a RangeError from a bad offset becomes manifest_unreadable, not a
 * 500), and the whole call is bounded by `limits.timeBudgetMs`. Every string and list of the
 * answer is bounded too (`metadataBounds`), with a warning naming what was cut.
 */
export async function inspectPackage(
  reader: RandomAccessReader,
  options: InspectOptions = {},
): Promise<InspectResult> {
  const ctx = createInspectContext(options.limits);
  const stage: { current: Stage } = { current: "zip" };
  let timer: NodeJS.Timeout | undefined;
  // Loops call ctx.checkDeadline(); this catches what they cannot, such as a stalled S3 read.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(timeoutError(ctx.limits)),
      Math.max(0, ctx.deadline - Date.now()),
    );
  });
  try {
    // Bounded here, for every caller alike (the service, `hangar inspect`): see metadataBounds.
    return boundMetadata(await Promise.race([dispatch(reader, ctx, options.fileName, stage), deadline]));
  } catch (error) {
    throw toInspectError(error, STAGE_CODE[stage.current]);
  } finally {
    clearTimeout(timer);
  }
}

async function dispatch(
  reader: RandomAccessReader,
  ctx: InspectContext,
  fileName: string | undefined,
  stage: { current: Stage },
): Promise<InspectResult> {
  const zip = await openZip(reader, ctx);
  const kind = detectKind(zip);
  const hint = extensionOf(fileName);
  if (kind === "apk") {
    if (hint === "ipa") ctx.warnings.push("The file is named .ipa but is an Android APK");
    stage.current = "apk";
    // The APK reader needs both, one after the other; fetched together they cost one round trip.
    zip.prefetch?.(["AndroidManifest.xml", "resources.arsc"]);
    return inspectApk(zip, ctx);
  }
  if (kind === "ipa") {
    if (hint === "apk") ctx.warnings.push("The file is named .apk but is an iOS IPA");
    stage.current = "ipa";
    return inspectIpa(zip, ctx);
  }
  if (kind === "aab") {
    throw new InspectError(
      "unsupported_bundle",
      "This is an Android App Bundle (.aab); upload an APK built from it (bundletool build-apks --mode=universal)",
    );
  }
  if (kind === "split-apks") {
    throw new InspectError(
      "unsupported_bundle",
      "This is a set of split APKs (.apks/.xapk); upload a single universal APK",
    );
  }
  if (kind === "ipa-without-app") {
    throw new InspectError("not_an_ipa", "Payload/ holds no <name>.app/Info.plist: not an installable iOS app");
  }
  if (hint === "ipa") throw new InspectError("not_an_ipa", "The archive has no Payload/<name>.app/Info.plist: not an IPA");
  if (hint === "apk") throw new InspectError("not_an_apk", "The archive has no AndroidManifest.xml at its root: not an APK");
  throw new InspectError(
    "not_an_apk",
    "The archive is neither an APK (no AndroidManifest.xml) nor an IPA (no Payload/<name>.app/Info.plist)",
  );
}

type Kind = "apk" | "ipa" | "aab" | "split-apks" | "ipa-without-app" | "unknown";

export function detectKind(zip: ZipArchive): Kind {
  const { entries } = zip;
  if (entries.has("AndroidManifest.xml")) return "apk";
  if (findAppInfoPlists(entries.keys()).length > 0) return "ipa";
  if (entries.has("base/manifest/AndroidManifest.xml")) return "aab";
  let apks = 0;
  let payload = false;
  for (const name of entries.keys()) {
    if (/\.apk$/i.test(name)) apks++;
    if (name.startsWith("Payload/")) payload = true;
  }
  // .xapk: manifest.json + APKs at the root; .apks (bundletool): toc.pb + splits/*.apk.
  if (apks > 0 && (entries.has("manifest.json") || entries.has("toc.pb") || apks === entries.size || apks > 1)) {
    return "split-apks";
  }
  if (payload) return "ipa-without-app";
  return "unknown";
}

function extensionOf(fileName: string | undefined): "apk" | "ipa" | undefined {
  const ext = fileName?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return ext === "apk" || ext === "ipa" ? ext : undefined;
}

function toInspectError(error: unknown, code: InspectErrorCode): InspectError {
  if (error instanceof InspectError) return error;
  return new InspectError(code, `Unreadable package: ${messageOf(error)}`, { cause: error });
}
