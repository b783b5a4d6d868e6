/** ResTable_config, reduced to what inspection needs: locale, density, and "is it plain". */
export interface ResConfig {
  /** "" (no locale), "fr", "zh-CN", or "b+sr+Latn" when a script or variant is present. */
  locale: string;
  language: string;
  region: string;
  script: string;
  variant: string;
  /** 0 = default, 120..640 dpi, 0xFFFE anydpi, 0xFFFF nodpi. */
  density: number;
  sdkVersion: number;
  /** True when nothing but locale, density and sdkVersion is set (no night mode, orientation…). */
  plain: boolean;
}

export const DENSITY_DEFAULT = 0;
export const DENSITY_ANY = 0xfffe;
export const DENSITY_NONE = 0xffff;

// Offsets inside ResTable_config (it starts with its own uint32 size).
const LANGUAGE = 8;
const COUNTRY = 10;
const DENSITY = 14;
const SDK_VERSION = 24;
const SCRIPT = 36;
const VARIANT = 40;
const SCRIPT_WAS_COMPUTED = 52;
const NUMBERING_SYSTEM = 53;

/**
 * Reads a config of `available` bytes at `pos`. Fields beyond the config's own size are zero,
 * like Android does for configs written by older tools.
 */
export function parseResConfig(buf: Buffer, pos: number, available: number): ResConfig {
  const declared = available >= 4 ? buf.readUInt32LE(pos) : 0;
  const size = Math.max(0, Math.min(declared, available, buf.length - pos));
  const byteAt = (offset: number): number => (offset < size ? (buf[pos + offset] as number) : 0);
  const u16At = (offset: number): number => byteAt(offset) | (byteAt(offset + 1) << 8);
  const charsAt = (offset: number, length: number): string => {
    let out = "";
    for (let i = 0; i < length; i++) {
      const c = byteAt(offset + i);
      if (c === 0) break;
      out += String.fromCharCode(c);
    }
    return out;
  };

  const language = unpackLanguageOrRegion(byteAt(LANGUAGE), byteAt(LANGUAGE + 1), 0x61 /* 'a' */);
  const region = unpackLanguageOrRegion(byteAt(COUNTRY), byteAt(COUNTRY + 1), 0x30 /* '0' */);
  // A script Android filled in itself (localeScriptWasComputed) is not part of the resource's name.
  const script = byteAt(SCRIPT_WAS_COMPUTED) !== 0 ? "" : charsAt(SCRIPT, 4);
  const variant = charsAt(VARIANT, 8);
  const numbering = charsAt(NUMBERING_SYSTEM, 8);

  let plain = true;
  for (let offset = 4; offset < size; offset++) {
    const isLocale =
      (offset >= LANGUAGE && offset < LANGUAGE + 4) ||
      (offset >= SCRIPT && offset < SCRIPT + 12) ||
      (offset >= SCRIPT_WAS_COMPUTED && offset < NUMBERING_SYSTEM + 8);
    const isDensity = offset >= DENSITY && offset < DENSITY + 2;
    const isSdk = offset >= SDK_VERSION && offset < SDK_VERSION + 2;
    if (!isLocale && !isDensity && !isSdk && (buf[pos + offset] as number) !== 0) {
      plain = false;
      break;
    }
  }

  return {
    locale: formatLocale(language, region, script, variant, numbering),
    language,
    region,
    script,
    variant,
    density: u16At(DENSITY),
    sdkVersion: u16At(SDK_VERSION),
    plain,
  };
}

/**
 * Two bytes hold either two ASCII letters or, with the high bit of the first set, three 5-bit
 * letters (ResTable_config::packLanguageOrRegion), e.g. "fil" or the region "419".
 */
export function unpackLanguageOrRegion(b0: number, b1: number, base: number): string {
  if (b0 === 0) return "";
  if ((b0 & 0x80) !== 0) {
    const first = b1 & 0x1f;
    const second = ((b1 & 0xe0) >> 5) | ((b0 & 0x03) << 3);
    const third = (b0 & 0x7c) >> 2;
    return String.fromCharCode(first + base, second + base, third + base);
  }
  return b1 === 0 ? String.fromCharCode(b0) : String.fromCharCode(b0, b1);
}

/** "fr", "zh-CN", or the resource-qualifier form "b+sr+Latn" when a script, variant or numbering system is involved. */
export function formatLocale(
  language: string,
  region: string,
  script = "",
  variant = "",
  numbering = "",
): string {
  if (language === "") return "";
  if (script === "" && variant === "" && numbering === "") return region === "" ? language : `${language}-${region}`;
  const parts = ["b", language];
  if (script !== "") parts.push(script);
  if (region !== "") parts.push(region);
  if (variant !== "") parts.push(variant);
  if (numbering !== "") parts.push("u", "nu", numbering);
  return parts.join("+");
}
