import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { AwsChunkedDecoder } from "../../src/object-store/body/aws-chunked-decoder";

/** Feeds `body` split at every `step` bytes, so framing that straddles reads is exercised. */
async function decode(body: string, step: number) {
  const decoder = new AwsChunkedDecoder();
  const parts: Buffer[] = [];
  const bytes = Buffer.from(body, "latin1");
  for (let i = 0; i < bytes.length; i += step) parts.push(bytes.subarray(i, i + step));
  const data = await text(Readable.from(parts).pipe(decoder));
  return { data, trailers: decoder.trailers };
}

describe("AwsChunkedDecoder", () => {
  const framed = "5\r\nhello\r\n7\r\n, world\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n";

  it.each([1, 2, 3, 7, 1000])("decodes data and trailers fed %i bytes at a time", async (step) => {
    const { data, trailers } = await decode(framed, step);
    expect(data).toBe("hello, world");
    expect(trailers.get("x-amz-checksum-crc32")).toBe("AAAAAA==");
  });

  it("accepts a body that ends right after the last chunk (no trailer)", async () => {
    expect((await decode("3\r\nabc\r\n0\r\n", 4)).data).toBe("abc");
  });

  it.each([
    ["a truncated chunk", "5\r\nhel"],
    ["a missing final chunk", "5\r\nhello\r\n"],
    ["a chunk longer than declared", "2\r\nhello\r\n0\r\n\r\n"],
    ["a bad size line", "zz\r\nhello\r\n0\r\n\r\n"],
    ["a signed chunk", "5;chunk-signature=abc\r\nhello\r\n0\r\n\r\n"],
    ["bytes after the end", "0\r\n\r\nextra"],
    ["a bare LF", "5\nhello\r\n0\r\n\r\n"],
    ["an endless size line", "1".repeat(20_000)],
  ])("rejects %s", async (_label, body) => {
    await expect(decode(body, 3)).rejects.toThrow();
  });
});
