/**
 * Who signed an APK: the SHA-256 of each signer's certificate, as `apksigner verify
 * --print-certs` reports it. Like apksigner, the newest scheme present decides: v3.1, else v3
 * (the signer for the highest SDK range), else v2 (every signer), else v1 (every signature
 * block file, read only when no v2/v3 signature exists).
 *
 * The APK Signing Block ends where the central directory starts, so it is one ranged read
 * beside the entries (none at all when the ZIP tail read already holds it, as for most APKs
 * whose central directory is small). Signatures are not verified: that means hashing every
 * byte of the package, and Android does it at install; what a release manager needs from
 * extraction is which key an update will be checked against.
 *
 * A damaged block or signature file is a warning, never a failed extraction: the package may
 * still be worth distributing, and the signer is then reported as unknown (scheme null).
 */
import { sha256Hex } from "../../checksum/sha256";
import type { InspectContext } from "../../inspect-context";
import { InspectError, messageOf } from "../../inspect-result";
import type { SigningInfo } from "../../inspect-result";
import type { ZipArchive } from "../../zip/zip-archive";
import { SigningFormatError, TAG, readTlv } from "./der";
import { isJarSignatureBlock, jarSignerCertificate } from "./jar-signature";
import { schemeSigners } from "./signature-schemes";
import type { SchemeSigner } from "./signature-schemes";
import { SCHEME_BLOCK_ID, SIGNING_BLOCK_FOOTER_BYTES, signingBlockLength, signingBlockPairs } from "./signing-block";

/**
 * apksigner's block is padded to a multiple of 4 KiB, and 4–8 KiB in all; build tools add a
 * few KiB (dependency info, source stamps). One read of this much usually takes it whole.
 */
const SIGNING_BLOCK_GUESS_BYTES = 16 * 1024;
/** Far above real blocks (tens of KiB at most); a larger one is not read. */
export const MAX_SIGNING_BLOCK_BYTES = 1024 * 1024;
/** A signature block file is a few KiB (a certificate chain and a signature). */
const MAX_JAR_SIGNATURE_BYTES = 256 * 1024;
/** Android accepts at most 10 v1 signers. */
const MAX_JAR_SIGNERS = 10;

export async function readApkSigning(zip: ZipArchive, ctx: InspectContext): Promise<SigningInfo> {
  const fromBlock = await fromSigningBlock(zip, ctx);
  if (fromBlock !== undefined) return fromBlock;
  return fromJarSignatures(zip, ctx);
}

/** The v3.1/v3/v2 signers, or undefined when the APK has no such signature. */
async function fromSigningBlock(zip: ZipArchive, ctx: InspectContext): Promise<SigningInfo | undefined> {
  if (zip.readBeforeCentralDirectory === undefined) return undefined;
  try {
    const before = await zip.readBeforeCentralDirectory(SIGNING_BLOCK_FOOTER_BYTES, SIGNING_BLOCK_GUESS_BYTES);
    const length = signingBlockLength(before);
    if (length === undefined) return undefined;
    if (length > MAX_SIGNING_BLOCK_BYTES) {
      ctx.warnings.push(`The APK Signing Block is ${length} bytes, over the ${MAX_SIGNING_BLOCK_BYTES} read; its signers are not reported`);
      return { scheme: null, certificateSha256: [] };
    }
    const bytes = before.length >= length ? before : await zip.readBeforeCentralDirectory(length);
    if (bytes.length < length) throw new SigningFormatError("The APK Signing Block starts before the file does");
    ctx.checkDeadline();
    const pairs = signingBlockPairs(bytes.subarray(bytes.length - length));
    const v31 = pairs.get(SCHEME_BLOCK_ID.v31);
    if (v31 !== undefined) return { scheme: "v3.1", certificateSha256: [fingerprint(newest(schemeSigners(v31, "v3")))] };
    const v3 = pairs.get(SCHEME_BLOCK_ID.v3);
    if (v3 !== undefined) return { scheme: "v3", certificateSha256: [fingerprint(newest(schemeSigners(v3, "v3")))] };
    const v2 = pairs.get(SCHEME_BLOCK_ID.v2);
    if (v2 !== undefined) return { scheme: "v2", certificateSha256: schemeSigners(v2, "v2").map(fingerprint) };
    return undefined;
  } catch (error) {
    if (!(error instanceof SigningFormatError)) throw error;
    ctx.warnings.push(`The APK Signing Block is unreadable (${error.message}); its signers are not reported`);
    return { scheme: null, certificateSha256: [] };
  }
}

/** v1 (JAR) signers: one per META-INF/*.RSA|DSA|EC file, in name order. */
async function fromJarSignatures(zip: ZipArchive, ctx: InspectContext): Promise<SigningInfo> {
  const names = [...zip.entries.keys()].filter(isJarSignatureBlock).sort();
  if (names.length === 0) return { scheme: null, certificateSha256: [] };
  if (names.length > MAX_JAR_SIGNERS) {
    ctx.warnings.push(`The APK has ${names.length} v1 signature files; read the first ${MAX_JAR_SIGNERS}`);
  }
  const chosen = names.slice(0, MAX_JAR_SIGNERS);
  zip.prefetch?.(chosen);
  const certificateSha256: string[] = [];
  for (const name of chosen) {
    try {
      const block = await zip.read(name, { maxBytes: MAX_JAR_SIGNATURE_BYTES });
      certificateSha256.push(fingerprint({ certificate: jarSignerCertificate(block) }));
    } catch (error) {
      const unreadable =
        error instanceof SigningFormatError ||
        (error instanceof InspectError && error.code !== "timeout" && error.code !== "read_failed");
      if (!unreadable) throw error;
      ctx.warnings.push(`The v1 signature file ${name} is unreadable (${messageOf(error)}); its signer is not reported`);
    }
  }
  return certificateSha256.length > 0 ? { scheme: "v1", certificateSha256 } : { scheme: null, certificateSha256: [] };
}

/** The v3 signer a current device checks: the one for the highest SDK range (apksigner's last). */
function newest(signers: SchemeSigner[]): SchemeSigner {
  return signers.reduce((best, signer) => (signer.minSdk >= best.minSdk ? signer : best));
}

/** SHA-256 of a certificate that is one whole DER SEQUENCE, as Android's X.509 parser requires. */
function fingerprint(signer: { certificate: Buffer }): string {
  const { certificate } = signer;
  const tlv = readTlv(certificate, 0, certificate.length);
  if (tlv.tag !== TAG.SEQUENCE || tlv.end !== certificate.length) {
    throw new SigningFormatError("A signer's certificate is not one DER-encoded X.509 certificate");
  }
  return sha256Hex(certificate);
}
