import { createHash, createPrivateKey, webcrypto } from "node:crypto";
// PKIjs and its ASN.1 parser (both from the PKI.js project, maintained) rather than node-forge:
// forge parses PKCS#7 but cannot verify a SignedData's signature, which is the whole point here,
// and node:crypto has no CMS at all. PKIjs verifies and signs with WebCrypto (Node's own).
import type * as Asn1 from "asn1js";
import type * as Pki from "pkijs";

/**
 * CMS (PKCS#7) SignedData for the profile service (docs/devices.md): an iPhone answers the enroll
 * profile with its attributes as a plist inside a SignedData signed by the device's own key, and
 * Hangar may sign the profile it hands out the same way.
 *
 * What a verification proves: the content is exactly what the holder of the embedded signer
 * certificate signed (not tampered with on the way, not a bare plist anybody could post). It does
 * not prove the certificate is Apple's device CA's: Apple does not publish that chain as a trust
 * anchor for this flow, and the answer's worth is the challenge it carries, which only the device
 * the profile was handed to can know.
 */

/**
 * PKIjs and asn1js (~390 KB of classes, minified) are loaded by the first call that needs them:
 * only the enroll routes sign or verify, so the devices function's dashboard routes and its cold
 * start do not evaluate them. Every export here is async already; a first enroll request pays the
 * load once per container.
 */
let libraries: Promise<{ asn1js: typeof import("./cms-libraries"); pkijs: typeof import("./cms-libraries") }> | undefined;
const cms = () => (libraries ??= import("./cms-libraries").then((cms) => ({ asn1js: cms, pkijs: cms })));

const SIGNED_DATA = "1.2.840.113549.1.7.2";
const DATA = "1.2.840.113549.1.7.1";

export class SignedDataError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SignedDataError";
  }
}

/** The bytes of an OCTET STRING, primitive or constructed (BER chunks, as some signers write it). */
function octets(value: Asn1.OctetString): Buffer {
  if (!value.idBlock.isConstructed) return Buffer.from(value.valueBlock.valueHexView);
  const parts = (value.valueBlock.value as Asn1.OctetString[]).map((part) => octets(part));
  return Buffer.concat(parts);
}

/**
 * The content of a DER/BER SignedData whose first signer's signature over it verifies with the
 * signer certificate the message carries. Throws SignedDataError for anything else: not ASN.1, not
 * SignedData, detached or empty content, no signer or certificate, a signature that does not verify.
 */
export async function verifiedContent(bytes: Uint8Array): Promise<Buffer> {
  const { asn1js, pkijs } = await cms();
  const copy = new Uint8Array(bytes).buffer;
  const parsed = asn1js.fromBER(copy);
  if (parsed.offset === -1 || parsed.offset !== copy.byteLength) throw new SignedDataError("The body is not one DER/BER value");
  let signed: Pki.SignedData;
  try {
    const info = new pkijs.ContentInfo({ schema: parsed.result });
    if (info.contentType !== SIGNED_DATA) throw new SignedDataError("The body is not CMS SignedData");
    signed = new pkijs.SignedData({ schema: info.content });
  } catch (error) {
    if (error instanceof SignedDataError) throw error;
    throw new SignedDataError("The body is not CMS SignedData", { cause: error });
  }
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new SignedDataError("The SignedData carries no content");
  if (signed.signerInfos.length === 0) throw new SignedDataError("The SignedData has no signer");
  if (!signed.certificates?.length) throw new SignedDataError("The SignedData carries no signer certificate");
  let verified = false;
  try {
    const result = await signed.verify({ signer: 0, checkChain: false, extendedMode: true });
    verified = result.signatureVerified === true;
  } catch (error) {
    throw new SignedDataError("The signature does not verify", { cause: error });
  }
  if (!verified) throw new SignedDataError("The signature does not verify");
  return octets(content);
}

/** A signing identity: its certificate chain (signer first) and private key, from one PEM text. */
export interface SigningIdentity {
  certificates: Pki.Certificate[];
  key: webcrypto.CryptoKey;
}

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/g;

/** Reads `CERTIFICATE` blocks (the signer's first) and one private key (PKCS#8, PKCS#1 RSA or SEC1 EC) from PEM. */
export async function signingIdentity(pem: string): Promise<SigningIdentity> {
  const { pkijs } = await cms();
  const certificates: Pki.Certificate[] = [];
  let keyPem: string | undefined;
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const [block, label, body] = m as unknown as [string, string, string];
    if (label === "CERTIFICATE") {
      const der = Buffer.from(body.replace(/\s+/g, ""), "base64");
      certificates.push(pkijs.Certificate.fromBER(new Uint8Array(der)));
    } else if (/PRIVATE KEY$/.test(label) && !label.includes("ENCRYPTED")) {
      keyPem = block;
    }
  }
  if (certificates.length === 0) throw new SignedDataError("The signing PEM has no certificate");
  if (!keyPem) throw new SignedDataError("The signing PEM has no (unencrypted) private key");
  const keyObject = createPrivateKey(keyPem);
  const pkcs8 = keyObject.export({ format: "der", type: "pkcs8" });
  const type = keyObject.asymmetricKeyType;
  let algorithm: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams;
  if (type === "rsa") algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  else if (type === "ec") {
    const curve = keyObject.asymmetricKeyDetails?.namedCurve;
    const namedCurve = curve === "prime256v1" ? "P-256" : curve === "secp384r1" ? "P-384" : curve === "secp521r1" ? "P-521" : undefined;
    if (!namedCurve) throw new SignedDataError(`Unsupported EC curve ${curve ?? "?"}`);
    algorithm = { name: "ECDSA", namedCurve };
  } else throw new SignedDataError(`Unsupported key type ${type ?? "?"} (RSA or EC)`);
  const key = await webcrypto.subtle.importKey("pkcs8", pkcs8, algorithm, false, ["sign"]);
  return { certificates, key };
}

/**
 * `content` as an attached CMS SignedData (DER) signed by `identity` with SHA-256, with the
 * signed attributes `openssl cms -sign` writes (content type, signing time, message digest) and
 * the whole certificate chain, as iOS expects of a signed configuration profile.
 */
export async function signContent(content: Uint8Array, identity: SigningIdentity, now: Date): Promise<Buffer> {
  const { asn1js, pkijs } = await cms();
  const signer = identity.certificates[0]!;
  const digest = createHash("sha256").update(content).digest();
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
  });
  signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({ type: "1.2.840.113549.1.9.3", values: [new asn1js.ObjectIdentifier({ value: DATA })] }),
      new pkijs.Attribute({ type: "1.2.840.113549.1.9.5", values: [new asn1js.UTCTime({ valueDate: now })] }),
      new pkijs.Attribute({ type: "1.2.840.113549.1.9.4", values: [new asn1js.OctetString({ valueHex: new Uint8Array(digest) })] }),
    ],
  });
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: DATA, eContent: new asn1js.OctetString({ valueHex: new Uint8Array(content) }) }),
    signerInfos: [signerInfo],
    certificates: identity.certificates,
  });
  await signed.sign(identity.key, 0, "SHA-256", new Uint8Array(content));
  const info = new pkijs.ContentInfo({ contentType: SIGNED_DATA, content: signed.toSchema(true) });
  return Buffer.from(info.toSchema().toBER(false));
}
