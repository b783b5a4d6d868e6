import type { DeclaredFile } from "../api/upload.api";

/** The package types the service takes, by extension; anything else is refused before a request. */
export function declaredFile(file: File): DeclaredFile | { problem: string } {
  const name = file.name.toLowerCase();
  if (!name.endsWith(".apk") && !name.endsWith(".ipa")) return { problem: `${file.name} is not an APK or IPA. Choose a .apk or .ipa file.` };
  if (file.size === 0) return { problem: `${file.name} is empty.` };
  return { fileName: file.name, fileSize: file.size, fileType: name.endsWith(".apk") ? "application/vnd.android.package-archive" : "application/octet-stream" };
}

