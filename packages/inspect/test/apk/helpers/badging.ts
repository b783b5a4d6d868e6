/**
 * Reads `aapt dump badging` / `aapt2 dump badging` output. aapt quotes values with ' and does not
 * escape quotes inside them, so each pattern anchors on what follows the value.
 */
export interface Badging {
  packageName?: string;
  versionCode?: string;
  versionName?: string;
  split?: string;
  sdkVersion?: string;
  targetSdkVersion?: string;
  /** uses-permission and uses-permission-sdk-23 names, in order, with duplicates. */
  permissions: string[];
  /** Permissions aapt adds itself (uses-implied-permission), not declared by the app. */
  impliedPermissions: Set<string>;
  /** application-label:'…' (the default label). */
  label?: string;
  /** application-label-<bcp47>:'…'. */
  localizedLabels: Map<string, string>;
  /** application: label='…' icon='…'. */
  application?: { label: string; icon: string };
  /** application-icon-<density>:'…'. */
  icons: Map<number, string>;
  /** BCP-47 locales, without aapt's '--_--' default marker; undefined when the line is missing. */
  locales?: string[];
}

export function parseBadging(text: string): Badging {
  const out: Badging = { permissions: [], impliedPermissions: new Set(), localizedLabels: new Map(), icons: new Map() };
  for (const line of text.split("\n")) {
    let m: RegExpExecArray | null;
    if ((m = /^package: name='(.*?)' versionCode='(.*?)' versionName='(.*?)'(?=(?: split=| platformBuildVersionName=| compileSdkVersion=|$))(.*)$/.exec(line))) {
      out.packageName = m[1];
      out.versionCode = m[2];
      out.versionName = m[3];
      const split = / split='(.*?)'/.exec(m[4] ?? "");
      if (split) out.split = split[1];
    } else if ((m = /^sdkVersion:'(.*)'$/.exec(line))) {
      out.sdkVersion = m[1];
    } else if ((m = /^targetSdkVersion:'(.*)'$/.exec(line))) {
      out.targetSdkVersion = m[1];
    } else if ((m = /^uses-permission(?:-sdk-23)?: name='(.*?)'(?: maxSdkVersion=.*)?$/.exec(line))) {
      out.permissions.push(m[1] as string);
    } else if ((m = /^uses-implied-permission: name='(.*?)' reason=/.exec(line))) {
      out.impliedPermissions.add(m[1] as string);
    } else if ((m = /^application-label:'(.*)'$/.exec(line))) {
      out.label = m[1];
    } else if ((m = /^application-label-([^:]+):'(.*)'$/.exec(line))) {
      out.localizedLabels.set(m[1] as string, m[2] as string);
    } else if ((m = /^application-icon-(\d+):'(.*)'$/.exec(line))) {
      out.icons.set(Number(m[1]), m[2] as string);
    } else if ((m = /^application: label='(.*)' icon='([^']*)'/.exec(line))) {
      out.application = { label: m[1] as string, icon: m[2] as string };
    } else if (line.startsWith("locales:")) {
      out.locales = [...line.matchAll(/'([^']*)'/g)].map((x) => x[1] as string).filter((l) => l !== "--_--");
    }
  }
  return out;
}

/** Our locale names ("b+sr+Latn") in aapt's BCP-47 form ("sr-Latn"). */
export function toBcp47(locale: string): string {
  return locale.startsWith("b+") ? locale.slice(2).split("+").join("-") : locale;
}
