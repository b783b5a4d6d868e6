import { describe, expect, it } from "vitest";
import { S3UrlSigner } from "../src/adapters/s3";

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

describe("S3 URL signer", () => {
  it("presigns a PUT on the bucket's virtual-hosted endpoint, signing size and type", async () => {
    const signer = new S3UrlSigner({ bucket: "hangar-uploads", region: "eu-west-1", credentials });
    const url = new URL(
      await signer.presignPut({ key: "uploads/prj_1/fil_2/My App.apk", size: 42, contentType: "application/octet-stream", expiresInSeconds: 900 }),
    );
    expect(url.origin).toBe("https://hangar-uploads.s3.eu-west-1.amazonaws.com");
    expect(url.pathname).toBe("/uploads/prj_1/fil_2/My%20App.apk");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
      "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD",
      "X-Amz-Expires": "900",
      "X-Amz-SignedHeaders": "content-length;content-type;host",
    });
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("presigns an UploadPart with its part number, upload id and CRC32C in the signed query, and its length signed", async () => {
    const signer = new S3UrlSigner({ bucket: "b", region: "us-east-1", endpoint: "http://127.0.0.1:4569", credentials });
    const url = new URL(
      await signer.presignPart({
        key: "uploads/p/f/a.ipa",
        uploadId: "up/1+2",
        partNumber: 7,
        size: 8 * 1024 * 1024,
        checksumCRC32C: "yZRlqg==",
        expiresInSeconds: 900,
      }),
    );
    expect(url.origin + url.pathname).toBe("http://127.0.0.1:4569/b/uploads/p/f/a.ipa");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      partNumber: "7",
      uploadId: "up/1+2",
      "x-amz-checksum-crc32c": "yZRlqg==",
      "X-Amz-SignedHeaders": "content-length;host",
    });
  });

  it("signs a CRC32 part's checksum under its own name (an upload created with CRC32)", async () => {
    const signer = new S3UrlSigner({ bucket: "b", region: "us-east-1", endpoint: "http://127.0.0.1:4569", credentials });
    const url = new URL(
      await signer.presignPart({ key: "uploads/p/f/a.ipa", uploadId: "u", partNumber: 1, size: 5, checksumCRC32: "NhCmhg==", expiresInSeconds: 900 }),
    );
    expect(url.searchParams.get("x-amz-checksum-crc32")).toBe("NhCmhg==");
    expect(url.searchParams.has("x-amz-checksum-crc32c")).toBe(false);
  });

  it("presigns a GET on a path-style endpoint with the download name in the signed query", async () => {
    const signer = new S3UrlSigner({ bucket: "b", region: "us-east-1", endpoint: "http://127.0.0.1:4569", credentials });
    const url = new URL(await signer.presignGet({ key: "uploads/p/f/a.apk", downloadName: "Ünï.apk", expiresInSeconds: 300 }));
    expect(url.origin + url.pathname).toBe("http://127.0.0.1:4569/b/uploads/p/f/a.apk");
    expect(url.searchParams.get("response-content-disposition")).toBe(
      `attachment; filename="Uni.apk"; filename*=UTF-8''%C3%9Cn%C3%AF.apk`,
    );
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
  });
});
