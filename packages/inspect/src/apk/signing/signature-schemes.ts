/**
 * Signers of APK Signature Scheme v2, v3 and v3.1 blocks. Every field is a little-endian
 * uint32-length-prefixed byte string:
 *
 *   block  = lp(signer*)             signer (v2)   = lp(signedData) lp(signatures) lp(publicKey)
 *   signer = lp(...)                 signer (v3)   = lp(signedData) u32 minSdk u32 maxSdk lp(signatures) lp(publicKey)
 *   signedData = lp(digest*) lp(certificate*) ...   certificate = lp(X.509 DER)
 *
 * We take the first certificate of each signer's signed data (the signer's own; any others are
 * its chain). Nothing is verified here: that needs a digest of the whole APK.
 */
import { SigningFormatError } from "./der";

/** Android accepts at most 10 v2 signers; v3 has one per SDK range, in practice one or two. */
const MAX_SIGNERS = 16;

export interface SchemeSigner {
  /** DER of the signer's certificate. */
  certificate: Buffer;
  /** v3/v3.1: the lowest SDK this signer is for (0 for v2). */
  minSdk: number;
}

/** Reads the fields of one length-prefixed structure in order, inside its bounds. */
class Fields {
  private p = 0;
  constructor(
    private readonly buf: Buffer,
    private readonly what: string,
  ) {}

  get done(): boolean {
    return this.p >= this.buf.length;
  }

  u32(): number {
    if (this.p + 4 > this.buf.length) throw new SigningFormatError(`${this.what} is truncated`);
    const value = this.buf.readUInt32LE(this.p);
    this.p += 4;
    return value;
  }

  lengthPrefixed(): Buffer {
    const length = this.u32();
    if (length > this.buf.length - this.p) {
      throw new SigningFormatError(`${this.what} declares ${length} bytes where ${this.buf.length - this.p} remain`);
    }
    const value = this.buf.subarray(this.p, this.p + length);
    this.p += length;
    return value;
  }
}

export function schemeSigners(value: Buffer, scheme: "v2" | "v3"): SchemeSigner[] {
  const signers = new Fields(new Fields(value, `${scheme} block`).lengthPrefixed(), `${scheme} signer list`);
  const out: SchemeSigner[] = [];
  while (!signers.done) {
    if (out.length >= MAX_SIGNERS) throw new SigningFormatError(`The ${scheme} block holds more than ${MAX_SIGNERS} signers`);
    const signer = new Fields(signers.lengthPrefixed(), `${scheme} signer`);
    const signedData = new Fields(signer.lengthPrefixed(), `${scheme} signed data`);
    const minSdk = scheme === "v3" ? signer.u32() : 0;
    signedData.lengthPrefixed(); // digests
    const certificates = new Fields(signedData.lengthPrefixed(), `${scheme} certificates`);
    if (certificates.done) throw new SigningFormatError(`A ${scheme} signer has no certificate`);
    out.push({ certificate: certificates.lengthPrefixed(), minSdk });
  }
  if (out.length === 0) throw new SigningFormatError(`The ${scheme} block has no signers`);
  return out;
}
