import { T, chunk, resValue, stringPool, u16, u32 } from "./encode";

export const ANDROID_NS = "http://schemas.android.com/apk/res/android";

export const Attr = {
  label: 0x01010001,
  icon: 0x01010002,
  name: 0x01010003,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  targetSdkVersion: 0x01010270,
} as const;

export interface AttrSpec {
  /** Namespace URI; ANDROID_NS for android: attributes, undefined for none. */
  ns?: string;
  name: string;
  /** Framework attribute id, put in the resource map. */
  resId?: number;
  /** A string value (typed STRING, raw = same string) … */
  string?: string;
  /** … or a typed value (data is a number, or a string to be put in the pool). */
  type?: number;
  data?: number;
  /** Raw value string; defaults to `string` for string values and none otherwise. */
  raw?: string | null;
}

export interface ElementSpec {
  name: string;
  attrs?: AttrSpec[];
  children?: ElementSpec[];
}

export interface AxmlOptions {
  utf8?: boolean;
  headerType?: number;
  attributeStart?: number;
  attributeSize?: number;
  /** Element node header size (16 standard); larger ones put padding before the extension. */
  nodeHeaderSize?: number;
  /** Chunks inserted right before the first node. */
  extraChunks?: Buffer[];
}

const NO_INDEX = 0xffffffff;

/** Compiles an element tree to Android binary XML the way aapt lays it out. */
export function buildAxml(root: ElementSpec, options: AxmlOptions = {}): Buffer {
  // Attribute names with ids come first: the resource map covers the pool's first indexes.
  const idNames: Array<{ name: string; resId: number }> = [];
  const others: string[] = [];
  const walk = (e: ElementSpec): void => {
    for (const a of e.attrs ?? []) {
      if (a.resId !== undefined) {
        if (!idNames.some((n) => n.resId === a.resId)) idNames.push({ name: a.name, resId: a.resId });
      } else if (!others.includes(a.name)) {
        others.push(a.name);
      }
    }
    for (const c of e.children ?? []) walk(c);
  };
  walk(root);
  const pool: string[] = idNames.map((n) => n.name);
  const index = (s: string): number => {
    let i = pool.indexOf(s, idNames.length);
    if (i < 0) {
      pool.push(s);
      i = pool.length - 1;
    }
    return i;
  };
  const nameIndex = (a: AttrSpec): number =>
    a.resId !== undefined ? idNames.findIndex((n) => n.resId === a.resId) : index(a.name);
  for (const s of others) index(s);

  const nodes: Buffer[] = [];
  const nodeHeaderSize = options.nodeHeaderSize ?? 16;
  const nodeHeader = (): Buffer => Buffer.concat([u32(1), u32(NO_INDEX), Buffer.alloc(nodeHeaderSize - 16, 0xee)]);
  const attributeStart = options.attributeStart ?? 20;
  const attributeSize = options.attributeSize ?? 20;

  const emit = (e: ElementSpec): void => {
    const attrs = (e.attrs ?? []).map((a) => {
      const ns = a.ns === undefined ? NO_INDEX : index(a.ns);
      let type = a.type ?? T.STRING;
      let data = a.data ?? 0;
      let raw = NO_INDEX;
      if (a.string !== undefined) {
        type = T.STRING;
        data = index(a.string);
        raw = a.raw === null ? NO_INDEX : index(a.raw ?? a.string);
      } else if (typeof a.raw === "string") {
        raw = index(a.raw);
      }
      const body = Buffer.concat([u32(ns), u32(nameIndex(a)), u32(raw), resValue(type, data)]);
      return Buffer.concat([body, Buffer.alloc(attributeSize - 20, 0xab)]);
    });
    const ext = Buffer.concat([
      u32(NO_INDEX),
      u32(index(e.name)),
      u16(attributeStart),
      u16(attributeSize),
      u16(attrs.length),
      u16(0),
      u16(0),
      u16(0),
      Buffer.alloc(attributeStart - 20, 0xcd),
    ]);
    nodes.push(chunk(0x0102, nodeHeader(), Buffer.concat([ext, ...attrs])));
    for (const c of e.children ?? []) emit(c);
    nodes.push(chunk(0x0103, nodeHeader(), Buffer.concat([u32(NO_INDEX), u32(index(e.name))])));
  };

  const androidPrefix = index("android");
  const androidUri = index(ANDROID_NS);
  const ns = Buffer.concat([u32(androidPrefix), u32(androidUri)]);
  const startNs = chunk(0x0100, Buffer.concat([u32(1), u32(NO_INDEX)]), ns);
  const endNs = chunk(0x0101, Buffer.concat([u32(1), u32(NO_INDEX)]), ns);
  emit(root);

  const resourceMap = chunk(0x0180, Buffer.alloc(0), Buffer.concat(idNames.map((n) => u32(n.resId))));
  const body = Buffer.concat([
    stringPool(pool, { utf8: options.utf8 ?? false }),
    resourceMap,
    ...(options.extraChunks ?? []),
    startNs,
    ...nodes,
    endNs,
  ]);
  return chunk(options.headerType ?? 0x0003, Buffer.alloc(0), body);
}

