import { createHash } from "node:crypto";
import { AwsServiceError } from "../../aws/aws-json-call";
import type { ObjectPurger } from "../../ports";
import { s3Failure } from "./object-store.rest.s3";
import { S3_XML_NAMESPACE, xmlElement, xmlRecords, xmlText } from "../../html/xml";
import { answerText, type S3Requester } from "./s3-request";

/** S3 lists at most 1000 versions per page and deletes at most 1000 per DeleteObjects: one request each per page. */
const PAGE = 1000;

/**
 * The bucket is versioned, so a plain delete would only add a delete marker and keep every byte.
 * This lists versions and delete markers under a prefix, a page at a time, and deletes each by
 * version id, which removes it for good: one DeleteObjects per page (the local store implements it
 * as S3 does), not one DeleteObject per version, so a project of thousands of builds costs a few
 * requests. On signed fetches (s3-request.ts), so the functions that delete carry no S3 client.
 */
export class S3ObjectPurger implements ObjectPurger {
  constructor(private readonly s3: S3Requester) {}

  async purgePrefix(prefix: string): Promise<{ deleted: number; more: boolean }> {
    let page: string;
    try {
      page = answerText(await this.s3.send({ method: "GET", key: "", query: { versions: "", prefix, "max-keys": String(PAGE) } }));
    } catch (error) {
      throw s3Failure("ListObjectVersions", error);
    }
    const targets = [...xmlRecords(page, "Version"), ...xmlRecords(page, "DeleteMarker")]
      .map((v) => ({ key: xmlText(v, "Key") ?? "", versionId: xmlText(v, "VersionId") ?? "null" }))
      .filter((v) => v.key.startsWith(prefix));
    if (targets.length > 0) await this.deleteVersions(targets);
    return { deleted: targets.length, more: xmlText(page, "IsTruncated") === "true" };
  }

  /** One DeleteObjects; a version S3 could not delete fails the page, as a failed DeleteObject did, so the caller resumes it. */
  private async deleteVersions(targets: { key: string; versionId: string }[]): Promise<void> {
    // Quiet: the answer lists only the versions that were not deleted.
    const body =
      `<Delete xmlns="${S3_XML_NAMESPACE}"><Quiet>true</Quiet>` +
      targets.map((t) => `<Object>${xmlElement("Key", t.key)}${xmlElement("VersionId", t.versionId)}</Object>`).join("") +
      "</Delete>";
    let answer: string;
    try {
      // S3 refuses a DeleteObjects without an integrity check of its body (Content-MD5 or a checksum header).
      const md5 = createHash("md5").update(body).digest("base64");
      answer = answerText(await this.s3.send({ method: "POST", key: "", query: { delete: "" }, body, headers: { "content-type": "application/xml", "content-md5": md5 } }));
    } catch (error) {
      throw s3Failure("DeleteObjects", error);
    }
    const failed = xmlRecords(answer, "Error");
    if (failed.length > 0) {
      const first = failed[0]!;
      const cause = new AwsServiceError(
        xmlText(first, "Code") ?? "UnknownError",
        `${failed.length} of ${targets.length} versions not deleted; ${xmlText(first, "Key")}: ${xmlText(first, "Message") ?? ""}`,
        200,
      );
      throw s3Failure("DeleteObject", cause);
    }
  }
}
