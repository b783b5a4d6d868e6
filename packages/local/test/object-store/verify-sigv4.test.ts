import { describe, expect, it } from "vitest";
import { Sha256 } from "@aws-crypto/sha256-js";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import { S3RequestPresigner } from "@aws-sdk/s3-request-presigner";
import { canonicalUri, parseQuery, uriEncode } from "../../src/object-store/sigv4/canonical";
import { verifySigV4, type SignedRequest } from "../../src/object-store/sigv4/verify-sigv4";
import { S3Error } from "../../src/object-store/s3-error";

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const region = "eu-central-1";
const signer = new SignatureV4({ service: "s3", region, credentials, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
const presigner = new S3RequestPresigner({ service: "s3", region, credentials, sha256: Sha256 });
const signingDate = new Date("2026-03-01T12:00:00Z");

/** The path as the S3 SDK serialises a key: each segment RFC 3986-encoded, `/` kept. */
const keyPath = (key: string) => `/bucket/${key.split("/").map(uriEncode).join("/")}`;

/** Turns a signed smithy request into what the server would receive. */
function received(request: HttpRequest): SignedRequest {
  const rawQuery = Object.entries(request.query)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${uriEncode(name)}=${uriEncode(String(v ?? ""))}`))
    .join("&");
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(request.headers)) headers.set(name.toLowerCase(), [value]);
  return { method: request.method, rawPath: request.path, query: parseQuery(rawQuery), headers };
}

async function presign(key: string, query: Record<string, string> = {}) {
  const request = new HttpRequest({
    method: "GET",
    protocol: "http:",
    hostname: "127.0.0.1",
    port: 4569,
    path: keyPath(key),
    query,
    headers: { host: "127.0.0.1:4569" },
  });
  return (await presigner.presign(request, { signingDate, expiresIn: 900 })) as HttpRequest;
}

const keys = [
  "plain.apk",
  "with space/and+plus.ipa",
  "ünïcødé/应用/🚀",
  "../../etc/passwd",
  "a//b/./c/",
  "reserved !'()*&$@=;:,?#[]%~",
  "tab\tand\nnewline",
];

describe("verifySigV4 against the SDK's signer", () => {
  it.each(keys)("accepts a presigned GET for key %j", async (key) => {
    const signed = await presign(key, { "response-content-disposition": 'attachment; filename="a b.apk"', "x-id": "GetObject" });
    const result = verifySigV4(received(signed), { region, credentials, now: new Date(signingDate.getTime() + 60_000) });
    expect(result.kind).toBe("presigned");
    expect(result.payloadHash).toBe("UNSIGNED-PAYLOAD");
  });

  it.each(keys)("refuses the same URL with key %j changed by one character", async (key) => {
    const signed = received(await presign(key));
    const tampered = { ...signed, rawPath: keyPath(`${key}x`) };
    expect(() => verifySigV4(tampered, { region, credentials, now: signingDate })).toThrow(
      expect.objectContaining({ code: "SignatureDoesNotMatch", status: 403 }),
    );
  });

  it("canonicalises equivalent spellings of a path the same way", () => {
    expect(canonicalUri("/b/%7e%2f%c3%bc")).toBe(canonicalUri("/b/~%2F%C3%BC"));
  });

  it("accepts a header-signed request and reports its payload hash", async () => {
    const hash = "UNSIGNED-PAYLOAD";
    const request = new HttpRequest({
      method: "PUT",
      protocol: "http:",
      hostname: "127.0.0.1",
      path: keyPath("x/y z"),
      headers: { host: "127.0.0.1:4569", "x-amz-content-sha256": hash, "content-length": "3" },
    });
    const signed = (await signer.sign(request, { signingDate })) as HttpRequest;
    const result = verifySigV4(received(signed), { region, credentials, now: signingDate });
    expect(result).toMatchObject({ kind: "header", payloadHash: hash });
  });

  it("compares signatures of any length without throwing", async () => {
    const signed = received(await presign("k"));
    const short = { ...signed, query: signed.query.map((p) => (p.name === "X-Amz-Signature" ? { ...p, value: "abc" } : p)) };
    expect(() => verifySigV4(short, { region, credentials, now: signingDate })).toThrow(S3Error);
  });
});