/** A value for an android attribute; its name, namespace and id are filled in. */
export type AttrValue = Partial<AttrSpec>;

export interface ManifestSpec {
  package?: string;
  versionCode?: AttrValue | number;
  versionName?: AttrValue | string;
  label?: AttrValue | string;
  icon?: AttrValue;
  minSdk?: number | string;
  targetSdk?: number | string;
  permissions?: string[];
  split?: string;
  /** Replaces every android attribute name in the pool (obfuscation). */
  attributeName?: (real: string) => string;
}

/** The manifest most tests start from, overriding only what they are about. */
export const sampleManifest: ManifestSpec = {
  package: "com.example.app",
  versionCode: 42,
  versionName: "1.0.4 [BETA]",
  label: "My App",
  minSdk: 21,
  targetSdk: 34,
};

function androidAttr(name: keyof typeof Attr, value: AttrValue | string | number, rename?: (s: string) => string): AttrSpec {
  const base: AttrSpec = { ns: ANDROID_NS, name: rename ? rename(name) : name, resId: Attr[name] };
  if (typeof value === "string") return { ...base, string: value };
  if (typeof value === "number") return { ...base, type: T.INT_DEC, data: value };
  return { ...base, ...value, name: base.name, resId: base.resId };
}

/** A typical manifest; every android attribute identified by id (names renamed if asked). */
export function manifestTree(spec: ManifestSpec): ElementSpec {
  const r = spec.attributeName;
  const manifestAttrs: AttrSpec[] = [];
  if (spec.versionCode !== undefined) manifestAttrs.push(androidAttr("versionCode", spec.versionCode, r));
  if (spec.versionName !== undefined) manifestAttrs.push(androidAttr("versionName", spec.versionName, r));
  if (spec.package !== undefined) manifestAttrs.push({ name: "package", string: spec.package });
  if (spec.split !== undefined) manifestAttrs.push({ name: "split", string: spec.split });
  const children: ElementSpec[] = [];
  if (spec.minSdk !== undefined || spec.targetSdk !== undefined) {
    const attrs: AttrSpec[] = [];
    if (spec.minSdk !== undefined) attrs.push(androidAttr("minSdkVersion", spec.minSdk, r));
    if (spec.targetSdk !== undefined) attrs.push(androidAttr("targetSdkVersion", spec.targetSdk, r));
    children.push({ name: "uses-sdk", attrs });
  }
  for (const p of spec.permissions ?? []) {
    children.push({ name: "uses-permission", attrs: [androidAttr("name", p, r)] });
  }
  const appAttrs: AttrSpec[] = [];
  if (spec.label !== undefined) appAttrs.push(androidAttr("label", spec.label, r));
  if (spec.icon !== undefined) appAttrs.push(androidAttr("icon", spec.icon, r));
  children.push({ name: "application", attrs: appAttrs, children: [{ name: "activity", attrs: [androidAttr("name", ".Main", r)] }] });
  return { name: "manifest", attrs: manifestAttrs, children };
}

export function buildManifest(spec: ManifestSpec, options: AxmlOptions = {}): Buffer {
  return buildAxml(manifestTree(spec), options);
}
