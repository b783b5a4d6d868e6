import type { InspectResult, ProvisioningInfo, SigningInfo } from "./inspect-result";

/**
 * Upper bounds on everything extraction answers. A package is written by whoever uploads it: a
 * 1.4 KB IPA can declare a 600 KB CFBundleName, and the service stores metadata in one DynamoDB
 * item (400 KB at most) and shows it on a public page. The limits are far beyond what real apps
 * use (store names are at most ~50 characters, large apps declare ~150 permissions and ~100
 * localizations), so a real package is never cut; a crafted one is cut with a warning that
 * names the field. Lengths count code points, so a cut never splits a surrogate pair.
 */
export const metadataBounds = {
  /** appName and each localized label. */
  nameLength: 256,
  /** Java package names and CFBundleIdentifier; Apple's own limit is 255. */
  bundleIdLength: 255,
  /** version, buildNumber, minOs, targetSdk. */
  versionLength: 256,
  /** Android defines ~400 platform permissions; system apps declare ~300. */
  permissions: 500,
  permissionLength: 256,
  /** Entries of labels and of locales. */
  locales: 200,
  localeLength: 64,
  supportedPlatforms: 16,
  platformLength: 64,
  /** Provisioning profile name, team name, team id and UUID. */
  provisioningLength: 256,
  /** A profile's entitlement keys (Apple defines ~80). */
  entitlements: 200,
  entitlementLength: 256,
  /** Certificate fingerprints: APK signers (Android accepts 10) and a profile's developer certificates. */
  certificates: 100,
  iconPathLength: 512,
  warnings: 50,
  warningLength: 512,
  /**
   * The whole metadata as JSON (UTF-8). The per-field bounds alone allow far more when every
   * character takes 4–6 bytes (emoji, JSON-escaped controls); past this, lists are shortened.
   * The service stores metadata twice (upload and share records), each item under 400 KB.
   */
  totalJsonBytes: 64 * 1024,
} as const;

/** Warnings the bounding itself may add after the total is measured: room kept for them. */
const WARNING_RESERVE_BYTES = 4 * 1024;

// With the u flag a surrogate class matches only unpaired halves.
const LONE_SURROGATES = /[\ud800-\udfff]/gu;

/** Unpaired surrogates (possible in UTF-16 plists) have no UTF-8 form: store U+FFFD instead. */
function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATES, "\ufffd");
}

function cut(s: string, max: number): string {
  // Cheap test first: a string of at most `max` UTF-16 units has at most `max` code points.
  if (s.length <= max) return s;
  const codePoints = Array.from(s);
  return codePoints.length <= max ? s : codePoints.slice(0, max).join("");
}

class Bounder {
  readonly notes: string[] = [];

  text(field: string, value: string, max: number): string {
    const clean = wellFormed(value);
    const bounded = cut(clean, max);
    if (bounded !== clean) this.notes.push(`${field} was cut to ${max} characters (it had ${Array.from(clean).length})`);
    return bounded;
  }

  list(field: string, values: string[], maxEntries: number, maxLength: number): string[] {
    const kept = values.slice(0, maxEntries);
    if (values.length > maxEntries) this.notes.push(`${field}: kept the first ${maxEntries} of ${values.length}`);
    let cutCount = 0;
    const bounded = kept.map((v) => {
      const clean = wellFormed(v);
      const b = cut(clean, maxLength);
      if (b !== clean) cutCount++;
      return b;
    });
    if (cutCount > 0) this.notes.push(`${field}: ${cutCount} longer than ${maxLength} characters cut`);
    return bounded;
  }

  labels(labels: Record<string, string>): Record<string, string> {
    const entries = Object.entries(labels);
    // The default label ("") is the one a reader falls back to: it is kept whatever the order.
    entries.sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : 0));
    if (entries.length > metadataBounds.locales) {
      this.notes.push(`labels: kept ${metadataBounds.locales} of ${entries.length} locales`);
    }
    let cutCount = 0;
    const out = new Map<string, string>();
    for (const [locale, label] of entries.slice(0, metadataBounds.locales)) {
      const key = cut(wellFormed(locale), metadataBounds.localeLength);
      const clean = wellFormed(label);
      const value = cut(clean, metadataBounds.nameLength);
      if (value !== clean || key !== locale) cutCount++;
      // Two locales cut to the same key: the first keeps it.
      if (!out.has(key)) out.set(key, value);
    }
    if (cutCount > 0) {
      this.notes.push(
        `labels: ${cutCount} cut (labels to ${metadataBounds.nameLength} characters, locales to ${metadataBounds.localeLength})`,
      );
    }
    // fromEntries defines own properties, so a "__proto__" locale stays an ordinary key.
    return Object.fromEntries(out);
  }

  provisioning(p: ProvisioningInfo): ProvisioningInfo {
    const max = metadataBounds.provisioningLength;
    const out: ProvisioningInfo = {
      name: this.text("provisioning.name", p.name, max),
      provisionedDevices: p.provisionedDevices,
      kind: p.kind,
      developerCertificateSha256: this.fingerprints("provisioning.developerCertificateSha256", p.developerCertificateSha256),
    };
    if (p.teamId !== undefined) out.teamId = this.text("provisioning.teamId", p.teamId, max);
    if (p.teamName !== undefined) out.teamName = this.text("provisioning.teamName", p.teamName, max);
    if (p.expiresAt !== undefined) out.expiresAt = this.text("provisioning.expiresAt", p.expiresAt, metadataBounds.versionLength);
    if (p.uuid !== undefined) out.uuid = this.text("provisioning.uuid", p.uuid, max);
    if (p.entitlements !== undefined) {
      out.entitlements = this.list("provisioning.entitlements", p.entitlements, metadataBounds.entitlements, metadataBounds.entitlementLength);
    }
    return out;
  }

  signing(s: SigningInfo): SigningInfo {
    return { scheme: s.scheme, certificateSha256: this.fingerprints("signing.certificateSha256", s.certificateSha256) };
  }

  /** Hex digests the extractor computed: only their number needs a bound. */
  private fingerprints(field: string, values: string[]): string[] {
    if (values.length > metadataBounds.certificates) {
      this.notes.push(`${field}: kept the first ${metadataBounds.certificates} of ${values.length}`);
    }
    return values.slice(0, metadataBounds.certificates);
  }
}

