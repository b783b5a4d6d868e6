import type { QueryParam } from "./sigv4/canonical";
import { invalidArgument } from "./s3-error";
import { isDeleteMarker, type KeyHistory } from "./storage/object-record";
import { S3_XML_NAMESPACE, XML_DECLARATION, xmlElement } from "@hangar/core/xml";

const MAX_KEYS_LIMIT = 1000;

/**
 * ListObjectVersions (`GET /<bucket>?versions`) over every key's history, sorted by key in UTF-8
 * byte order, each key's versions newest first, as S3 lists them. Supports prefix, max-keys and
 * the key-marker / version-id-marker pair S3 hands back as NextKeyMarker / NextVersionIdMarker;
 * no delimiter. Enough for deleting everything under a prefix for good.
 */
export function listObjectVersionsXml(bucket: string, histories: readonly KeyHistory[], query: readonly QueryParam[]): string {
  const get = (name: string) => query.find((p) => p.name === name)?.value;
  const prefix = get("prefix") ?? "";
  const keyMarker = get("key-marker") ?? "";
  const versionIdMarker = get("version-id-marker");
  const maxKeysText = get("max-keys");
  if (maxKeysText !== undefined && !/^\d+$/.test(maxKeysText)) {
    throw invalidArgument("Provided max-keys not an integer or within integer range", { ArgumentName: "max-keys", ArgumentValue: maxKeysText });
  }
  const maxKeys = maxKeysText === undefined ? MAX_KEYS_LIMIT : Math.min(Number(maxKeysText), MAX_KEYS_LIMIT);

  const sorted = [...histories].sort((a, b) => Buffer.compare(Buffer.from(a.key, "utf8"), Buffer.from(b.key, "utf8")));
  const markerBytes = Buffer.from(keyMarker, "utf8");
  const entries: string[] = [];
  let truncated = false;
  let next: { key: string; versionId: string } | undefined;
  outer: for (const history of sorted) {
    if (!history.key.startsWith(prefix)) continue;
    const order = Buffer.compare(Buffer.from(history.key, "utf8"), markerBytes);
    if (keyMarker !== "" && order < 0) continue;
    let versions = history.versions;
    if (keyMarker !== "" && order === 0) {
      // Same key as the marker: resume after the marker's version, or skip the key entirely.
      const at = versionIdMarker === undefined ? versions.length - 1 : versions.findIndex((v) => v.versionId === versionIdMarker);
      versions = versions.slice(at + 1);
    }
    for (const [i, v] of versions.entries()) {
      if (entries.length >= maxKeys) {
        truncated = true;
        break outer;
      }
      const isLatest = v === history.versions[0] && i === 0 ? "true" : "false";
      entries.push(
        isDeleteMarker(v)
          ? "<DeleteMarker>" +
              xmlElement("Key", v.key) +
              xmlElement("VersionId", v.versionId) +
              xmlElement("IsLatest", isLatest) +
              xmlElement("LastModified", v.lastModified) +
              "</DeleteMarker>"
          : "<Version>" +
              xmlElement("Key", v.key) +
              xmlElement("VersionId", v.versionId) +
              xmlElement("IsLatest", isLatest) +
              xmlElement("LastModified", v.lastModified) +
              xmlElement("ETag", v.etag) +
              xmlElement("Size", v.size) +
              xmlElement("StorageClass", "STANDARD") +
              "</Version>",
      );
      next = { key: v.key, versionId: v.versionId };
    }
  }
  return (
    XML_DECLARATION +
    `<ListVersionsResult xmlns="${S3_XML_NAMESPACE}">` +
    xmlElement("Name", bucket) +
    xmlElement("Prefix", prefix) +
    xmlElement("KeyMarker", keyMarker) +
    xmlElement("VersionIdMarker", versionIdMarker ?? "") +
    xmlElement("MaxKeys", maxKeys) +
    xmlElement("IsTruncated", truncated) +
    (truncated && next ? xmlElement("NextKeyMarker", next.key) + xmlElement("NextVersionIdMarker", next.versionId) : "") +
    entries.join("") +
    "</ListVersionsResult>"
  );
}
