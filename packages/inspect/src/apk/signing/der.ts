/**
 * Just enough ASN.1 to walk a PKCS#7 SignedData to its certificates: tag-length-value headers,
 * definite lengths (DER) and the indefinite ones some signing tools still write in the outer
 * layers (BER, as Android's own verifier accepts). No value is interpreted here; callers keep
 * the raw bytes of what they need (a certificate is hashed exactly as it was encoded).
 *
 * Rejected: asn1js/pkijs or node-forge (tens of KB for a browser chunk, and they decode whole
 * structures we only skip over). Every length is checked against its enclosing element, and
 * skipping an indefinite-length element is depth-bounded, so hostile bytes end in
 * SigningFormatError, never a RangeError or a long loop.
 */
export class SigningFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SigningFormatError";
  }
}

/** One element: its identifier octet, and where its header, content and whole encoding lie. */
export interface Tlv {
  /** The first identifier octet (class, constructed bit, tag number < 31). */
  tag: number;
  start: number;
  contentStart: number;
  contentEnd: number;
  end: number;
}

export const TAG = {
  INTEGER: 0x02,
  OID: 0x06,
  SEQUENCE: 0x30,
  SET: 0x31,
  /** [0] constructed: SignedData's `content` and `certificates`, a certificate's `version`. */
  CONTEXT_0: 0xa0,
  /** [1] constructed: SignedData's `crls`. */
  CONTEXT_1: 0xa1,
} as const;

/** Nesting a real SignedData never comes near; bounds the walk over indefinite lengths. */
const MAX_DEPTH = 32;
const CONSTRUCTED = 0x20;

/** The element starting at `pos`, which must end by `limit`. */
export function readTlv(buf: Buffer, pos: number, limit: number, depth = 0): Tlv {
  const end = Math.min(limit, buf.length);
  if (pos + 2 > end) throw new SigningFormatError(`ASN.1 element at ${pos} is truncated`);
  const tag = buf[pos]!;
  if ((tag & 0x1f) === 0x1f) throw new SigningFormatError(`ASN.1 element at ${pos} has a multi-byte tag`);
  let p = pos + 1;
  const first = buf[p++]!;
  if (first === 0x80) {
    // Indefinite length: the content is elements up to an end-of-contents marker (00 00).
    if ((tag & CONSTRUCTED) === 0) throw new SigningFormatError(`Primitive ASN.1 element at ${pos} has an indefinite length`);
    if (depth >= MAX_DEPTH) throw new SigningFormatError("ASN.1 nesting is too deep");
    const contentStart = p;
    for (;;) {
      if (p + 2 > end) throw new SigningFormatError(`Indefinite-length element at ${pos} has no end-of-contents`);
      if (buf[p] === 0 && buf[p + 1] === 0) return { tag, start: pos, contentStart, contentEnd: p, end: p + 2 };
      p = readTlv(buf, p, end, depth + 1).end;
    }
  }
  let length: number;
  if (first < 0x80) {
    length = first;
  } else {
    const octets = first & 0x7f;
    // Four length octets already allow 4 GiB, more than any input that reaches this parser.
    if (octets > 4 || p + octets > end) throw new SigningFormatError(`ASN.1 length at ${pos} is invalid`);
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + buf[p++]!;
  }
  if (p + length > end) throw new SigningFormatError(`ASN.1 element at ${pos} runs past its container`);
  return { tag, start: pos, contentStart: p, contentEnd: p + length, end: p + length };
}

/** The elements inside a constructed element, in order. At most `max` (a hostile SET may hold thousands). */
export function children(buf: Buffer, parent: Tlv, max: number): Tlv[] {
  const out: Tlv[] = [];
  let p = parent.contentStart;
  while (p < parent.contentEnd) {
    if (out.length >= max) break;
    const child = readTlv(buf, p, parent.contentEnd);
    out.push(child);
    p = child.end;
  }
  return out;
}

/** `readTlv` that also insists on the tag. */
export function expectTlv(buf: Buffer, pos: number, limit: number, tag: number, what: string): Tlv {
  const tlv = readTlv(buf, pos, limit);
  if (tlv.tag !== tag) {
    throw new SigningFormatError(`${what}: expected ASN.1 tag 0x${tag.toString(16)}, found 0x${tlv.tag.toString(16)}`);
  }
  return tlv;
}

/** The bytes of an element's whole encoding (header included), as hashed and compared. */
export function encoded(buf: Buffer, tlv: Tlv): Buffer {
  return buf.subarray(tlv.start, tlv.end);
}
