/**
 * Object keys are `uploads/<projectId>/<fileId>/<safe name>`. The raw file name never reaches
 * the key: only [A-Za-z0-9._-] survive, so keys are safe in URLs, shells and S3 consoles. The
 * original name is kept on the record for Content-Disposition.
 */
const KEY_PATTERN = /^uploads\/([A-Za-z0-9_]{1,64})\/([A-Za-z0-9_]{1,64})\/([A-Za-z0-9._-]{1,128})$/;
const MAX_NAME = 100;

export function safeObjectName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  const ext = fileName.slice(dot).toLowerCase();
  const stem = fileName
    .slice(0, dot)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+|[._]+$/g, "")
    .slice(0, MAX_NAME - ext.length);
  return `${stem || "package"}${ext}`;
}

export function objectKey(projectId: string, fileId: string, fileName: string): string {
  return `uploads/${projectId}/${fileId}/${safeObjectName(fileName)}`;
}

export function iconKeyFor(key: string): string {
  return `${key.slice(0, key.lastIndexOf("/"))}/icon.png`;
}

/** undefined for anything that is not a key this service could have issued. */
export function parseObjectKey(key: string): { projectId: string; fileId: string } | undefined {
  const m = KEY_PATTERN.exec(key);
  return m ? { projectId: m[1]!, fileId: m[2]! } : undefined;
}
