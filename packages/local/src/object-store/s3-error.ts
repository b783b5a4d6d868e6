import { XML_DECLARATION, xmlElement } from "@hangar/core/xml";

/**
 * An error answered the way S3 answers it: HTTP status plus an XML body with `Code` and `Message`
 * (clients such as the AWS SDK key their error classes off `Code`). `details` adds the extra elements
 * S3 puts next to them (e.g. `StringToSign` on SignatureDoesNotMatch), which help debug a client.
 */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, string>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "S3Error";
  }

  toXml(requestId: string): string {
    const extra = Object.entries(this.details)
      .map(([name, value]) => xmlElement(name, value))
      .join("");
    return (
      XML_DECLARATION +
      `<Error>${xmlElement("Code", this.code)}${xmlElement("Message", this.message)}${extra}` +
      `${xmlElement("RequestId", requestId)}</Error>`
    );
  }
}

export const accessDenied = (message = "Access Denied", details?: Record<string, string>) =>
  new S3Error(403, "AccessDenied", message, details);
export const noSuchBucket = (bucket: string) =>
  new S3Error(404, "NoSuchBucket", "The specified bucket does not exist", { BucketName: bucket });
export const noSuchKey = (key: string, headers?: Record<string, string>) =>
  new S3Error(404, "NoSuchKey", "The specified key does not exist.", { Key: key }, headers);
export const noSuchVersion = (key: string, versionId: string) =>
  new S3Error(404, "NoSuchVersion", "The specified version does not exist.", { Key: key, VersionId: versionId });
export const invalidArgument = (message: string, details?: Record<string, string>) =>
  new S3Error(400, "InvalidArgument", message, details);
export const notImplemented = (message: string) => new S3Error(501, "NotImplemented", message);
