/** Where things are in an IPA: the app bundle is the one `Payload/<name>.app/` directory. */

/**
 * Only the top-level app's Info.plist: frameworks, PlugIns (extensions) and Watch apps nest
 * their own Info.plist deeper (`Payload/X.app/PlugIns/Y.appex/Info.plist`) and must not match.
 */
export const APP_INFO_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;

export function findAppInfoPlists(names: Iterable<string>): string[] {
  const found: string[] = [];
  for (const name of names) if (APP_INFO_PLIST.test(name)) found.push(name);
  return found;
}

/** "Payload/X.app/" from "Payload/X.app/Info.plist". */
export function bundlePrefix(infoPlistPath: string): string {
  return infoPlistPath.slice(0, infoPlistPath.length - "Info.plist".length);
}

/** Files directly inside the bundle directory (not in subfolders). */
export function bundleRootFiles(names: Iterable<string>, prefix: string): string[] {
  const files: string[] = [];
  for (const name of names) {
    if (name.startsWith(prefix) && name.length > prefix.length && !name.includes("/", prefix.length)) {
      files.push(name);
    }
  }
  return files;
}

/** Pre-2013 projects name .lproj folders after languages; map the common ones to codes. */
const LEGACY_LPROJ: Record<string, string> = {
  English: "en",
  French: "fr",
  German: "de",
  Japanese: "ja",
  Spanish: "es",
  Italian: "it",
  Dutch: "nl",
};

/** Locale code of a `<lang>.lproj` folder: "pt_BR" → "pt-BR", "English" → "en". Base is not one. */
export function lprojLocale(folder: string): string | undefined {
  if (folder === "Base" || folder === "") return undefined;
  return LEGACY_LPROJ[folder] ?? folder.replace(/_/g, "-");
}

/** The bundle's `<lang>.lproj` folders, by folder name. */
export function lprojFolders(names: Iterable<string>, prefix: string): Set<string> {
  const folders = new Set<string>();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const slash = name.indexOf("/", prefix.length);
    if (slash < 0) continue;
    const folder = name.slice(prefix.length, slash);
    if (folder.endsWith(".lproj")) folders.add(folder.slice(0, -".lproj".length));
  }
  return folders;
}
