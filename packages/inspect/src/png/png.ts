/**
 * Just enough PNG for app icons: read the IHDR size (Apple CgBI files included), and turn
 * Apple's CgBI variant (what Xcode's pngcrush writes into IPAs, unreadable by browsers) into a
 * standard PNG. Every length is checked: icons come from untrusted packages.
 */
import { crc32, deflateSync, inflateRawSync, inflateSync } from "node:zlib";

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngChunk {
  type: string;
  data: Buffer;
}

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

/** Width and height from IHDR, or undefined when this is not a PNG. Reads only the first chunks. */
export function pngSize(buf: Uint8Array): { width: number; height: number } | undefined {
  const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  // IHDR is the first chunk, except in CgBI files where the CgBI chunk comes first.
  let p = 8;
  for (let i = 0; i < 2 && p + 8 <= bytes.length; i++) {
    const length = bytes.readUInt32BE(p);
    const type = bytes.toString("latin1", p + 4, p + 8);
    if (type === "IHDR") {
      if (length < 13 || p + 8 + 8 > bytes.length) return undefined;
      const width = bytes.readUInt32BE(p + 8);
      const height = bytes.readUInt32BE(p + 12);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (type !== "CgBI") return undefined;
    p += 12 + length;
  }
  return undefined;
}

export function isCgbi(buf: Buffer): boolean {
  return buf.length >= 16 && buf.subarray(0, 8).equals(PNG_SIGNATURE) && buf.toString("latin1", 12, 16) === "CgBI";
}

export class PngError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PngError";
  }
}

export function readChunks(buf: Buffer): PngChunk[] {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(PNG_SIGNATURE)) throw new PngError("Not a PNG");
  const chunks: PngChunk[] = [];
  let p = 8;
  while (p + 12 <= buf.length) {
    const length = buf.readUInt32BE(p);
    const end = p + 12 + length;
    if (end > buf.length) throw new PngError("PNG chunk runs past the end of the file");
    const type = buf.toString("latin1", p + 4, p + 8);
    chunks.push({ type, data: buf.subarray(p + 8, p + 8 + length) });
    p = end;
    if (type === "IEND") break;
  }
  return chunks;
}

export function parseHeader(chunks: PngChunk[]): PngHeader {
  const ihdr = chunks.find((c) => c.type === "IHDR");
  if (!ihdr || ihdr.data.length < 13) throw new PngError("PNG has no IHDR");
  const header = {
    width: ihdr.data.readUInt32BE(0),
    height: ihdr.data.readUInt32BE(4),
    bitDepth: ihdr.data[8]!,
    colorType: ihdr.data[9]!,
    interlace: ihdr.data[12]!,
  };
  if (header.width === 0 || header.height === 0) throw new PngError("PNG has an empty image");
  return header;
}

export function writeChunks(chunks: PngChunk[]): Buffer {
  const parts: Buffer[] = [PNG_SIGNATURE];
  for (const chunk of chunks) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(chunk.data.length, 0);
    head.write(chunk.type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(chunk.data, crc32(head.subarray(4, 8))), 0);
    parts.push(head, chunk.data, crc);
  }
  return Buffer.concat(parts);
}

/** Bytes per pixel for the 8-bit colour types icons use (RGB, RGBA). */
function bytesPerPixel(header: PngHeader): number {
  if (header.bitDepth !== 8 || header.interlace !== 0) {
    throw new PngError("Only 8-bit, non-interlaced PNGs are converted");
  }
  if (header.colorType === 6) return 4;
  if (header.colorType === 2) return 3;
  throw new PngError(`PNG colour type ${header.colorType} is not converted`);
}

