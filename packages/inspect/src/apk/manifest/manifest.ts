import type { AxmlAttribute, AxmlDocument, AxmlElement } from "../axml/axml";
import { ValueType, coerceToString } from "../binary/res-value";
import type { ResValue } from "../binary/res-value";
import type { StringPool } from "../binary/string-pool";

/**
 * Android framework attribute ids (android.R.attr). Attributes are matched by these ids from the
 * resource map, never by name: obfuscators blank or rename the names and Android does not care.
 */
export const AndroidAttr = {
  label: 0x01010001,
  icon: 0x01010002,
  name: 0x01010003,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  targetSdkVersion: 0x01010270,
  drawable: 0x01010199,
  isSplitRequired: 0x01010591,
} as const;

const PERMISSION_TAGS = new Set(["uses-permission", "uses-permission-sdk-23", "uses-permission-sdk-m"]);

/** What the manifest says, with values still unresolved (references point into resources.arsc). */
export interface ManifestInfo {
  rootName: string;
  /** `package` attribute (no namespace), as Android reads it: raw string first. */
  packageName: string | undefined;
  /** `split` attribute: set on split APKs (config or feature splits). */
  split: string | undefined;
  versionCode: ResValue | undefined;
  versionName: ResValue | undefined;
  minSdkVersion: ResValue | undefined;
  targetSdkVersion: ResValue | undefined;
  label: ResValue | undefined;
  icon: ResValue | undefined;
  /** <application android:isSplitRequired="true">: installs only together with its split APKs. */
  splitRequired: boolean;
  /** Declared permission names, deduplicated, in document order. */
  permissions: string[];
  /** Pool the values' STRING indexes refer to. */
  strings: StringPool;
}

export function readManifest(doc: AxmlDocument): ManifestInfo {
  const root = doc.elements[0] as AxmlElement;
  const byId = (element: AxmlElement | undefined, id: number): ResValue | undefined =>
    element?.attributes.find((attr) => attr.resourceId === id)?.value;

  let usesSdk: AxmlElement | undefined;
  let application: AxmlElement | undefined;
  const permissions: string[] = [];
  for (const element of doc.elements) {
    // Only direct children of <manifest> count, as for Android's parser.
    if (element.depth !== 2 || element.namespace !== undefined) continue;
    if (element.name === "uses-sdk") {
      usesSdk = element; // a later <uses-sdk> overrides an earlier one
    } else if (element.name === "application") {
      application ??= element; // Android ignores any further <application>
    } else if (PERMISSION_TAGS.has(element.name)) {
      // Android takes only a literal string here (TypedArray.getNonResourceString).
      const value = byId(element, AndroidAttr.name);
      const name = value?.type === ValueType.STRING ? doc.strings.get(value.data) : undefined;
      if (name !== undefined && name !== "" && !permissions.includes(name)) permissions.push(name);
    }
  }

  return {
    rootName: root.name,
    packageName: plainAttribute(root, "package", doc.strings),
    split: plainAttribute(root, "split", doc.strings),
    versionCode: byId(root, AndroidAttr.versionCode),
    versionName: byId(root, AndroidAttr.versionName),
    minSdkVersion: byId(usesSdk, AndroidAttr.minSdkVersion),
    targetSdkVersion: byId(usesSdk, AndroidAttr.targetSdkVersion),
    label: byId(application, AndroidAttr.label),
    icon: byId(application, AndroidAttr.icon),
    splitRequired: isTrue(byId(application, AndroidAttr.isSplitRequired)),
    permissions,
    strings: doc.strings,
  };
}

function isTrue(value: ResValue | undefined): boolean {
  return value !== undefined && value.type === ValueType.INT_BOOLEAN && value.data !== 0;
}

/**
 * A namespace-less attribute read the way XmlPullParser.getAttributeValue(null, name) does: the raw
 * string when the compiler kept one, else the typed value coerced to text.
 */
function plainAttribute(element: AxmlElement, name: string, strings: StringPool): string | undefined {
  const attr: AxmlAttribute | undefined = element.attributes.find(
    (a) => a.namespace === undefined && a.name === name,
  );
  if (attr === undefined) return undefined;
  if (attr.rawValue !== undefined) return attr.rawValue;
  if (attr.value.type === ValueType.STRING) return strings.get(attr.value.data);
  return coerceToString(attr.value);
}