/** UTF-8 size of what clients and the service's records receive (the icon's bytes are stored apart). */
function jsonBytes(result: InspectResult): number {
  const { icon, ...rest } = result;
  return Buffer.byteLength(JSON.stringify(icon ? { ...rest, icon: { path: icon.path, width: icon.width, height: icon.height } } : rest));
}

type ListField = "permissions" | "labels" | "locales" | "supportedPlatforms";

function listLength(result: InspectResult, field: ListField): number {
  const value = result[field];
  if (value === undefined) return 0;
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

function shorten(result: InspectResult, field: ListField, keep: number): void {
  if (field === "labels") {
    // Entries keep their order: the default label was put first by Bounder.labels.
    result.labels = Object.fromEntries(Object.entries(result.labels ?? {}).slice(0, keep));
  } else {
    result[field] = (result[field] ?? []).slice(0, keep);
  }
}

/** Halves the list holding the most JSON until the whole fits the byte budget. */
function fitBudget(result: InspectResult, notes: string[]): void {
  const budget = metadataBounds.totalJsonBytes - WARNING_RESERVE_BYTES;
  const before: Partial<Record<ListField | "warnings", number>> = {};
  const fields: ListField[] = ["permissions", "labels", "locales", "supportedPlatforms"];
  while (jsonBytes(result) > budget) {
    const largest = fields
      .filter((f) => listLength(result, f) > 1)
      .sort((a, b) => JSON.stringify(result[b]).length - JSON.stringify(result[a]).length)[0];
    if (largest !== undefined) {
      before[largest] ??= listLength(result, largest);
      shorten(result, largest, Math.floor(listLength(result, largest) / 2));
    } else if (result.warnings.length > 1) {
      before.warnings ??= result.warnings.length;
      result.warnings = result.warnings.slice(0, Math.floor(result.warnings.length / 2));
    } else {
      break; // Cannot happen with the per-field bounds; never loop forever on a surprise.
    }
  }
  for (const [field, count] of Object.entries(before)) {
    const kept = field === "warnings" ? result.warnings.length : listLength(result, field as ListField);
    notes.push(`${field}: kept ${kept} of ${count} to keep the metadata under ${metadataBounds.totalJsonBytes / 1024} KiB`);
  }
}

/**
 * The extractor's answer with every string and list within `metadataBounds` and the whole under
 * `totalJsonBytes` as JSON. What was cut is said in `warnings`, by field name.
 */
export function boundMetadata(result: InspectResult): InspectResult {
  const b = new Bounder();
  const out: InspectResult = {
    platform: result.platform,
    appName: b.text("appName", result.appName, metadataBounds.nameLength),
    bundleId: b.text("bundleId", result.bundleId, metadataBounds.bundleIdLength),
    version: b.text("version", result.version, metadataBounds.versionLength),
    buildNumber: b.text("buildNumber", result.buildNumber, metadataBounds.versionLength),
    minOs: b.text("minOs", result.minOs, metadataBounds.versionLength),
    warnings: [],
  };
  if (result.targetSdk !== undefined) out.targetSdk = b.text("targetSdk", result.targetSdk, metadataBounds.versionLength);
  if (result.permissions !== undefined) {
    out.permissions = b.list("permissions", result.permissions, metadataBounds.permissions, metadataBounds.permissionLength);
  }
  if (result.labels !== undefined) out.labels = b.labels(result.labels);
  if (result.locales !== undefined) {
    out.locales = b.list("locales", result.locales, metadataBounds.locales, metadataBounds.localeLength);
  }
  if (result.supportedPlatforms !== undefined) {
    out.supportedPlatforms = b.list(
      "supportedPlatforms",
      result.supportedPlatforms,
      metadataBounds.supportedPlatforms,
      metadataBounds.platformLength,
    );
  }
  if (result.provisioning !== undefined) out.provisioning = b.provisioning(result.provisioning);
  if (result.signing !== undefined) out.signing = b.signing(result.signing);
  if (result.icon !== undefined) {
    out.icon = { ...result.icon, path: b.text("icon.path", result.icon.path, metadataBounds.iconPathLength) };
  }
  // The extractor's own warnings quote package text (paths, names): they are bounded too, and
  // the bounding's notes come after them so they are never the ones dropped.
  const room = metadataBounds.warnings - b.notes.length;
  out.warnings = result.warnings.slice(0, Math.max(0, room)).map((w) => cut(wellFormed(w), metadataBounds.warningLength));
  if (result.warnings.length > room) b.notes.push(`warnings: kept the first ${Math.max(0, room)} of ${result.warnings.length}`);
  const notes = b.notes;
  fitBudget(out, notes);
  // Bounded and checked by their shape already (mobileprovision.ts), and no part of the metadata
  // (the service stores them apart): outside its JSON budget.
  if (result.provisionedUdids !== undefined) out.provisionedUdids = result.provisionedUdids;
  out.warnings.push(...notes.slice(0, metadataBounds.warnings).map((n) => cut(n, metadataBounds.warningLength)));
  return out;
}
