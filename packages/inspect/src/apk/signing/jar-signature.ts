/**
 * v1 (JAR) signing: META-INF/<NAME>.RSA, .DSA or .EC is a PKCS#7 SignedData (RFC 2315 / CMS,
 * RFC 5652) holding the signer's certificate. We walk to its `certificates` set and pick the
 * one the first SignerInfo names by issuer and serial number (a signature file may carry a
 * chain), else the first. Signatures are not verified: that needs MANIFEST.MF, the .SF file
 * and a digest of every entry, which is Android's job at install.
 */
import { SigningFormatError, TAG, children, encoded, expectTlv, readTlv } from "./der";
import type { Tlv } from "./der";

/** 1.2.840.113549.1.7.2, id-signedData, as encoded after its tag and length. */
const SIGNED_DATA_OID = Buffer.from([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]);
/** A chain of a few certificates is normal; thousands are an attack on our time. */
const MAX_CERTIFICATES = 64;
const MAX_SIGNER_INFOS = 16;

/** Signature block files of v1 signing: directly in META-INF/, named like Android's verifier accepts. */
export function isJarSignatureBlock(name: string): boolean {
  return /^META-INF\/[^/]+\.(RSA|DSA|EC)$/i.test(name);
}

/** The DER certificate of the signer of one signature block file. */
export function jarSignerCertificate(block: Buffer): Buffer {
  const contentInfo = expectTlv(block, 0, block.length, TAG.SEQUENCE, "ContentInfo");
  const oid = expectTlv(block, contentInfo.contentStart, contentInfo.contentEnd, TAG.OID, "ContentInfo.contentType");
  if (!block.subarray(oid.contentStart, oid.contentEnd).equals(SIGNED_DATA_OID)) {
    throw new SigningFormatError("The signature block is not a PKCS#7 SignedData");
  }
  const wrapper = expectTlv(block, oid.end, contentInfo.contentEnd, TAG.CONTEXT_0, "ContentInfo.content");
  const signedData = expectTlv(block, wrapper.contentStart, wrapper.contentEnd, TAG.SEQUENCE, "SignedData");
  // version, digestAlgorithms, encapContentInfo, then [0] certificates, [1] crls, signerInfos.
  const fields = children(block, signedData, 8);
  const certificateSet = fields.find((f, i) => i >= 3 && f.tag === TAG.CONTEXT_0);
  if (certificateSet === undefined) throw new SigningFormatError("The SignedData holds no certificates");
  const certificates = children(block, certificateSet, MAX_CERTIFICATES).filter((c) => c.tag === TAG.SEQUENCE);
  const first = certificates[0];
  if (first === undefined) throw new SigningFormatError("The SignedData's certificate set is empty");
  const signerInfos = fields.at(-1);
  const signer = signerInfos?.tag === TAG.SET ? signerId(block, signerInfos) : undefined;
  const match = signer === undefined ? undefined : certificates.find((c) => issuedAs(block, c, signer));
  return encoded(block, match ?? first);
}

interface IssuerAndSerial {
  issuer: Buffer;
  serial: Buffer;
}

/** The first SignerInfo's issuerAndSerialNumber (a subjectKeyIdentifier [0] is not matched). */
function signerId(buf: Buffer, signerInfos: Tlv): IssuerAndSerial | undefined {
  const info = children(buf, signerInfos, MAX_SIGNER_INFOS)[0];
  if (info === undefined || info.tag !== TAG.SEQUENCE) return undefined;
  const [, sid] = children(buf, info, 2);
  if (sid === undefined || sid.tag !== TAG.SEQUENCE) return undefined;
  const [issuer, serial] = children(buf, sid, 2);
  if (issuer?.tag !== TAG.SEQUENCE || serial?.tag !== TAG.INTEGER) return undefined;
  return { issuer: encoded(buf, issuer), serial: buf.subarray(serial.contentStart, serial.contentEnd) };
}

/** Whether a certificate's tbsCertificate has this issuer and serial number. */
function issuedAs(buf: Buffer, certificate: Tlv, id: IssuerAndSerial): boolean {
  const tbs = readTlv(buf, certificate.contentStart, certificate.contentEnd);
  if (tbs.tag !== TAG.SEQUENCE) return false;
  // [0] version (absent in v1 certificates), serialNumber, signature, issuer.
  const fields = children(buf, tbs, 4);
  const at = fields[0]?.tag === TAG.CONTEXT_0 ? 1 : 0;
  const serial = fields[at];
  const issuer = fields[at + 2];
  if (serial?.tag !== TAG.INTEGER || issuer === undefined) return false;
  return buf.subarray(serial.contentStart, serial.contentEnd).equals(id.serial) && encoded(buf, issuer).equals(id.issuer);
}
