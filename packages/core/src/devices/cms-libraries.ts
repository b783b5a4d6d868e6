/**
 * The parts of PKIjs and asn1js that signed-data.ts uses, in one module it imports on first use:
 * named re-exports, so the bundle keeps these classes and what they need rather than every export
 * of both packages (a dynamic import of a package keeps its whole namespace).
 */
export { Attribute, Certificate, ContentInfo, EncapsulatedContentInfo, IssuerAndSerialNumber, SignedAndUnsignedAttributes, SignedData, SignerInfo } from "pkijs";
export { fromBER, ObjectIdentifier, OctetString, UTCTime } from "asn1js";
