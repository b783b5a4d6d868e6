import { ValueType, formatResId, isReference } from "../binary/res-value";
import type { ResValue } from "../binary/res-value";
import type { StringPool } from "../binary/string-pool";
import type { ResConfig } from "./res-config";
import type { ResourceTable, TableEntry } from "./resource-table";

/** The locale a value is resolved for; undefined means the default (no-locale) configuration. */
export type LocaleRequest = Pick<ResConfig, "language" | "region" | "script" | "variant">;

export type Resolution =
  | { kind: "string"; value: string; localized: boolean }
  /** A non-string scalar (integer, boolean, color…) at the end of the chain. */
  | { kind: "value"; value: ResValue; localized: boolean }
  | { kind: "unresolved"; reason: string };

/**
 * Follows Res_value references through resources.arsc, the way AssetManager resolves an attribute
 * for one configuration: at each step pick the best entry for the locale, stop at a non-reference.
 * Chains are bounded by `maxDepth` and loops are detected, so a self-referencing resource yields
 * an "unresolved" answer with a reason instead of spinning.
 */
export class Resolver {
  constructor(
    private readonly table: ResourceTable | undefined,
    private readonly maxDepth: number,
  ) {}

  /** `pool` is the string pool the starting value's STRING index points into (the XML's). */
  resolve(start: ResValue, pool: StringPool, locale?: LocaleRequest): Resolution {
    let value = start;
    let strings = pool;
    let localized = false;
    const seen = new Set<number>();
    for (;;) {
      if (value.type === ValueType.STRING) {
        const text = strings.get(value.data);
        return text === undefined
          ? { kind: "unresolved", reason: `string #${value.data} is missing from its pool` }
          : { kind: "string", value: text, localized };
      }
      if (value.type === ValueType.ATTRIBUTE || value.type === ValueType.DYNAMIC_ATTRIBUTE) {
        return { kind: "unresolved", reason: `theme attribute ?${formatResId(value.data)} needs a theme to resolve` };
      }
      if (!isReference(value)) {
        return value.type === ValueType.NULL
          ? { kind: "unresolved", reason: "value is empty" }
          : { kind: "value", value, localized };
      }
      const id = value.data >>> 0;
      if (id === 0) return { kind: "unresolved", reason: "reference is @null" };
      if (seen.has(id)) {
        return { kind: "unresolved", reason: `reference loop through ${this.describe(id)}` };
      }
      if (seen.size >= this.maxDepth) {
        return { kind: "unresolved", reason: `reference chain longer than ${this.maxDepth} at ${this.describe(id)}` };
      }
      seen.add(id);
      if (this.table === undefined) {
        return { kind: "unresolved", reason: `${this.describe(id)} cannot be resolved without resources.arsc` };
      }
      const entry = this.select(id, locale);
      if (entry === undefined) {
        const where = id >>> 24 === 0x01 ? " (an Android framework resource)" : "";
        return { kind: "unresolved", reason: `${this.describe(id)} is not in resources.arsc${where}` };
      }
      if (entry.value === undefined) {
        return { kind: "unresolved", reason: `${this.describe(id)} is a complex resource, not a value` };
      }
      if (entry.config.locale !== "") localized = true;
      value = entry.value;
      strings = this.table.strings;
    }
  }

  /**
   * The entry Android would pick for `locale` among the resource's configurations: the most
   * specific matching locale, else the default; among equals, a config with no other qualifier.
   */
  select(resId: number, locale?: LocaleRequest): TableEntry | undefined {
    if (this.table === undefined) return undefined;
    let best: TableEntry | undefined;
    let bestScore = -1;
    for (const entry of this.table.entries(resId)) {
      const match = localeScore(entry.config, locale);
      if (match < 0) continue;
      const score = match * 2 + (entry.config.plain ? 1 : 0);
      if (score > bestScore) {
        best = entry;
        bestScore = score;
      }
    }
    return best;
  }

  describe(resId: number): string {
    const name = this.table?.resourceName(resId);
    return name === undefined ? `@${formatResId(resId)}` : `@${name} (${formatResId(resId)})`;
  }
}

/** -1: the config does not apply to the locale; 0: default config; higher: more specific match. */
function localeScore(config: ResConfig, locale: LocaleRequest | undefined): number {
  if (config.language === "") return 0;
  if (locale === undefined || config.language !== locale.language) return -1;
  if (config.region !== "" && config.region !== locale.region) return -1;
  if (config.script !== "" && config.script !== locale.script) return -1;
  if (config.variant !== "" && config.variant !== locale.variant) return -1;
  return 1 + (config.region !== "" ? 4 : 0) + (config.script !== "" ? 2 : 0) + (config.variant !== "" ? 1 : 0);
}
