import { Transform, type TransformCallback } from "node:stream";
import { S3Error } from "../s3-error";

/** Longest chunk-size or trailer line accepted; real ones are far shorter, and the bound keeps a bad client from growing a buffer. */
const MAX_LINE_BYTES = 8 * 1024;

const malformed = (why: string) => new S3Error(400, "InvalidRequest", `Malformed aws-chunked body: ${why}`);

/**
 * Decodes an `aws-chunked` body with UNSIGNED chunks (`STREAMING-UNSIGNED-PAYLOAD-TRAILER`, what recent SDKs
 * send with a flexible checksum): `<hex size>\r\n<bytes>\r\n` … `0\r\n` then optional `name:value\r\n`
 * trailer lines and a final `\r\n`. Chunk signatures (`;chunk-signature=`) belong to the signed streaming
 * modes and are refused: nothing here verifies them.
 */
export class AwsChunkedDecoder extends Transform {
  readonly trailers = new Map<string, string>();
  private state: "size" | "data" | "data-end" | "trailer" | "done" = "size";
  private line: Buffer[] = [];
  private lineBytes = 0;
  private remaining = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      let offset = 0;
      while (offset < chunk.length) {
        if (this.state === "done") throw malformed("data after the final chunk");
        if (this.state === "data") {
          const take = Math.min(this.remaining, chunk.length - offset);
          this.push(chunk.subarray(offset, offset + take));
          offset += take;
          this.remaining -= take;
          if (this.remaining === 0) this.state = "data-end";
          continue;
        }
        const newline = chunk.indexOf(0x0a, offset);
        const end = newline === -1 ? chunk.length : newline + 1;
        this.appendLine(chunk.subarray(offset, end));
        offset = end;
        if (newline !== -1) this.onLine(this.takeLine());
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    // The SDK ends the body right after `0\r\n` when it sends no trailer.
    const complete = this.state === "done" || (this.state === "trailer" && this.lineBytes === 0);
    callback(complete ? undefined : new S3Error(400, "IncompleteBody", "The aws-chunked body ended before its final chunk."));
  }

  private appendLine(part: Buffer): void {
    this.lineBytes += part.length;
    if (this.lineBytes > MAX_LINE_BYTES) throw malformed("line too long");
    this.line.push(part);
  }

  private takeLine(): string {
    const text = Buffer.concat(this.line).toString("latin1");
    this.line = [];
    this.lineBytes = 0;
    if (!text.endsWith("\r\n")) throw malformed("line not terminated by CRLF");
    return text.slice(0, -2);
  }

  private onLine(text: string): void {
    switch (this.state) {
      case "size": {
        if (text.includes(";")) throw malformed("signed chunks are not supported");
        if (!/^[0-9a-fA-F]{1,15}$/.test(text)) throw malformed(`bad chunk size '${text.slice(0, 40)}'`);
        this.remaining = Number.parseInt(text, 16);
        this.state = this.remaining === 0 ? "trailer" : "data";
        return;
      }
      case "data-end":
        if (text !== "") throw malformed("chunk longer than its declared size");
        this.state = "size";
        return;
      case "trailer": {
        if (text === "") {
          this.state = "done";
          return;
        }
        const colon = text.indexOf(":");
        if (colon <= 0) throw malformed("bad trailer line");
        this.trailers.set(text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim());
        return;
      }
      default:
        throw malformed("unexpected state");
    }
  }
}