/** Reverses the per-row filters into raw pixel rows (PNG spec, section 9). */
export function unfilter(data: Buffer, header: PngHeader, bpp: number): Buffer {
  const stride = header.width * bpp;
  const out = Buffer.alloc(stride * header.height);
  if (data.length < (stride + 1) * header.height) throw new PngError("PNG image data is truncated");
  for (let y = 0; y < header.height; y++) {
    const filter = data[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const raw = data[src + x]!;
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[prev + x]! : 0;
      const c = x >= bpp && y > 0 ? out[prev + x - bpp]! : 0;
      let predictor: number;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) >> 1;
          break;
        case 4: {
          const pa = Math.abs(b - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + b - 2 * c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new PngError(`Unknown PNG filter ${filter}`);
      }
      out[row + x] = (raw + predictor) & 0xff;
    }
  }
  return out;
}

/** Raw rows back into PNG image data, filter 0 on every row (icons are small; size is moot). */
function filterNone(pixels: Buffer, header: PngHeader, bpp: number): Buffer {
  const stride = header.width * bpp;
  const out = Buffer.alloc((stride + 1) * header.height);
  for (let y = 0; y < header.height; y++) {
    pixels.copy(out, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  return out;
}

/**
 * Apple CgBI → standard PNG: IDAT is raw deflate (no zlib header), pixels are BGRA with
 * premultiplied alpha. Inflate, unfilter, swap to RGBA, un-premultiply, then write a normal
 * PNG without the CgBI chunk (and without iDOT, Apple's offsets into the old IDAT layout).
 * `maxPixels` bounds the decompressed size a hostile IHDR could ask for.
 */
export function cgbiToPng(buf: Buffer, maxPixels = 2048 * 2048): Buffer {
  const chunks = readChunks(buf);
  const header = parseHeader(chunks);
  const bpp = bytesPerPixel(header);
  if (header.width * header.height > maxPixels) throw new PngError("PNG is too large to convert");
  const expected = (header.width * bpp + 1) * header.height;
  const idat = Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data));
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(idat, { maxOutputLength: expected });
  } catch (error) {
    throw new PngError(`CgBI image data does not inflate: ${(error as Error).message}`);
  }
  const pixels = unfilter(inflated, header, bpp);
  for (let p = 0; p < pixels.length; p += bpp) {
    const blue = pixels[p]!;
    pixels[p] = pixels[p + 2]!;
    pixels[p + 2] = blue;
    if (bpp === 4) {
      const alpha = pixels[p + 3]!;
      if (alpha !== 0 && alpha !== 255) {
        for (let k = 0; k < 3; k++) pixels[p + k] = Math.min(255, Math.round((pixels[p + k]! * 255) / alpha));
      }
    }
  }
  const out: PngChunk[] = [];
  let wroteData = false;
  for (const chunk of chunks) {
    if (chunk.type === "CgBI" || chunk.type === "iDOT") continue;
    if (chunk.type === "IDAT") {
      if (!wroteData) out.push({ type: "IDAT", data: deflateSync(filterNone(pixels, header, bpp)) });
      wroteData = true;
      continue;
    }
    out.push(chunk);
  }
  if (!out.some((c) => c.type === "IEND")) out.push({ type: "IEND", data: Buffer.alloc(0) });
  return writeChunks(out);
}

/** Decodes an 8-bit RGB/RGBA, non-interlaced, standard PNG into raw rows (tests, fixtures). */
export function decodePng(buf: Buffer): { header: PngHeader; pixels: Buffer; bpp: number } {
  const chunks = readChunks(buf);
  const header = parseHeader(chunks);
  const bpp = bytesPerPixel(header);
  const idat = Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data));
  const data = inflateSync(idat, { maxOutputLength: (header.width * bpp + 1) * header.height });
  return { header, pixels: unfilter(data, header, bpp), bpp };
}

/** Encodes raw RGBA rows as a standard PNG (fixtures). */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const header: PngHeader = { width, height, bitDepth: 8, colorType: 6, interlace: 0 };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return writeChunks([
    { type: "IHDR", data: ihdr },
    { type: "IDAT", data: deflateSync(filterNone(rgba, header, 4)) },
    { type: "IEND", data: Buffer.alloc(0) },
  ]);
}
